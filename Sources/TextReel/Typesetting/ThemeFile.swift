import CPango
import Foundation

/// Themes as JSON5 files: `base` ("light" or "dark", default light) and any of the theme's
/// settings over it — fonts, sizes, line spacing, insets, spacing, indents and every colour as
/// "#RRGGBB" — read with the project's JSON5 reader, so every mistake names its line and column.
///
/// ```json5
/// {base: "dark", bodySize: 16, link: "#79C0FF", insets: {left: 24, right: 24, top: 16, bottom: 16},
///  attachments: {accent: "#79C0FF"}, overlay: {frame: "#79C0FF"}, syntax: {keyword: "#FF7B72"}}
/// ```
extension Theme {
    /// A built-in theme by name, or a theme file by path.
    public init(named nameOrPath: String) throws {
        if let builtIn = Theme.builtIn[nameOrPath] { self = builtIn; return }
        let url = URL(fileURLWithPath: nameOrPath)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw TextReelError(file: nameOrPath, "no such theme; expected light, dark or a JSON5 theme file")
        }
        try self.init(contentsOf: url)
    }

    /// Reads a theme file.
    public init(contentsOf url: URL) throws {
        let data = try InputFile.read(url, what: "theme", expected: "a JSON5 theme file", maximumBytes: InputFile.maximumTextBytes)
        guard let text = String(data: data, encoding: .utf8) else {
            throw TextReelError(file: url.path, "the theme is not UTF-8 text; expected a JSON5 theme file")
        }
        self = try JSON5Document(text: text, fileName: url.path).decode(ThemeFile.self).theme
    }

    /// The settings a theme file may give, as key paths: read-only tables (key paths are not
    /// Sendable, hence nonisolated).
    nonisolated(unsafe) static let colorKeys: [(String, WritableKeyPath<Theme, Color>)] = [
        ("background", \.background), ("text", \.text), ("secondaryText", \.secondaryText), ("link", \.link),
        ("codeBackground", \.codeBackground), ("codeSpanBackground", \.codeSpanBackground), ("rule", \.rule), ("quoteBar", \.quoteBar), ("caret", \.selection.caret),
        ("selection", \.selection.focused), ("unfocusedSelection", \.selection.unfocused)]
    nonisolated(unsafe) static let numberKeys: [(String, WritableKeyPath<Theme, Double>, ClosedRange<Double>)] = [
        ("bodySize", \.bodySize, 4...200), ("codeSize", \.codeSize, 4...200), ("lineHeight", \.lineHeight, 0.5...4), ("headingLineHeight", \.headingLineHeight, 0.5...4),
        ("codeLineHeight", \.codeLineHeight, 0.5...4), ("headingSpacingBefore", \.headingSpacingBefore, 0...400),
        ("headingSpacingAfter", \.headingSpacingAfter, 0...400), ("itemSpacing", \.itemSpacing, 0...400),
        ("paragraphSpacing", \.paragraphSpacing, 0...400), ("listIndent", \.listIndent, 0...400),
        ("quoteIndent", \.quoteIndent, 0...400), ("codePadding", \.codePadding, 0...200)]
    nonisolated(unsafe) static let attachmentKeys: [(String, WritableKeyPath<AttachmentColors, Color>)] = [
        ("fieldBackground", \.fieldBackground), ("fieldBorder", \.fieldBorder), ("fieldText", \.fieldText),
        ("fieldPlaceholder", \.fieldPlaceholder), ("accent", \.accent), ("toggleOn", \.toggleOn), ("toggleOff", \.toggleOff),
        ("knob", \.knob), ("track", \.track), ("drawingPaper", \.drawingPaper), ("drawingInk", \.drawingInk),
        ("drawingFrame", \.drawingFrame), ("loadingFill", \.loadingFill), ("loadingBorder", \.loadingBorder),
        ("loadingInk", \.loadingInk), ("videoPlaceholder", \.videoPlaceholder), ("videoPlaceholderInk", \.videoPlaceholderInk),
        ("drawingPlaceholder", \.drawingPlaceholder), ("drawingPlaceholderInk", \.drawingPlaceholderInk),
        ("controlPlaceholder", \.controlPlaceholder), ("controlPlaceholderInk", \.controlPlaceholderInk),
        ("imagePlaceholder", \.imagePlaceholder), ("imagePlaceholderInk", \.imagePlaceholderInk),
        ("otherPlaceholder", \.otherPlaceholder), ("otherPlaceholderInk", \.otherPlaceholderInk)]
    nonisolated(unsafe) static let syntaxKeys: [(String, WritableKeyPath<SyntaxColors, Color>)] = [
        ("keyword", \.keyword), ("string", \.string), ("comment", \.comment), ("constant", \.constant),
        ("function", \.function), ("type", \.type), ("variable", \.variable), ("tag", \.tag),
        ("inserted", \.inserted), ("deleted", \.deleted), ("heading", \.heading)]
    nonisolated(unsafe) static let overlayKeys: [(String, WritableKeyPath<OverlayColors, Color>)] = [
        ("frame", \.frame), ("surface", \.surface), ("band", \.band), ("minimap", \.minimap)]
}

