import Foundation
import TextReel

/// Reading Markdown into a document: the file is indexed in one scan (`MarkdownIndex`), and
/// cmark-gfm parses only the sections the scan cannot count; the others are parsed when a
/// paragraph of theirs is first read (`MarkdownSections`). The paragraphs, their numbers, ids,
/// warnings and errors are those of one whole parse.
extension TextDocument {
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
        let attachments = attachments.typesettingMath().drawingDiagrams()
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
                ? try DeepStack.run { try MarkdownSections.store(source: markdownData, index: index, reader: &reader) }
                : try MarkdownSections.store(source: markdownData, index: index, reader: &reader)
            return (store, reader.warnings)
        }
        let (store, warnings): (ParagraphStore, [String])
        do { (store, warnings) = try read(index) } catch is MarkdownSections.RepeatedID {
            (store, warnings) = try read(MarkdownIndex(unsure: index))
        }
        self.init(store: store, readBytes: markdownData.count, baseURL: baseURL, warnings: warnings, limits: limits,
                  kinds: attachments, format: MarkdownFormat())
    }

    /// The size of the sections a file is indexed in: small enough that parsing one when it is
    /// first shown costs well under a millisecond.
    public static let sectionBytes = 16 << 10
}
