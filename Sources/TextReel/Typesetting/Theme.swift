import Foundation

extension Color {
    /// The colour as `theme` shows it.
    public func resolved(for theme: Theme) -> Color {
        guard let dark else { return self }
        return theme.isDark ? Color(dark.red, dark.green, dark.blue) : Color(red, green, blue)
    }
}

/// Fonts, sizes, colours and spacing: how each kind of paragraph looks. Part of every surface
/// cache key, so two themes never share a cached fragment; equality and hashing are derived from
/// every stored property, so a new one can never be left out of the key.
public struct Theme: Hashable, Sendable {
    /// Pango font families for text, in fallback order.
    public var bodyFamilies = "Noto Sans, DejaVu Sans, Noto Sans Arabic, Noto Sans Hebrew, Noto Sans Devanagari, Noto Sans CJK JP"
    /// Pango font families for code, in fallback order.
    public var monoFamilies = "DejaVu Sans Mono, Noto Sans CJK JP, Noto Sans Arabic, Noto Sans Hebrew"
    // The measures are GitHub's Markdown stylesheet's (github-markdown-css 5.9.0), a CSS pixel
    // a point: `make fidelity` holds TextReel's block tops against a browser showing it.

    /// Body text size, in points (16 px).
    public var bodySize = 16.0
    /// Code text size, in points (85% of the body's).
    public var codeSize = 13.6
    /// Heading sizes for levels 1 to 6, in points (2, 1.5, 1.25, 1, .875 and .85 em).
    public var headingSizes = [32.0, 24.0, 20.0, 16.0, 14.0, 13.6]
    /// Height of a line of text as a multiple of its font size (CSS's `line-height`: the space
    /// beyond the font's own height is shared above and below each line).
    public var lineHeight = 1.5
    /// The same for headings.
    public var headingLineHeight = 1.25
    /// The same for code blocks.
    public var codeLineHeight = 1.45
    /// Space between the container's edges and the text (a README's padding).
    public var insets = Insets(left: 32, right: 32, top: 32, bottom: 32)

    /// Space after a block, in points (`margin-bottom`).
    public var paragraphSpacing = 16.0
    /// Space above and below a heading, in points: where it follows a block, the larger of its
    /// space above and the block's space below (CSS's collapsing margins).
    public var headingSpacingBefore = 24.0, headingSpacingAfter = 16.0
    /// Space between the items of a tight list, in points (.25 em).
    public var itemSpacing = 4.0
    /// Indent per list level, in points (2 em); a list marker hangs in it.
    public var listIndent = 32.0
    /// Indent per quote level, in points: the bar (.25 em) and the padding after it (1 em).
    public var quoteIndent = 20.0
    /// Padding inside a code block's shaded box, in points.
    public var codePadding = 16.0
    /// Whether a code line too long for its box wraps, its continuation marked. By default it
    /// runs on past the box and is cut at its edge, as GitHub's page shows a block it has not
    /// scrolled sideways.
    public var wrapsCode = false

    /// Behind everything; its lightness decides whether the look is dark.
    public var background = Color(hex: 0xFFFFFF)
    /// Body text.
    public var text = Color(hex: 0x1F2328)
    /// Text in block quotes.
    public var secondaryText = Color(hex: 0x59636E)
    /// Link text.
    public var link = Color(hex: 0x0B63CE)
    /// Behind code blocks and inline code.
    public var codeBackground = Color(hex: 0xF6F8FA)
    /// Highlighted code's colours by class.
    public var syntax = SyntaxColors()
    /// Thematic breaks, table header lines and the line under level 1 and 2 headings.
    public var rule = Color(hex: 0xD1D9E0)
    /// The bar beside quoted text.
    public var quoteBar = Color(hex: 0xD1D9E0)
    /// What attachment views, placeholders and the overlay draw with.
    public var attachments = AttachmentColors()
    /// What the overlay (`--overlay`) draws with.
    public var overlay = OverlayColors()
    /// The caret and the selection highlight.
    public var selection = SelectionColors()
    /// Left to right, or mirrored: insets, indents, list markers and quote bars swap sides.
    public var direction = LayoutDirection.leftToRight

    /// The light look (`Theme.light`).
    public init() {}

