import Foundation

/// A stable paragraph identity: it survives edits of the paragraph's text and is never reused.
public struct ParagraphID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The number behind the id, never reused in a document.
    public let rawValue: Int
    /// The id numbered `rawValue`.
    public init(_ rawValue: Int) { self.rawValue = rawValue }
    public static func < (a: ParagraphID, b: ParagraphID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "p\(rawValue)" }
}

/// What a block is, which decides its style and decorations.
public enum ParagraphKind: Hashable, Sendable {
    /// A plain paragraph.
    case body
    /// A heading of `level` (1 for `#`).
    case heading(level: Int)
    /// A list item's paragraph; `marker` is nil for a continuation paragraph of the same item.
    case listItem(marker: String?)
    /// A code block, with its fence's info string ("swift"; nil: none given).
    case codeBlock(language: String?)
    /// A row of a table: its cells separated by tabs (see `TableRow`).
    case tableRow(TableRow)
    /// A horizontal rule (`---`).
    case thematicBreak
    /// An attachment alone in its paragraph: its own fragment.
    case blockAttachment

    /// A short name used in events and previews.
    public var name: String {
        switch self {
        case .body: "paragraph"
        case .heading(let level): "heading\(level)"
        case .listItem: "list-item"
        case .codeBlock: "code"
        case .tableRow(let row): row.isHeader ? "table-header" : "table-row"
        case .thematicBreak: "rule"
        case .blockAttachment: "block-attachment"
        }
    }
}

/// Inline styles a run of text can carry.
public struct InlineStyle: OptionSet, Hashable, Sendable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    /// Italic (`*text*`).
    public static let emphasis = InlineStyle(rawValue: 1 << 0)
    /// Bold (`**text**`).
    public static let strong = InlineStyle(rawValue: 1 << 1)
    /// Struck through (`~~text~~`).
    public static let strikethrough = InlineStyle(rawValue: 1 << 2)
    /// Inline code (`` `text` ``), in the monospaced font.
    public static let code = InlineStyle(rawValue: 1 << 3)
    /// A link's text; the target is the run's `link`.
    public static let link = InlineStyle(rawValue: 1 << 4)
    /// Raised and smaller (a footnote reference, `<sup>`).
    public static let raised = InlineStyle(rawValue: 1 << 5)
    /// Lowered and smaller (`<sub>`).
    public static let lowered = InlineStyle(rawValue: 1 << 6)
    /// Underlined (`<ins>`, `<u>`).
    public static let underline = InlineStyle(rawValue: 1 << 7)
    /// Highlighted as by a marker pen (`<mark>`).
    public static let marked = InlineStyle(rawValue: 1 << 8)
    /// Smaller than the text around it (`<small>`).
    public static let small = InlineStyle(rawValue: 1 << 9)
    /// A key (`<kbd>`): with `code`, drawn as a key cap (a bordered box), as GitHub draws it.
    public static let keyboard = InlineStyle(rawValue: 1 << 10)
}

/// A styled run over a paragraph's text, in UTF-8 byte offsets (Pango's unit).
public struct StyledRun: Hashable, Sendable {
    /// The text covered, in UTF-8 byte offsets.
    public var range: Range<Int>
    /// The styles over that text.
    public var style: InlineStyle
    /// The link target when `style` contains `.link`.
    public var link: String?
    /// A run of `style` over `range` (UTF-8 byte offsets).
    public init(range: Range<Int>, style: InlineStyle, link: String? = nil) {
        self.range = range; self.style = style; self.link = link
    }
}

/// One immutable block of the document: a heading, a paragraph, a list item, a code block, a table,
/// a rule or a block attachment. Editing makes a new value with the same `id`.
public struct TextParagraph: Hashable, Sendable {
    /// Its identity, kept across edits.
    public let id: ParagraphID
    /// What block it is.
    public let kind: ParagraphKind
    /// The text; each attachment is one U+FFFC at its `utf8Offset`.
    public let text: String
    /// The Markdown inline styles over the text.
    public let runs: [StyledRun]
    /// Attributes beyond the Markdown styles (fonts, colours, custom keys), from `^[text](key: value)`,
    /// from Swift, or from a content-storage delegate.
    public let attributes: [AttributeRun]
    /// The attachments in the text, in text order.
    public let attachments: [TextAttachment]
    /// How many block quotes hold this paragraph.
    public let quoteDepth: Int
    /// How many lists hold this paragraph (0 outside lists).
    public let listDepth: Int
    /// 1-based line in the source, for messages.
    public let sourceLine: Int
    /// Which blocks around it end with it: the space after it is theirs.
    public let ending: BlockEnding

