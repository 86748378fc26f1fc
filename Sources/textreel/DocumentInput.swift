import Foundation
import TextReelMarkdown

/// The document a command names: a file, or standard input when the name is `-` (relative
/// image paths then resolve against the working folder). Standard input is read only then, so a
/// FIFO given by name is refused instead of blocking.
enum DocumentInput {
    /// `plain`: the text is plain text, one paragraph a line, no Markdown (as a `.txt` file is).
    static func read(_ name: String, limits: ReadingLimits, plain: Bool = false) throws -> TextDocument {
        if plain || name.lowercased().hasSuffix(".txt") {
            let data = name == "-" ? try standardInput(limits: limits)
                : try InputFile.read(URL(fileURLWithPath: name), what: "document", expected: "a text file", maximumBytes: limits.documentBytes)
            let file = name == "-" ? "<stdin>" : name
            guard let text = String(data: data, encoding: .utf8) else { throw TextReelError(file: file, "invalid UTF-8; expected a UTF-8 text file") }
            let document = TextDocument(attributedString: NSAttributedString(string: text))
            if let long = document.paragraphs.first(where: { $0.text.utf8.count > limits.paragraphBytes }) {
                throw TextReelError(file: file, "a line is too long: " + limits.paragraphLimitMessage(long.text.utf8.count))
            }
            return document
        }
        guard name == "-" else { return try TextDocument(contentsOf: URL(fileURLWithPath: name), limits: limits) }
        return try TextDocument(markdownData: try standardInput(limits: limits), baseURL: URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
                                fileName: "<stdin>", limits: limits)
    }

    /// Standard input, read whole within the document-size limit.
    private static func standardInput(limits: ReadingLimits) throws -> Data {
        var data = Data()
        while let chunk = try FileHandle.standardInput.read(upToCount: 1 << 20), !chunk.isEmpty {
            data.append(chunk)
            if data.count > limits.documentBytes {
                throw TextReelError(file: "<stdin>", "the document is over the \(limits.documentBytes >> 20) MB limit; raise it with --max-document-mb")
            }
        }
        return data
    }
}