    /// Which way lines run; the raw value is what `--direction` and scripts write.
    public enum LayoutDirection: String, Hashable, Sendable, CaseIterable {
        /// Left to right ("ltr"): the default.
        case leftToRight = "ltr"
        /// Right to left ("rtl"): the layout mirrored.
        case rightToLeft = "rtl"
    }

    /// Colours of attachment views and placeholders (a video's poster is content, not theme).
    public struct AttachmentColors: Hashable, Sendable {
        /// A text field's fill.
        public var fieldBackground = Color(hex: 0xFFFFFF)
        /// A text field's border, and a slider knob's outline.
        public var fieldBorder = Color(hex: 0x8C959F)
        /// A text field's text.
        public var fieldText = Color(hex: 0x1F2328)
        /// An empty, unfocused text field's alt text or id.
        public var fieldPlaceholder = Color(hex: 0x8C959F)
        /// Focus rings, the caret and a slider's filled part.
        public var accent = Color(hex: 0x0969DA)
        /// A toggle that is on.
        public var toggleOn = Color(hex: 0x2DA44E)
        /// A toggle that is off.
        public var toggleOff = Color(hex: 0xD0D7DE)
        /// A toggle's knob, and a slider's knob when not focused.
        public var knob = Color(hex: 0xFFFFFF)
        /// A slider's track.
        public var track = Color(hex: 0xD0D7DE)
        /// A drawing's background.
        public var drawingPaper = Color(hex: 0xFFFDF5)
        /// Strokes added to a drawing by script.
        public var drawingInk = Color(hex: 0x1F2328)
        /// A drawing's border and caption.
        public var drawingFrame = Color(hex: 0x8A5A00)
        /// A loading view's fill.
        public var loadingFill = Color(hex: 0xE8EBEF)
        /// A loading view's border.
        public var loadingBorder = Color(hex: 0xAFB8C1)
        /// A loading view's dots and caption.
        public var loadingInk = Color(hex: 0x57606A)
        /// A video placeholder's fill and ink.
        public var videoPlaceholder = Color(hex: 0x2D333B), videoPlaceholderInk = Color(hex: 0xF0F3F6)
        /// A drawing placeholder's fill and ink.
        public var drawingPlaceholder = Color(hex: 0xFFF8E6), drawingPlaceholderInk = Color(hex: 0x8A5A00)
        /// A control placeholder's fill and ink.
        public var controlPlaceholder = Color(hex: 0xF6F8FA), controlPlaceholderInk = Color(hex: 0x24292F)
        /// An image placeholder's fill and ink (a missing or damaged image).
        public var imagePlaceholder = Color(hex: 0xFDECEC), imagePlaceholderInk = Color(hex: 0x9A1B1B)
        /// The fill and ink of other kinds' placeholders.
        public var otherPlaceholder = Color(hex: 0xEEF1F4), otherPlaceholderInk = Color(hex: 0x24292F)
        /// The light look's colours.
        public init() {}
    }

    /// Colours of the editing layer: the caret (UIKit's tint) and the highlight behind selected
    /// text, in a focused view and in one that is not (`TextView.isFocused`).
    public struct SelectionColors: Hashable, Sendable {
        /// The caret bar.
        public var caret = Color(hex: 0x0B63CE)
        /// The highlight in a focused view.
        public var focused = Color(hex: 0x0B63CE)
        /// The highlight in a view that is not focused.
        public var unfocused = Color(hex: 0x8C959F)
        /// How opaque the highlight is over the background (the text stays on top).
        public var highlightAlpha = 0.25
        /// The light look's colours.
        public init() {}
    }

    /// Colours of highlighted code, by class (GitHub's "prettylights" palette as a reference).
    public struct SyntaxColors: Hashable, Sendable {
        /// Keywords (`let`, `func`, `return`).
        public var keyword = Color(hex: 0xCF222E)
        /// String literals.
        public var string = Color(hex: 0x0A3069)
        /// Comments.
        public var comment = Color(hex: 0x6E7781)
        /// Numbers, constants and built-in names.
        public var constant = Color(hex: 0x0550AE)
        /// Function and method names, decorators.
        public var function = Color(hex: 0x8250DF)
        /// Type names and namespaces.
        public var type = Color(hex: 0x953800)
        /// Variables and attributes.
        public var variable = Color(hex: 0x953800)
        /// Markup tags.
        public var tag = Color(hex: 0x116329)
        /// A diff's added lines.
        public var inserted = Color(hex: 0x116329)
        /// A diff's removed lines.
        public var deleted = Color(hex: 0x82071E)
        /// A diff's headers.
        public var heading = Color(hex: 0x0550AE)
        /// The light look's colours.
        public init() {}