    /// Whether `other` holds the same block, wherever each sits: everything but the id and the
    /// source line (a live reload keeps the paragraphs a save left as they were).
    public func hasSameContent(as other: TextParagraph) -> Bool {
        kind == other.kind && text == other.text && runs == other.runs && attributes == other.attributes
            && attachments == other.attachments && quoteDepth == other.quoteDepth && listDepth == other.listDepth && ending == other.ending
    }
    /// A highlighted code band's lexer state at its start (nil: a block's start, or not known),
    /// so an edit re-lexes from its band (see `SyntaxHighlighter`).
    package var syntaxStart: [String]?

    /// The attribute that sets a paragraph's direction whatever its text's and the view's: 1
    /// right to left (a block inside HTML's `dir="rtl"`), 0 left to right (a Persian item in an
    /// English list). Without it a paragraph takes its text's direction.
    package static let rightToLeftKey = "TextReelRightToLeft"

    /// Whether the paragraph is set right to left whatever the view's direction (`dir="rtl"`).
    var prefersRightToLeft: Bool { attributes(at: 0)[Self.rightToLeftKey].map { $0 != .number(0) } ?? false }
    /// Whether the paragraph is set left to right whatever its text's direction.
    var prefersLeftToRight: Bool { attributes(at: 0)[Self.rightToLeftKey] == .number(0) }

    /// A paragraph; offsets in `runs`, `attachments` and `attributes` are UTF-8 bytes into `text`.
    public init(id: ParagraphID, kind: ParagraphKind, text: String, runs: [StyledRun] = [],
                attachments: [TextAttachment] = [], quoteDepth: Int = 0, listDepth: Int = 0,
                sourceLine: Int = 0, attributes: [AttributeRun] = [], ending: BlockEnding = BlockEnding()) {
        self.id = id; self.kind = kind; self.text = text; self.runs = runs
        self.attachments = attachments; self.quoteDepth = quoteDepth
        self.listDepth = listDepth; self.sourceLine = sourceLine; self.attributes = attributes
        self.ending = ending
    }

    /// The same paragraph under another id (a paragraph inserted into a document).
    public func with(id: ParagraphID) -> TextParagraph {
        var copy = TextParagraph(id: id, kind: kind, text: text, runs: runs, attachments: attachments,
                                 quoteDepth: quoteDepth, listDepth: listDepth, sourceLine: sourceLine, attributes: attributes, ending: ending)
        copy.syntaxStart = syntaxStart
        return copy
    }

    /// The same paragraph with other text, runs, attachments and attributes (an edit keeps id and kind).
    public func replacing(text: String, runs: [StyledRun], attachments: [TextAttachment], attributes: [AttributeRun]? = nil) -> TextParagraph {
        var copy = TextParagraph(id: id, kind: kind, text: text, runs: runs, attachments: attachments,
                                 quoteDepth: quoteDepth, listDepth: listDepth, sourceLine: sourceLine, attributes: attributes ?? self.attributes, ending: ending)
        copy.syntaxStart = syntaxStart
        return copy
    }

    /// The same paragraph ending other blocks.
    package func with(ending: BlockEnding) -> TextParagraph {
        var copy = TextParagraph(id: id, kind: kind, text: text, runs: runs, attachments: attachments,
                                 quoteDepth: quoteDepth, listDepth: listDepth, sourceLine: sourceLine, attributes: attributes, ending: ending)
        copy.syntaxStart = syntaxStart
        return copy
    }
}

/// Where a paragraph sits among the blocks that hold it, for spacing as GitHub's stylesheet
/// spaces blocks: the gap after a block equals the gap before the next one, list items are 4
/// points apart unless the list is loose, and a quote's bar stops before the gap after it.
public struct BlockEnding: Hashable, Sendable {
    /// It is the last paragraph of a list (the list's space after follows it).
    public var list = false
    /// How many quotes end with it, innermost first.
    public var quotes = 0
    /// It is an item's paragraph of a loose list (items separated by paragraph spacing).
    public var looseList = false
    /// A band of a long code block that goes on from the paragraph before (no top edge).
    public var joinsPrevious = false
    /// A band of a long code block that goes on in the next paragraph (no bottom edge).
    public var joinsNext = false
    /// An item's text that a list nested in the item follows, or a nested list's last item that
    /// more of its item follows: no space between them in a tight list (GitHub's nested lists
    /// have no margin, and their first item none above it).
    public var opensList = false

    /// Nothing ends with it.
    public init(list: Bool = false, quotes: Int = 0, looseList: Bool = false, joinsPrevious: Bool = false, joinsNext: Bool = false) {
        self.list = list; self.quotes = quotes; self.looseList = looseList
        self.joinsPrevious = joinsPrevious; self.joinsNext = joinsNext
    }
}
