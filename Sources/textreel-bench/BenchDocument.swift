import Foundation
import TextReelMarkdown

/// Writes a generated document as Markdown (cached under Output/bench/), so loading is measured
/// through the real reader.
enum BenchDocument {
    static func markdownFile(paragraphs count: Int, in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent("doc-\(count).md")
        if FileManager.default.fileExists(atPath: url.path) { return url }
        let text = TextDocument.generatedMarkdown(paragraphs: count)
        try Data(text.utf8).write(to: url, options: .atomic)
        return url
    }

    /// Plain text of the same document, for pango-view.
    static func plainTextFile(paragraphs count: Int, in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent("doc-\(count).txt")
        if FileManager.default.fileExists(atPath: url.path) { return url }
        let document = TextDocument.generated(paragraphs: count, attachments: false)
        try Data(document.paragraphs.map(\.text).joined(separator: "\n").utf8).write(to: url, options: .atomic)
        return url
    }
}
