import Foundation

/// A diagram written as text (a ` ```mermaid ` block): drawn from the SVG its kind's `prepare`
/// made of the source when its paragraph was first laid out (the Markdown reader's
/// `MermaidDiagrams`); one that could not be drawn shows its source, as the code block it was
/// written as, under the one-line reason.
open class DiagramAttachmentViewProvider: TextAttachmentViewProvider {
    open override class var providerName: String { "diagram" }
    open override func loadView() -> AttachmentView { DiagramAttachmentView(attachment: textAttachment) }
}

/// A diagram's view: still, drawn at once.
open class DiagramAttachmentView: AttachmentView {
    open override var isAnimating: Bool { false }
    open override func draw(in canvas: GraphicsContext) {
        if let svg = attachment.parameters[DiagramAttachment.svgKey], canvas.image(URL(fileURLWithPath: svg), in: canvas.bounds) { return }
        guard let font = Font(name: canvas.theme.monoFamilies, size: DiagramAttachment.sourceSize) else { return canvas.placeholder(for: attachment) }
        canvas.fillRoundedRect(canvas.bounds, radius: 6, canvas.theme.codeBackground)
        let padding = DiagramAttachment.padding
        var y = padding
        if let reason = attachment.problem {
            for line in DiagramAttachment.reasonLines(reason, width: attachment.size.width) {
                canvas.text(line, at: CGPoint(x: padding, y: y), size: DiagramAttachment.reasonSize, canvas.theme.secondaryText)
                y += DiagramAttachment.reasonLineHeight
            }
            y += DiagramAttachment.reasonGap
        }
        canvas.clipped(to: canvas.bounds.insetBy(dx: padding / 2, dy: 0)) {
            for line in DiagramAttachment.lines(of: attachment.altText) {
                canvas.text(line, at: CGPoint(x: padding, y: y), font: font, canvas.theme.text)
                y += DiagramAttachment.lineHeight
            }
        }
    }
}

package enum DiagramAttachment {
    /// The drawn diagram (an SVG file), its source's language (`mermaid`), and the look it is
    /// drawn for ("default" or "dark", the diagram engine's theme names).
    package static let svgKey = "svg", languageKey = "language", themeKey = "theme"

    /// The source as a code block sets it (GitHub's 85% of 16 px at line height 1.45, 16 px in),
    /// under its reason in a smaller line.
    package static let sourceSize = 13.6, lineHeight = 19.72, padding = 16.0
    package static let reasonSize = 12.0, reasonLineHeight = 17.0, reasonGap = 8.0

    /// The source's lines, tabs as four spaces.
    package static func lines(of source: String) -> [String] {
        source.split(separator: "\n", omittingEmptySubsequences: false).map { $0.replacingOccurrences(of: "\t", with: "    ") }
    }

    /// The box of a diagram drawn as its source under `reason`: as wide as its widest line
    /// (DejaVu Sans Mono advances 0.602 em for every character), at least a reason's line.
    package static func sourceSize(of source: String, reason: String?) -> CGSize {
        let lines = lines(of: source)
        let width = ((max(lines.map { Double($0.count) * 0.602 * sourceSize }.max() ?? 0, 440)) + 2 * padding).rounded(.up)
        let reasonHeight = reason.map { Double(reasonLines($0, width: width).count) * reasonLineHeight + reasonGap } ?? 0
        return CGSize(width: width, height: (2 * padding + reasonHeight + Double(lines.count) * lineHeight).rounded(.up))
    }

    /// `reason` cut at spaces into lines that fit a box `width` wide (a sans character is under
    /// 0.6 em wide on average, so the estimate is safe).
    package static func reasonLines(_ reason: String, width: Double) -> [String] {
        let fits = max(Int((width - 2 * padding) / (0.6 * reasonSize)), 10)
        var lines: [String] = [], line = ""
        for word in reason.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > fits { lines.append(line); line = "" }
            line += (line.isEmpty ? "" : " ") + word
        }
        return lines + (line.isEmpty ? [] : [line])
    }
}

extension TextAttachment {
    /// A diagram still to be drawn (when its paragraph is first laid out), its source as its alt
    /// text, shown only in light or only in dark looks (each look draws it in its own colours);
    /// its size until then a guess from the source's lines.
    package static func diagram(_ source: String, language: String, ordinal: Int, dark: Bool) -> TextAttachment {
        let lines = DiagramAttachment.lines(of: source).count
        var attachment = TextAttachment(scheme: "diagram", id: "diagram-\(ordinal)" + (dark ? "-dark" : ""),
                                        size: CGSize(width: 400, height: min(Double(lines) * 40 + 40, 800)), url: "diagram:",
                                        parameters: [DiagramAttachment.languageKey: language, DiagramAttachment.themeKey: dark ? "dark" : "default"],
                                        altText: source, isBlock: true)
        attachment.shownInDarkLook = dark
        return attachment
    }
}

extension AttachmentDescriptor {
    /// ` ```mermaid ` blocks: diagrams read from the Markdown (not a URL).
    public static let diagram = AttachmentDescriptor(
        kind: AttachmentKind(scheme: "diagram", defaultSize: { _ in CGSize(width: 400, height: 200) }, readKeys: []),
        provider: DiagramAttachmentViewProvider.self,
        caption: { $0.problem ?? "diagram" })
}