        /// The colour of a class as the highlighter names it (nil: drawn as plain code).
        public func color(of name: String) -> Color? {
            switch name {
            case "keyword": keyword
            case "string": string
            case "comment": comment
            case "number", "constant", "builtin": constant
            case "function", "attribute": function
            case "type": type
            case "variable": variable
            case "tag": tag
            case "inserted": inserted
            case "deleted": deleted
            case "heading": heading
            default: nil
            }
        }
    }

    /// Colours of the overlay (`--overlay`): fragment frames, surface bounds, the minimap.
    public struct OverlayColors: Hashable, Sendable {
        /// Fragment frames, and the visible rect on the minimap.
        public var frame = Color(hex: 0x1F6FEB)
        /// Rendering surface bounds (dashed).
        public var surface = Color(hex: 0xE36209)
        /// The viewport bounds on the minimap, and the frame's border.
        public var band = Color(hex: 0x8250DF)
        /// The minimap's strip.
        public var minimap = Color(hex: 0xEAEEF2)
        /// The light look's colours.
        public init() {}
    }

    /// Whether this is a dark look (a dark background), for dynamic colours.
    public var isDark: Bool { 0.2126 * background.red + 0.7152 * background.green + 0.0722 * background.blue < 0.5 }

    /// The default look: dark text on white.
    public static let light = Theme()

    /// A designed dark look (GitHub's dark palette as a reference), not an inversion: text
    /// and backgrounds keep their contrast, links and accents stay readable on the dark ground,
    /// placeholders and controls have dark versions of their own.
    public static let dark: Theme = {
        var t = Theme()
        t.background = Color(hex: 0x0D1117)
        t.text = Color(hex: 0xF0F6FC)
        t.secondaryText = Color(hex: 0x9198A1)
        t.link = Color(hex: 0x4493F8)
        t.codeBackground = Color(hex: 0x151B23)
        t.rule = Color(hex: 0x3D444D)
        t.quoteBar = Color(hex: 0x3D444D)
        t.selection.caret = Color(hex: 0x4493F8)
        t.selection.focused = Color(hex: 0x4493F8)
        t.selection.unfocused = Color(hex: 0x6E7681)
        var a = AttachmentColors()
        a.fieldBackground = Color(hex: 0x0D1117); a.fieldBorder = Color(hex: 0x3D444D)
        a.fieldText = Color(hex: 0xE6EDF3); a.fieldPlaceholder = Color(hex: 0x6E7681)
        a.accent = Color(hex: 0x4493F8); a.toggleOn = Color(hex: 0x2EA043); a.toggleOff = Color(hex: 0x3D444D)
        a.knob = Color(hex: 0xE6EDF3); a.track = Color(hex: 0x3D444D)
        a.drawingPaper = Color(hex: 0x1C2128); a.drawingInk = Color(hex: 0xE6EDF3); a.drawingFrame = Color(hex: 0xD29922)
        a.loadingFill = Color(hex: 0x21262D); a.loadingBorder = Color(hex: 0x3D444D); a.loadingInk = Color(hex: 0x9198A1)
        a.videoPlaceholder = Color(hex: 0x161B22); a.videoPlaceholderInk = Color(hex: 0xE6EDF3)
        a.drawingPlaceholder = Color(hex: 0x2B2111); a.drawingPlaceholderInk = Color(hex: 0xE3B341)
        a.controlPlaceholder = Color(hex: 0x161B22); a.controlPlaceholderInk = Color(hex: 0xC9D1D9)
        a.imagePlaceholder = Color(hex: 0x2D1517); a.imagePlaceholderInk = Color(hex: 0xFF7B72)
        a.otherPlaceholder = Color(hex: 0x161B22); a.otherPlaceholderInk = Color(hex: 0xC9D1D9)
        t.attachments = a
        var c = SyntaxColors()
        c.keyword = Color(hex: 0xFF7B72); c.string = Color(hex: 0xA5D6FF); c.comment = Color(hex: 0x8B949E)
        c.constant = Color(hex: 0x79C0FF); c.function = Color(hex: 0xD2A8FF); c.type = Color(hex: 0xFFA657)
        c.variable = Color(hex: 0xFFA657); c.tag = Color(hex: 0x7EE787); c.inserted = Color(hex: 0xAFF5B4)
        c.deleted = Color(hex: 0xFFDCD7); c.heading = Color(hex: 0x1F6FEB)
        t.syntax = c
        t.overlay.frame = Color(hex: 0x4493F8); t.overlay.surface = Color(hex: 0xF0883E)
        t.overlay.band = Color(hex: 0xAB7DF8); t.overlay.minimap = Color(hex: 0x21262D)
        return t
    }()

