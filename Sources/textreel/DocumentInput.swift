import Foundation
import TextReelMarkdown

/// The document a command names: a file, or standard input when the name is `-` (relative
/// image paths then resolve against the working folder). Standard input is read only then, so a
/// FIFO given by name is refused instead of blocking.
enum DocumentInput {
    static func read(_ name: String, limits: ReadingLimits) throws -> TextDocument {
        guard name == "-" else { return try TextDocument(contentsOf: URL(fileURLWithPath: name), limits: limits) }
        var data = Data()
        while let chunk = try FileHandle.standardInput.read(upToCount: 1 << 20), !chunk.isEmpty {
            data.append(chunk)
            if data.count > limits.documentBytes {
                throw TextReelError(file: "<stdin>", "the document is over the \(limits.documentBytes >> 20) MB limit; raise it with --max-document-mb")
            }
        }
        return try TextDocument(markdownData: data, baseURL: URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
                                fileName: "<stdin>", limits: limits)
    }
}
