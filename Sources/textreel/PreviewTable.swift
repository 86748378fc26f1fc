import CChafa   // libchafa's GLib: the Unicode width tables terminals follow
import Foundation
import TextReelMarkdown

/// ANSI styling that turns itself off when output is not a terminal or NO_COLOR is set.
struct TextStyle {
    let enabled: Bool
    func apply(_ code: String, _ text: String) -> String { enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
    func bold(_ t: String) -> String { apply("1", t) }
    func dim(_ t: String) -> String { apply("2", t) }
    func blue(_ t: String) -> String { apply("34", t) }
    func yellow(_ t: String) -> String { apply("33", t) }
    func magenta(_ t: String) -> String { apply("35", t) }
}

/// The preview as text: a header, the fragment table and a minimap column.
enum PreviewTable {
    static func lines(_ p: LayoutPreview, name: String, width: Int, style: TextStyle) -> [String] {
        func n(_ v: Double) -> String { String(Int(v.rounded())) }
        var out: [String] = []
        out.append(style.bold("\(safe(name)) — frame \(p.frame) at \(String(format: "%.2f", p.time)) s"))
        out.append("document  \(n(p.documentHeight)) pt: \(n(p.measuredHeight)) measured (\(p.measuredParagraphs) of \(p.paragraphs) paragraphs), \(n(p.estimatedHeight)) estimated, \(n(p.documentHeight - p.measuredHeight - p.estimatedHeight)) insets")
        out.append("visible   y \(n(p.visibleRect.y)) – \(n(p.visibleRect.y + p.visibleRect.height))  (\(n(p.visibleRect.width)) × \(n(p.visibleRect.height)) pt)")
        out.append("overdraw  y \(n(p.viewportBounds.y)) – \(n(p.viewportBounds.y + p.viewportBounds.height))")
        if let selection = p.selection { out.append(style.yellow("selection \(selection.summary)")) }
        out.append("")

        let minimapWidth = 3
        // Columns as wide as their widest value, so numbers of long documents are never cut.
        func column(_ values: [String], _ minimum: Int) -> Int { max(minimum, (values.map(\.count).max() ?? 0) + 1) }
        let indexWidth = column(p.fragments.map { String($0.index) }, 5), idWidth = column(p.fragments.map { String($0.paragraph) }, 5)
        let rangeWidth = column(p.fragments.map { "\(n($0.top))–\(n($0.bottom))" }, 13)
        let words = max(width - 39 - indexWidth - idWidth - rangeWidth - minimapWidth, 10)
        let header = pad("#", indexWidth) + pad("id", idWidth) + pad("kind", 17) + pad("y range", rangeWidth) + pad("lines", 6) + pad("state", 7)
            + pad("where", 9) + pad("first words", words)
        var rows: [String] = [style.bold(header)]
        for f in p.fragments {
            let kind = f.kind
            var row = pad(String(f.index), indexWidth) + pad(String(f.paragraph), idWidth) + pad(kind, 17)
            row += pad("\(n(f.top))–\(n(f.bottom))", rangeWidth) + pad(String(f.lines), 6) + pad(f.state == "layoutAvailable" ? "laid" : "est", 7)
            row += pad(f.visible ? "visible" : "overdraw", 9) + pad(f.firstWords, words)
            var line = f.visible ? (kind.hasPrefix("heading") ? style.bold(row) : row) : style.dim(row)
            if !f.attachments.isEmpty || f.warnings != nil { line = line.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }
            rows.append(line)
            for warning in f.warnings ?? [] { rows.append(style.yellow(safe("      ⚠ \(warning)"))) }
            for a in f.attachments {
                let event = a.lastEvent.map { " — \($0)" } ?? ""
                let state = a.state.isEmpty ? "" : ": \(a.state)"
                rows.append(style.magenta(safe("      ▣ \(a.provider) \(a.id)\(state)\(event)")))
            }
        }
        // The minimap: the whole document as a bar, the band shaded, the visible rect solid.
        let height = max(rows.count, 12)
        let total = max(p.documentHeight, 1)
        var minimap: [String] = []
        for k in 0..<height {
            let y0 = Double(k) / Double(height) * total, y1 = Double(k + 1) / Double(height) * total
            let visible = y1 > p.visibleRect.y && y0 < p.visibleRect.y + p.visibleRect.height
            let band = y1 > p.viewportBounds.y && y0 < p.viewportBounds.y + p.viewportBounds.height
            minimap.append(visible ? style.blue("█") : band ? style.blue("▒") : style.dim("│"))
        }
        for k in 0..<height {
            let row = k < rows.count ? rows[k] : ""
            out.append(padVisible(row, width - minimapWidth) + " " + minimap[k])
        }
        return out
    }

