import Foundation
import TextReel

/// Writes a generated document as Markdown (cached under Output/bench/), so loading is measured
/// through the real reader.
enum BenchDocument {
    static func markdownFile(paragraphs count: Int, in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent("doc-\(count).md")
        if FileManager.default.fileExists(atPath: url.path) { return url }
        let document = TextDocument.generated(paragraphs: count)
        var text = ""
        text.reserveCapacity(count * 300)
        for paragraph in document.paragraphs {
            switch paragraph.kind {
            case .heading(let level):
                text += String(repeating: "#", count: level) + " " + paragraph.text + "\n\n"
            case .blockAttachment:
                let a = paragraph.attachments[0]
                text += "![](\(a.scheme):\(a.id)?size=\(Int(a.size.width))x\(Int(a.size.height)))\n\n"
            default:
                var body = paragraph.text
                for a in paragraph.attachments {
                    body = body.replacingOccurrences(of: TextAttachment.character,
                        with: "![](control:\(a.id)?kind=toggle&size=\(Int(a.size.width))x\(Int(a.size.height)))")
                }
                text += body + "\n\n"
            }
        }
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
