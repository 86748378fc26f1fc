import Foundation

/// The document: immutable paragraphs with stable ids, read from Markdown. Edits return nothing and
/// replace whole paragraphs, as TextKit's content storage does.
public struct TextDocument: Sendable {
    public private(set) var paragraphs: [TextParagraph]
    /// Where relative image paths resolve.
    public let baseURL: URL?
    /// Non-fatal problems found while reading (a missing image, a remote one).
    public let warnings: [String]
    private var nextID: Int
    /// The limits it was read within; edits keep them too.
    public internal(set) var limits: ReadingLimits = .standard
    /// Bytes of paragraph text, kept up to date by edits (for the document-size limit).
    public private(set) var textBytes: Int

    /// Reads a Markdown file within `limits`.
    public init(contentsOf url: URL, limits: ReadingLimits = .standard) throws {
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        guard let attributes else {
            throw TextReelError(file: url.path, "no such document; expected a Markdown file")
        }
        if let size = attributes[.size] as? Int, size > limits.documentBytes {
            throw TextReelError(file: url.path, "the document is \(size >> 20) MB, over the \(limits.documentBytes >> 20) MB limit; raise it with --max-document-mb")
        }
        guard attributes[.type] as? FileAttributeType != .typeDirectory else {
            throw TextReelError(file: url.path, "is a folder; expected a Markdown file")
        }
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw TextReelError(file: url.path, "cannot read the document (\(RenderedFrame.reason(error)))")
        }
        try self.init(markdownData: data, baseURL: url.deletingLastPathComponent(), fileName: url.path, limits: limits)
    }

    /// Reads Markdown text; relative image paths resolve against `baseURL`.
    public init(markdown: String, baseURL: URL? = nil, limits: ReadingLimits = .standard) throws {
        try self.init(markdownData: Data(markdown.utf8), baseURL: baseURL, fileName: "<markdown>", limits: limits)
    }

    /// Reads Markdown bytes (invalid UTF-8 is an error with its place).
    public init(markdownData: Data, baseURL: URL? = nil, limits: ReadingLimits = .standard) throws {
        try self.init(markdownData: markdownData, baseURL: baseURL, fileName: "<markdown>", limits: limits)
    }

    init(markdownData: Data, baseURL: URL?, fileName: String, limits: ReadingLimits = .standard) throws {
        let reader = try DeepStack.run {
            var reader = MarkdownReader(fileName: fileName, baseURL: baseURL, limits: limits)
            try reader.read(markdownData)
            return reader
        }
        self.paragraphs = reader.paragraphs
        self.baseURL = baseURL
        self.warnings = reader.warnings
        self.nextID = reader.paragraphs.count
        self.limits = limits
        textBytes = reader.paragraphs.reduce(0) { $0 + $1.text.utf8.count }
    }

    /// A document made of the given paragraphs (for generated documents and tests).
    public init(paragraphs: [TextParagraph], baseURL: URL? = nil) {
        self.paragraphs = paragraphs
        self.baseURL = baseURL
        self.warnings = []
        self.nextID = (paragraphs.map(\.id.rawValue).max() ?? -1) + 1
        textBytes = paragraphs.reduce(0) { $0 + $1.text.utf8.count }
    }

    public var count: Int { paragraphs.count }

    /// The index of the paragraph with `id`, if it is still in the document.
    public func index(of id: ParagraphID) -> Int? {
        paragraphs.firstIndex { $0.id == id }
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
            throw TextReelError("the edit makes paragraph \(index) \(paragraph.text.utf8.count >> 10) KB, over the \(limits.paragraphBytes >> 10) KB paragraph limit; raise it with --max-paragraph-kb")
        }
        let total = textBytes + added.reduce(0) { $0 + $1.text.utf8.count } - (removed?.text.utf8.count ?? 0)
        if total > limits.documentBytes {
            throw TextReelError("the edit makes the document \(total >> 20) MB, over the \(limits.documentBytes >> 20) MB limit; raise it with --max-document-mb")
        }
    }

    mutating func replaceParagraph(at index: Int, with paragraph: TextParagraph) {
        textBytes += paragraph.text.utf8.count - paragraphs[index].text.utf8.count
        paragraphs[index] = paragraph
    }

    mutating func insertParagraph(_ paragraph: TextParagraph, at index: Int) {
        textBytes += paragraph.text.utf8.count
        paragraphs.insert(paragraph, at: index)
    }

    mutating func removeParagraph(at index: Int) {
        textBytes -= paragraphs[index].text.utf8.count
        paragraphs.remove(at: index)
    }
}