    /// The built-in themes by name.
    public static let builtIn: [String: Theme] = ["light": .light, "dark": .dark]

    /// The same look at another text size: every size and the spacing that goes with text (list
    /// and quote indents, paragraph spacing, code padding) scaled by the size's factor.
    public func at(_ size: TextSize) -> Theme {
        guard size != .M else { return self }
        var t = self
        let f = size.factor
        t.bodySize *= f; t.codeSize *= f
        t.headingSizes = headingSizes.map { $0 * f }
        t.paragraphSpacing *= f; t.listIndent *= f; t.quoteIndent *= f; t.codePadding *= f; t.itemSpacing *= f
        t.headingSpacingBefore *= f; t.headingSpacingAfter *= f
        return t
    }

    /// The same look mirrored or not.
    public func with(_ direction: LayoutDirection) -> Theme {
        var t = self
        t.direction = direction
        return t
    }

    /// Space around the text, in points.
    public struct Insets: Hashable, Sendable {
        /// Points on each side.
        public var left, right, top, bottom: Double
        /// Insets of `left`, `right`, `top` and `bottom` points.
        public init(left: Double, right: Double, top: Double, bottom: Double) {
            self.left = left; self.right = right; self.top = top; self.bottom = bottom
        }
    }
}

/// How a block is laid out and decorated: the theme applied to its kind and nesting (and to a
/// paragraph style attribute, by the typesetter).
struct BlockStyle {
    var families: String
    var size: Double
    /// A line's height as a multiple of `size` (CSS's `line-height`).
    var lineHeight: Double
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
    /// Padding above and below the text (`padding`, but none where a band of a long code block
    /// joins the next: one line's spacing instead, as between its lines).
    var paddingTop = 0.0, paddingBottom = 0.0
    /// Code: wrapped between tokens, continuation lines indented by `continuationIndent`.
    var isCode = false
    var continuationIndent = 0.0
    /// How far each quote level moves the text (and its bar) right: the theme's, or less when
    /// deep nesting would take more than half the text width.
    var quoteStep: Double
    /// x of the outermost quote's bar: after the indents of the lists that hold the quote.
    var quoteBarStart: Double

    /// The most the nesting of quotes and lists may indent, as a share of the text width: deeper
    /// levels indent by less, so deep text stays readable inside the view.
    static let maximumNestingShare = 0.5
    /// Space after a block a heading follows: what the heading's own space above (which assumes
    /// a paragraph's space after) leaves of the larger of the two, as CSS collapses them (a
    /// rule's 1.5 em, not 1.5 em and the heading's 24 points).
    mutating func collapseBeforeHeading(_ theme: Theme) {
        let headingBefore = max(theme.headingSpacingBefore - theme.paragraphSpacing, 0)
        spacingAfter = max(spacingAfter, theme.headingSpacingBefore) - headingBefore
    }

    /// The share of a quote's indent its bar takes (GitHub's .25 em bar before 1 em of padding).
    static let quoteBarShare = 0.2
    /// The rule under a level 1 or 2 heading, in points.
    static let ruleWidth = 1.0

