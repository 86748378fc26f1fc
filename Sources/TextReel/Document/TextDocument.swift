import Foundation

/// The document: immutable paragraphs with stable ids, read from Markdown. Edits return nothing and
/// replace whole paragraphs, as TextKit's content storage does.
///
/// Reading indexes the file in one scan (`MarkdownIndex`) and parses with cmark-gfm only the
/// sections the scan cannot count; the others are parsed when a paragraph of theirs is first
/// read. The paragraphs, their numbers, ids, warnings and errors are those of one whole parse.
public struct TextDocument: Sendable {
    private var store: ParagraphStore
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

    /// Reads a Markdown file within `limits`; `attachments` names the schemes beyond the built-in
    /// ones (`AttachmentProviders.kinds` of the registry the text view will use).
    public init(contentsOf url: URL, limits: ReadingLimits = .standard, attachments: AttachmentKinds = .standard) throws {
        // The file a link points at: its type and size are the document's.
        guard let status = FileStatus(path: url.path) else {
            throw TextReelError(file: url.path, "no such document; expected a Markdown file")
        }
        if status.size > limits.documentBytes {
            throw TextReelError(file: url.path, "the document is \(status.size >> 20) MB, over the \(limits.documentBytes >> 20) MB limit; raise it with --max-document-mb")
        }
        switch status.kind {
        case .regular: break
        case .directory: throw TextReelError(file: url.path, "is a folder; expected a Markdown file")
        case let kind:
            // A FIFO or a device would block or never end: standard input is read only when
            // asked for (`-` on the command line).
            let what = [FileStatus.Kind.characterDevice: "a character device", .blockDevice: "a block device", .socket: "a socket"][kind]
                ?? "a pipe or other special file"
            throw TextReelError(file: url.path, "is \(what), not a regular file; expected a Markdown file (give - to read standard input)")
        }
        let data: Data
        do { data = try MappedFile.map(url) ?? Data(contentsOf: url) } catch {
            throw TextReelError(file: url.path, "cannot read the document (\(TextReelError.reason(error)))")
        }
        try self.init(markdownData: data, baseURL: url.deletingLastPathComponent(), fileName: url.path, limits: limits,
                      attachments: attachments)
    }

    /// Reads Markdown text; relative image paths resolve against `baseURL`.
    public init(markdown: String, baseURL: URL? = nil, limits: ReadingLimits = .standard,
                attachments: AttachmentKinds = .standard) throws {
        try self.init(markdownData: Data(markdown.utf8), baseURL: baseURL, fileName: "<markdown>", limits: limits,
                      attachments: attachments)
    }

    /// Reads Markdown bytes (invalid UTF-8 is an error with its place), indexed in sections of
    /// at least `sectionBytes` bytes; 0 parses the whole file at once. The paragraphs are the
    /// same whatever the section size (tests and the fuzzer compare them).
    /// `fileName` is what errors and warnings name (`<stdin>`, say).
    public init(markdownData: Data, baseURL: URL? = nil, fileName: String = "<markdown>", limits: ReadingLimits = .standard,
                attachments: AttachmentKinds = .standard, sectionBytes: Int = TextDocument.sectionBytes) throws {
        let attachments = attachments.typesettingMath()
        var index = markdownData.withUnsafeBytes {
            MarkdownIndex($0, sectionBytes: sectionBytes == 0 ? Int.max : sectionBytes, limits: limits,
                          trusted: TrustedAttachmentURL(attachments), parallel: sectionBytes != 0)
        }
        if index.invalidUTF8 { try MarkdownReader.validateUTF8(markdownData, fileName: fileName) }
        if sectionBytes == 0 { index = MarkdownIndex(unsure: index) }
        func read(_ index: MarkdownIndex) throws -> (ParagraphStore, [String]) {
            var reader = MarkdownReader(fileName: fileName, baseURL: baseURL, limits: limits, kinds: attachments)
            // Sections parsed now may nest as deep as the limit allows: on a stack made for it.
            let store = index.sections.contains(where: { $0.paragraphs == nil })
                ? try DeepStack.run { try ParagraphStore(source: markdownData, index: index, reader: &reader) }
                : try ParagraphStore(source: markdownData, index: index, reader: &reader)
            return (store, reader.warnings)
        }
        let (store, warnings): (ParagraphStore, [String])
        do { (store, warnings) = try read(index) } catch is ParagraphStore.RepeatedID {
            (store, warnings) = try read(MarkdownIndex(unsure: index))
        }
        self.store = store
        readBytes = markdownData.count
        self.baseURL = baseURL
        self.warnings = warnings
        self.nextID = store.count
        self.limits = limits
        self.kinds = attachments
        self.format = MarkdownFormat()
    }

    /// The size of the sections a file is indexed in: small enough that parsing one when it is
    /// first shown costs well under a millisecond.
    public static let sectionBytes = 16 << 10

    /// A document made of the given paragraphs, built in Swift (from attributed strings, say);
    /// a paragraph without an id (a negative one, as `TextParagraph(attributedString:)` makes)
    /// gets the next free one.
    /// `attachments`: the kinds their attachments are of (their work put off until layout).
    public init(paragraphs: [TextParagraph], baseURL: URL? = nil, attachments: AttachmentKinds = .standard) {
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
        self.format = nil
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