/// A theme file as decoded.
struct ThemeFile: Decodable {
    var theme: Theme

    init(from decoder: Decoder) throws {
        let keys = ["base", "bodyFamilies", "monoFamilies", "headingSizes", "insets", "attachments", "overlay", "syntax", "wrapsCode"]
            + Theme.colorKeys.map(\.0) + Theme.numberKeys.map(\.0)
        let c = try StrictContainer(decoder, allowed: keys)
        let base = try c.optional(String.self, "base") ?? "light"
        guard let start = Theme.builtIn[base] else {
            throw c.impossible("base", "'\(base)' is not a built-in theme; expected light or dark")
        }
        theme = start
        // A list as CSS's font-family writes it (names may be quoted); Pango takes them bare.
        if let wraps = try c.optional(Bool.self, "wrapsCode") { theme.wrapsCode = wraps }
        if let families = try c.optional(String.self, "bodyFamilies") { theme.bodyFamilies = Theme.families(families).joined(separator: ", ") }
        if let families = try c.optional(String.self, "monoFamilies") { theme.monoFamilies = Theme.families(families).joined(separator: ", ") }
        for (key, path, range) in Theme.numberKeys where c.has(key) { theme[keyPath: path] = try c.number(key, in: range) }
        for (key, path) in Theme.colorKeys where c.has(key) { theme[keyPath: path] = try Self.color(c, key) }
        if c.has("headingSizes") {
            let sizes = try c.required([Double].self, "headingSizes")
            guard sizes.count == 6, sizes.allSatisfy({ $0.isFinite && $0 >= 4 && $0 <= 200 }) else {
                throw c.impossible("headingSizes", "expected six sizes from 4 to 200 points, for heading levels 1 to 6")
            }
            theme.headingSizes = sizes
        }
        if c.has("insets") { theme.insets = try c.required(InsetsFile.self, "insets").insets }
        if c.has("attachments") {
            theme.attachments = try c.required(ColorsFile<Theme.AttachmentColors>.self, "attachments").apply(to: theme.attachments, keys: Theme.attachmentKeys)
        }
        if c.has("overlay") {
            theme.overlay = try c.required(ColorsFile<Theme.OverlayColors>.self, "overlay").apply(to: theme.overlay, keys: Theme.overlayKeys)
        }
        if c.has("syntax") {
            theme.syntax = try c.required(ColorsFile<Theme.SyntaxColors>.self, "syntax").apply(to: theme.syntax, keys: Theme.syntaxKeys)
        }
    }

    static func color(_ c: StrictContainer, _ key: String) throws -> Color {
        let text = try c.required(String.self, key)
        guard let color = Color(parsing: text) else {
            throw c.impossible(key, "'\(text)' is not a colour; expected #RRGGBB or a colour name, like \"#1F2328\" or \"navy\"")
        }
        return color
    }

    struct InsetsFile: Decodable {
        var insets: Theme.Insets
        init(from decoder: Decoder) throws {
            let c = try StrictContainer(decoder, allowed: ["left", "right", "top", "bottom"])
            insets = Theme.Insets(left: try c.number("left", default: 32, in: 0...1000), right: try c.number("right", default: 32, in: 0...1000),
                                  top: try c.number("top", default: 32, in: 0...1000), bottom: try c.number("bottom", default: 32, in: 0...1000))
        }
    }

    /// A group of colours: only the keys given change.
    struct ColorsFile<Colors>: Decodable {
        let values: [String: Color]
        init(from decoder: Decoder) throws {
            let known = Colors.self == Theme.AttachmentColors.self ? Theme.attachmentKeys.map(\.0)
                : Colors.self == Theme.SyntaxColors.self ? Theme.syntaxKeys.map(\.0) : Theme.overlayKeys.map(\.0)
            let c = try StrictContainer(decoder, allowed: known)
            var values: [String: Color] = [:]
            for key in c.keys { values[key] = try ThemeFile.color(c, key) }
            self.values = values
        }
        func apply(to colors: Colors, keys: [(String, WritableKeyPath<Colors, Color>)]) -> Colors {
            var result = colors
            for (key, path) in keys { if let value = values[key] { result[keyPath: path] = value } }
            return result
        }
    }
}

extension Color {
    /// From what Pango's colour parser reads (`pango_color_parse`): "#RRGGBB", "#RGB", a CSS /
    /// X11 colour name ("navy", "rebeccapurple"); also "RRGGBB" without its "#".
    public convenience init?(parsing text: String) {
        let bare = text.count == 6 && text.allSatisfy(\.isHexDigit)
        var color = PangoColor()
        guard pango_color_parse(&color, bare ? "#" + text : text) != 0 else { return nil }
        self.init(Double(color.red) / 65535, Double(color.green) / 65535, Double(color.blue) / 65535)
    }
}