    init(paragraph: TextParagraph, theme: Theme, containerWidth: Double) {
        let rawQuote = Double(paragraph.quoteDepth) * theme.quoteIndent
        let rawList = Double(max(paragraph.listDepth, 0)) * theme.listIndent
        // Up to half the cap, levels indent as the theme says; beyond, each level indents less
        // than the one before, approaching the cap without reaching it, so levels stay distinct.
        let cap = max(containerWidth - theme.insets.left - theme.insets.right, 0) * Self.maximumNestingShare
        // A quote's padding on the right (`rightShare` of its indent) counts against the cap too.
        let rightShare = 1 - Self.quoteBarShare
        let raw = rawQuote * (1 + rightShare) + rawList, knee = cap / 2
        let squeeze = raw > knee && knee > 0 ? (knee + knee * (1 - exp(-(raw - knee) / knee))) / raw : 1
        let quoteIndent = rawQuote * squeeze, listIndent = rawList * squeeze
        quoteStep = theme.quoteIndent * squeeze
        let head = paragraph.attributes(at: 0)
        let listsOutside = min(head[ListMarker.listsOutsideQuotesKey]?.number.map { Int($0) } ?? 0, paragraph.listDepth)
        quoteBarStart = theme.insets.left + Double(listsOutside) * theme.listIndent * squeeze
        families = theme.bodyFamilies
        size = theme.bodySize
        lineHeight = theme.lineHeight
        // A quote's text is muted; an alert's is not (GitHub gives alerts `color: inherit`), but
        // a quote inside an alert is.
        var alertLevel = 0
        if case .number(let level)? = head[Alert.levelKey] { alertLevel = Int(level) }
        color = paragraph.quoteDepth > alertLevel ? theme.secondaryText : theme.text
        // The notes at the end are small and muted, as GitHub sets its footnotes section (the
        // size below).
        let isFootnote = head[AttributeVocabulary.footnote] != nil
        if isFootnote { color = theme.secondaryText }
        spacingBefore = 0
        spacingAfter = theme.paragraphSpacing
        // An alert is padded .5 em above and below inside its bar; its title is one em tall
        // (GitHub's `line-height: 1`).
        var alertPadding = (top: 0.0, bottom: 0.0)
        if alertLevel > 0 {
            let padding = 0.5 * theme.bodySize
            if head[Alert.titleKey] != nil { alertPadding.top = padding; lineHeight = 1 }
            if paragraph.quoteDepth - alertLevel < paragraph.ending.quotes { alertPadding.bottom = padding }
        }
        leftIndent = theme.insets.left + quoteIndent + listIndent
        // A quote pads its text on the right as on the left, past its bar (GitHub's `0 1em`).
        rightIndent = theme.insets.right + quoteIndent * rightShare
        switch paragraph.kind {
        case .heading(let level):
            size = theme.headingSizes[min(max(level, 1), 6) - 1]
            lineHeight = theme.headingLineHeight
            bold = true
            // GitHub mutes the smallest heading.
            if level >= 6 { color = theme.secondaryText }
            // The block before ends with a paragraph's space: CSS keeps the larger of the two.
            spacingBefore = max(theme.headingSpacingBefore - theme.paragraphSpacing, 0)
            spacingAfter = theme.headingSpacingAfter
            // Levels 1 and 2 are underlined by a rule .3 em below the text (`Self.ruleWidth` tall).
            if level <= 2 { paddingBottom = (0.3 * size).rounded(); spacingAfter += Self.ruleWidth }
        case .listItem(let marker):
            // Items of a tight list are close; a loose list's items, and a list's end, take a
            // paragraph's space.
            let ending = paragraph.ending
            spacingAfter = ending.list || ending.looseList ? theme.paragraphSpacing : ending.opensList ? 0 : theme.itemSpacing
            // A number may reach left of the list's indent, as a browser hangs it into the list's
            // padding: room for "100." before the text.
            if let marker { hangingIndent = theme.listIndent + (marker.last == "." && theme.direction != .rightToLeft ? 0.9 * size : 0) }
            // An item that starts with a quote (`- > text`) has its marker before the bars.
            if marker != nil, listsOutside == paragraph.listDepth { hangingIndent += Double(paragraph.quoteDepth) * quoteStep }
        case .codeBlock:
            families = theme.monoFamilies
            size = theme.codeSize
            lineHeight = theme.codeLineHeight
            padding = theme.codePadding
            let ending = paragraph.ending
            paddingTop = ending.joinsPrevious ? 0 : padding
            paddingBottom = ending.joinsNext ? 0 : padding
            spacingAfter = ending.joinsNext ? 0 : theme.paragraphSpacing
            isCode = true
            continuationIndent = 2 * size
        case .tableRow(let row):
            spacingAfter = row.isLast ? theme.paragraphSpacing : 0
        case .thematicBreak:
            // GitHub's rule: a bar .25 em tall with 1.5 em above and below (the space above
            // taken from the block before's, as CSS collapses them).
            lineHeight = 0.25
            spacingBefore = max(1.5 * theme.bodySize - theme.paragraphSpacing, 0)
            spacingAfter = 1.5 * theme.bodySize
        case .body, .blockAttachment:
            break
        }
        if isFootnote, !isCode { size *= 0.8 }
        // Inside the alert's bar, as its padding is.
        paddingTop += alertPadding.top
        paddingBottom += alertPadding.bottom
    }
}

