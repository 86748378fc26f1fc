import Foundation

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

extension ParagraphKind {
    /// A thematic break (`---`): drawn as a bar, its line empty.
    var isThematicBreak: Bool { if case .thematicBreak = self { true } else { false } }
    /// A heading: the space before it collapses with the space after the block above.
    var isHeading: Bool { if case .heading = self { true } else { false } }
}
