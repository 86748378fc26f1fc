import Foundation

/// The document: immutable paragraphs with stable ids, read by a reader (Markdown, in
/// `TextDocument+Markdown`) or built from paragraphs. Edits return nothing and replace whole
/// paragraphs, as TextKit's content storage does. A reader may leave sections of its source
/// unparsed until a paragraph of theirs is first read (`LazySections`).
public struct TextDocument: Sendable {
    private var store: ParagraphStore
    /// Its paragraphs' store, for the reader that made it.
    package var paragraphStore: ParagraphStore { store }
    /// The paragraphs in order (a snapshot; reading one may parse its section).
    public var paragraphs: ParagraphList { ParagraphList(store: store) }
    /// Where relative image paths resolve.
    public let baseURL: URL?
    /// Non-fatal problems found while reading (a missing image, a remote one).
    public let warnings: [String]
    private var nextID: Int
    /// The attachment kinds it was read with: their work put off until layout is done with them.
    public let kinds: AttachmentKinds
    /// The reader it was read with, for text inserted later and code coloured again after an
    /// edit; nil for a document built from paragraphs.
    public let format: (any DocumentFormat)?
    /// The limits it was read within; edits keep them too.
    public internal(set) var limits: ReadingLimits = .standard
    /// The document's size for the document-size limit: the bytes it was read from, plus what
    /// edits added and less what they removed. (Not the paragraphs' text: that of sections not
    /// parsed yet is unknown, and the limit must not depend on what has been shown.)
    public var textBytes: Int { readBytes + editedBytes }
    private var readBytes: Int
    private var editedBytes = 0

    /// A document of `store`'s paragraphs, as a reader made it (`format`).
    package init(store: ParagraphStore, readBytes: Int, baseURL: URL?, warnings: [String], limits: ReadingLimits,
         kinds: AttachmentKinds, format: (any DocumentFormat)?) {
        self.store = store
        self.readBytes = readBytes
        self.baseURL = baseURL
        self.warnings = warnings
        self.nextID = store.count
        self.limits = limits
        self.kinds = kinds
        self.format = format
    }

    /// A document made of the given paragraphs, built in Swift (from attributed strings, say);
    /// a paragraph without an id (a negative one, as `TextParagraph(attributedString:)` makes)
    /// gets the next free one.
    /// `attachments`: the kinds their attachments are of (their work put off until layout);
    /// `format`: the reader of text inserted later (none: inserting text is an error).
    public init(paragraphs: [TextParagraph], baseURL: URL? = nil, attachments: AttachmentKinds = .standard,
                format: (any DocumentFormat)? = nil) {
        var next = (paragraphs.map(\.id.rawValue).max() ?? -1) + 1
        let numbered = paragraphs.map { p -> TextParagraph in
            guard p.id.rawValue < 0 else { return p }
            defer { next += 1 }
            return p.with(id: ParagraphID(next))
        }
        store = ParagraphStore(paragraphs: numbered)
        readBytes = numbered.reduce(0) { $0 + $1.text.utf8.count }
        self.baseURL = baseURL
        self.warnings = []
        self.nextID = next
        self.kinds = attachments
        self.format = format
    }

    /// One paragraph per line of `attributedString`, with its attributes, as TextKit's content
    /// storage splits a text storage.
    public init(attributedString: NSAttributedString) {
        var paragraphs: [TextParagraph] = []
        var location = 0
        let string = attributedString.string as NSString
        while location < string.length || (location == 0 && string.length == 0) {
            let line = string.lineRange(for: NSRange(location: location, length: 0))
            paragraphs.append(TextParagraph(attributedString: attributedString.attributedSubstring(from: line)))
            guard line.length > 0 else { break }
            location = line.location + line.length
        }
        // A text that ends with a line break ends with an empty paragraph, as TextKit's extra
        // line: the document is as long as the string ("a\n" is two units, not one).
        if string.length > 0, let last = Unicode.Scalar(string.character(at: string.length - 1)),
           last == "\n" || last == "\r" || last == "\u{2028}" || last == "\u{2029}" || last == "\u{85}" {
            paragraphs.append(TextParagraph(attributedString: NSAttributedString(string: "")))
        }
        self.init(paragraphs: paragraphs)
    }

    /// From Foundation's `AttributedString`: its text by lines, each run's link, and the
    /// attributes `attributes` gives each run (the caller maps its own keys; Foundation on Linux
    /// has no presentation intents to read).
    public init(_ attributedString: AttributedString,
                attributes: (AttributedString.Runs.Run) -> [NSAttributedString.Key: Any] = { _ in [:] }) {
        let result = NSMutableAttributedString(string: "")
        for run in attributedString.runs {
            var values = attributes(run)
            if let link = run.link { values[.link] = link.absoluteString }
            result.append(NSAttributedString(string: String(attributedString[run.range].characters), attributes: values))
        }
        self.init(attributedString: result)
    }

    /// How many paragraphs the document has.
    public var count: Int { store.count }

    /// How the file was read: its sections, those parsed when it was opened, and the parses
    /// made since (a section dropped and needed again counts again).
    public var reading: (sections: Int, parsedAtOpen: Int, lazyParses: Int) {
        (store.sectionCount, store.parsedAtOpen, store.lazyParses)
    }

    /// The index of the paragraph with `id`, if it is still in the document.
    public func index(of id: ParagraphID) -> Int? { store.index(of: id) }

    /// The first paragraph that holds attachment `id`.
    public func index(ofAttachment id: String) -> Int? { store.firstIndex(ofAttachment: id) }

    /// The first heading whose text is `title`, ignoring case and surrounding spaces; failing
    /// that, the first that contains it.
    public func index(ofHeading title: String) -> Int? {
        let wanted = title.trimmingCharacters(in: .whitespaces)
        return store.firstIndex(ofHeading: wanted, containing: false) ?? store.firstIndex(ofHeading: wanted, containing: true)
    }
}

extension TextDocument {
    /// A new id for an inserted paragraph.
    public mutating func makeParagraphID() -> ParagraphID {
        defer { nextID += 1 }
        return ParagraphID(nextID)
    }

    /// Refuses an edit that would take the document past its limits: the same paragraph and
    /// document sizes that reading enforces hold for the document as edited.
    func checkEdit(adding added: [TextParagraph], removing removed: TextParagraph?, at index: Int) throws {
        for paragraph in added where paragraph.text.utf8.count > limits.paragraphBytes {
            throw TextReelError("the edit makes paragraph \(index) too long: " + limits.paragraphLimitMessage(paragraph.text.utf8.count))
        }
        let total = textBytes + added.reduce(0) { $0 + $1.text.utf8.count } - (removed?.text.utf8.count ?? 0)
        if total > limits.documentBytes {
            throw TextReelError("the edit makes the document \(total >> 20) MB, over the \(limits.documentBytes >> 20) MB limit; raise it with --max-document-mb")
        }
    }

    mutating func replaceParagraph(at index: Int, with paragraph: TextParagraph) {
        editedBytes += paragraph.text.utf8.count - store[index].text.utf8.count
        editableStore().replace(at: index, with: paragraph)
    }

    mutating func insertParagraph(_ paragraph: TextParagraph, at index: Int) {
        editedBytes += paragraph.text.utf8.count
        editableStore().insert(paragraph, at: index)
    }

    mutating func removeParagraph(at index: Int) {
        editedBytes -= store[index].text.utf8.count
        editableStore().remove(at: index)
    }

    /// The store, copied first if another document shares it.
    private mutating func editableStore() -> ParagraphStore {
        if !isKnownUniquelyReferenced(&store) { store = store.copy() }
        return store
    }
}