/// UIKit's content-size ladder, with TextReel's default `M`: each step scales every text size by
/// the ratio of UIKit's body sizes (14, 15, 16, 17, 19, 21, 23; accessibility 28, 33, 40, 47, 53
/// points) to the medium one.
public enum TextSize: String, Hashable, Sendable, CaseIterable {
    /// `extraSmall`: body 14 pt in UIKit.
    case XS
    /// `small`: 15 pt.
    case S
    /// `medium`: 16 pt, TextReel's default (the theme's sizes as they are).
    case M
    /// `large`: 17 pt, UIKit's default.
    case L
    /// `extraLarge`: 19 pt.
    case XL
    /// `extraExtraLarge`: 21 pt.
    case XXL
    /// `extraExtraExtraLarge`: 23 pt.
    case XXXL
    /// `accessibilityMedium`: 28 pt.
    case A1
    /// `accessibilityLarge`: 33 pt.
    case A2
    /// `accessibilityExtraLarge`: 40 pt.
    case A3
    /// `accessibilityExtraExtraLarge`: 47 pt.
    case A4
    /// `accessibilityExtraExtraExtraLarge`: 53 pt.
    case A5

    /// How much every text size is scaled by: this size's UIKit body size over `M`'s (16).
    public var factor: Double {
        let body: [TextSize: Double] = [.XS: 14, .S: 15, .M: 16, .L: 17, .XL: 19, .XXL: 21, .XXXL: 23,
                                        .A1: 28, .A2: 33, .A3: 40, .A4: 47, .A5: 53]
        return body[self]! / 16
    }

    /// UIKit's names (`extraLarge`, `accessibilityMedium`, `UIContentSizeCategoryExtraLarge` …)
    /// and the short ones.
    public init?(name: String) {
        if let short = TextSize(rawValue: name.uppercased()) { self = short; return }
        let long: [String: TextSize] = [
            "extrasmall": .XS, "small": .S, "medium": .M, "large": .L, "extralarge": .XL, "extraextralarge": .XXL,
            "extraextraextralarge": .XXXL, "accessibilitymedium": .A1, "accessibilitylarge": .A2,
            "accessibilityextralarge": .A3, "accessibilityextraextralarge": .A4, "accessibilityextraextraextralarge": .A5,
            "ax1": .A1, "ax2": .A2, "ax3": .A3, "ax4": .A4, "ax5": .A5]
        var key = name.lowercased()
        for prefix in ["uicontentsizecategory", "."] where key.hasPrefix(prefix) { key.removeFirst(prefix.count) }
        guard let size = long[key] else { return nil }
        self = size
    }

    /// The short names, comma-separated, for messages.
    public static let names = allCases.map(\.rawValue).joined(separator: ", ")
}

extension ParagraphKind {
    /// A thematic break (`---`): drawn as a bar, its line empty.
    var isThematicBreak: Bool { if case .thematicBreak = self { true } else { false } }
    /// A heading: the space before it collapses with the space after the block above.
    var isHeading: Bool { if case .heading = self { true } else { false } }
}
