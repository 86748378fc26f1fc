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

    /// Reads a Markdown file.
    public init(contentsOf url: URL) throws {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            let exists = FileManager.default.fileExists(atPath: url.path)
            throw TextReelError(file: url.path, exists ? "cannot read the document" : "no such document; expected a Markdown file")
        }
        try self.init(markdownData: data, baseURL: url.deletingLastPathComponent(), fileName: url.path)
    }

    /// Reads Markdown text; relative image paths resolve against `baseURL`.
    public init(markdown: String, baseURL: URL? = nil) throws {
        try self.init(markdownData: Data(markdown.utf8), baseURL: baseURL, fileName: "<markdown>")
    }

    init(markdownData: Data, baseURL: URL?, fileName: String) throws {
        var reader = MarkdownReader(fileName: fileName, baseURL: baseURL)
        try reader.read(markdownData)
        self.paragraphs = reader.paragraphs
        self.baseURL = baseURL
        self.warnings = reader.warnings
        self.nextID = reader.paragraphs.count
    }

    /// A document made of the given paragraphs (for generated documents and tests).
    public init(paragraphs: [TextParagraph], baseURL: URL? = nil) {
        self.paragraphs = paragraphs
        self.baseURL = baseURL
        self.warnings = []
        self.nextID = (paragraphs.map(\.id.rawValue).max() ?? -1) + 1
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

    mutating func replaceParagraph(at index: Int, with paragraph: TextParagraph) {
        paragraphs[index] = paragraph
    }

    mutating func insertParagraph(_ paragraph: TextParagraph, at index: Int) {
        paragraphs.insert(paragraph, at: index)
    }

    mutating func removeParagraph(at index: Int) {
        paragraphs.remove(at: index)
    }
}