    /// A narrow table for the interactive view: index, kind, y range, where, first words.
    static func compact(_ p: LayoutPreview, width: Int, style: TextStyle) -> [String] {
        func n(_ v: Double) -> String { String(Int(v.rounded())) }
        let indexWidth = max(5, (p.fragments.map { String($0.index).count }.max() ?? 0) + 1)
        let rangeWidth = max(12, (p.fragments.map { "\(n($0.top))–\(n($0.bottom))".count }.max() ?? 0) + 1)
        let words = max(width - 11 - indexWidth - rangeWidth, 4)
        var rows = [style.bold(pad("doc \(n(p.documentHeight)) pt, \(p.measuredParagraphs)/\(p.paragraphs) measured", width)),
                    style.bold(pad("#", indexWidth) + pad("kind", 11) + pad("y", rangeWidth) + pad("words", words))]
        if let selection = p.selection { rows.insert(style.yellow(pad(selection.summary, width)), at: 1) }
        for f in p.fragments {
            let row = pad(String(f.index), indexWidth) + pad(f.kind, 11) + pad("\(n(f.top))–\(n(f.bottom))", rangeWidth)
                + pad(f.firstWords, words)
            rows.append(f.visible ? row : style.dim(row))
            for warning in f.warnings ?? [] { rows.append(style.yellow(pad("  ⚠ \(warning)", width))) }
            for a in f.attachments {
                rows.append(style.magenta(pad("  ▣ \(a.id) \(a.lastEvent ?? "") \(a.state)", width)))
            }
        }
        return rows
    }

    /// Document text made safe for a terminal: C0 and C1 controls become visible pictures (␛, ␇,
    /// �) and bidirectional overrides and isolates are dropped, so no escape sequence, title
    /// change or reordering reaches the terminal, whole or cut in half by a column.
    static func safe(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x00...0x1F: out.append(Unicode.Scalar(0x2400 + scalar.value)!)
            case 0x7F: out.append("\u{2421}")
            case 0x80...0x9F: out.append("\u{FFFD}")
            case 0x200E, 0x200F, 0x061C, 0x202A...0x202E, 0x2066...0x2069: continue
            default: out.append(scalar)
            }
        }
        return String(out)
    }

    /// Clips or pads `text` to `width` terminal cells (made safe first).
    static func pad(_ text: String, _ width: Int) -> String {
        var clipped = "", used = 0
        for character in safe(text) {
            let w = cells(character)
            if used + w > width - 1 {
                clipped += "…"
                used += 1
                break
            }
            clipped.append(character)
            used += w
        }
        return clipped + String(repeating: " ", count: max(width - used, 0))
    }

    /// Pads to `width` cells, ignoring ANSI escapes.
    static func padVisible(_ text: String, _ width: Int) -> String {
        let plain = text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        return text + String(repeating: " ", count: max(width - plain.reduce(0) { $0 + cells($1) }, 0))
    }

    /// Terminal cells a character takes: 2 for East Asian wide and emoji, 0 for combining marks,
    /// from GLib's tables (`g_unichar_iswide`, `g_unichar_iszerowidth`).
    static func cells(_ character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        if g_unichar_iszerowidth(first.value) != 0 { return 0 }
        // Made emoji by VS16, or a flag (two regional indicators): terminals draw them two cells wide.
        if character.unicodeScalars.contains(where: { $0.value == 0xFE0F }) || (0x1F1E6...0x1F1FF).contains(first.value) { return 2 }
        return g_unichar_iswide(first.value) != 0 ? 2 : 1
    }
}

/// The terminal's size in character cells (100 × 30 when not a terminal).
struct TerminalSize {
    var columns: Int
    var rows: Int

    static var current: TerminalSize {
        var size = winsize()
        if ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            return TerminalSize(columns: Int(size.ws_col), rows: Int(size.ws_row))
        }
        return TerminalSize(columns: 100, rows: 30)
    }
}
