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
    /// Behind inline code: GitHub's translucent `#818b981f` over the page (darker than a code
    /// block's background, so a span stands out in a line).
    public var codeSpanBackground = Color(hex: 0xF0F1F3)
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
        t.codeSpanBackground = Color(hex: 0x1F232A)   // `#656c7633` over the page
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

    /// A code editor's look, for plain text (one paragraph a line, as TextKit's content storage
    /// splits a text): monospaced at code's size, no space between paragraphs, narrow margins.
    public static let editor: Theme = {
        var t = Theme()
        t.bodyFamilies = t.monoFamilies
        t.bodySize = t.codeSize
        t.lineHeight = t.codeLineHeight
        t.paragraphSpacing = 0
        t.itemSpacing = 0
        t.insets = Insets(left: 8, right: 8, top: 8, bottom: 8)
        return t
    }()

    /// The built-in themes by name.
    public static let builtIn: [String: Theme] = ["light": .light, "dark": .dark, "editor": .editor]

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
