import Foundation

/// An RGB colour with components in 0…1.
public struct Color: Hashable, Sendable {
    public var red, green, blue: Double
    public init(_ red: Double, _ green: Double, _ blue: Double) { self.red = red; self.green = green; self.blue = blue }
    /// From 0xRRGGBB.
    public init(hex: UInt32) {
        self.init(Double((hex >> 16) & 0xFF) / 255, Double((hex >> 8) & 0xFF) / 255, Double(hex & 0xFF) / 255)
    }
}

/// Fonts, sizes, colours and spacing: how each kind of paragraph looks. Part of every surface
/// cache key, so two themes never share a cached fragment; equality and hashing are derived from
/// every stored property, so a new one can never be left out of the key.
public struct Theme: Hashable, Sendable {
    public var bodyFamilies = "Noto Sans, DejaVu Sans, Noto Sans Arabic, Noto Sans Hebrew, Noto Sans Devanagari, Noto Sans CJK JP"
    public var monoFamilies = "DejaVu Sans Mono, Noto Sans CJK JP, Noto Sans Arabic, Noto Sans Hebrew"
    public var bodySize = 15.0
    public var codeSize = 13.0
    public var headingSizes = [28.0, 23.0, 19.0, 17.0, 15.0, 14.0]
    /// Extra space between lines, as a fraction of the font size.
    public var lineSpacing = 0.3
    /// Space between the container's edges and the text.
    public var insets = Insets(left: 32, right: 32, top: 24, bottom: 24)
    public var paragraphSpacing = 10.0
    public var listIndent = 24.0
    public var quoteIndent = 18.0
    public var codePadding = 10.0

    public var background = Color(hex: 0xFFFFFF)
    public var text = Color(hex: 0x1F2328)
    public var secondaryText = Color(hex: 0x57606A)
    public var link = Color(hex: 0x0B63CE)
    public var codeBackground = Color(hex: 0xF3F4F6)
    public var rule = Color(hex: 0xD0D7DE)
    public var quoteBar = Color(hex: 0xC8CFD6)

    public init() {}

    /// Space around the text, in points.
    public struct Insets: Hashable, Sendable {
        public var left, right, top, bottom: Double
        public init(left: Double, right: Double, top: Double, bottom: Double) {
            self.left = left; self.right = right; self.top = top; self.bottom = bottom
        }
    }
}

/// The resolved look of one paragraph: the theme applied to its kind and nesting.
struct ParagraphStyle {
    var families: String
    var size: Double
    var bold = false
    var color: Color
    var spacingBefore: Double
    var spacingAfter: Double
    /// x of the layout's left edge, from the container's left edge.
    var leftIndent: Double
    /// Width taken from the right.
    var rightIndent: Double
    /// For list items: the marker hangs this far left of the text.
    var hangingIndent = 0.0
    /// Padding inside a shaded box (code blocks).
    var padding = 0.0
    var wrapsAtCharacters = false
    /// How far each quote level moves the text (and its bar) right: the theme's, or less when
    /// deep nesting would take more than half the text width.
    var quoteStep: Double

    /// The most the nesting of quotes and lists may indent, as a share of the text width: deeper
    /// levels indent by less, so deep text stays readable inside the view.
    static let maximumNestingShare = 0.5

    init(paragraph: TextParagraph, theme: Theme, containerWidth: Double) {
        let rawQuote = Double(paragraph.quoteDepth) * theme.quoteIndent
        let rawList = Double(max(paragraph.listDepth, 0)) * theme.listIndent
        // Up to half the cap, levels indent as the theme says; beyond, each level indents less
        // than the one before, approaching the cap without reaching it, so levels stay distinct.
        let cap = max(containerWidth - theme.insets.left - theme.insets.right, 0) * Self.maximumNestingShare
        let raw = rawQuote + rawList, knee = cap / 2
        let squeeze = raw > knee && knee > 0 ? (knee + knee * (1 - exp(-(raw - knee) / knee))) / raw : 1
        let quoteIndent = rawQuote * squeeze, listIndent = rawList * squeeze
        quoteStep = theme.quoteIndent * squeeze
        families = theme.bodyFamilies
        size = theme.bodySize
        color = paragraph.quoteDepth > 0 ? theme.secondaryText : theme.text
        spacingBefore = 0
        spacingAfter = theme.paragraphSpacing
        leftIndent = theme.insets.left + quoteIndent + listIndent
        rightIndent = theme.insets.right
        switch paragraph.kind {
        case .heading(let level):
            size = theme.headingSizes[min(max(level, 1), 6) - 1]
            bold = true
            spacingBefore = level <= 2 ? 14 : 8
            spacingAfter = level <= 2 ? 10 : 6
        case .listItem(let marker):
            spacingAfter = 4
            if marker != nil { hangingIndent = theme.listIndent }
        case .codeBlock:
            families = theme.monoFamilies
            size = theme.codeSize
            padding = theme.codePadding
            spacingAfter = theme.paragraphSpacing + 2
            wrapsAtCharacters = true
        case .table:
            spacingAfter = theme.paragraphSpacing + 2
        case .thematicBreak:
            spacingBefore = 6
            spacingAfter = 6
        case .body, .blockAttachment:
            break
        }
    }
}
