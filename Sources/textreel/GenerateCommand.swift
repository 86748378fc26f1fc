import Foundation
import TextReelMarkdown

/// `textreel generate`: writes the deterministic generated document (the benchmark's) as Markdown.
enum GenerateCommand {
    static let help = """
    Usage: textreel generate <paragraphs> [--out FILE]

    Writes a deterministic Markdown document of that many paragraphs: mixed lengths, Latin with
    some Arabic and CJK, a heading every 40 paragraphs, an inline toggle every 10 and a block
    drawing every 25. Paragraph i depends only on i, so sizes share their beginning.

    Options:
      --out FILE   where to write (default: standard output)

    Example:
      textreel generate 2000 --out Output/generated-2000.md
    """

    static func run(_ raw: [String]) throws -> Int32 {
        let args = try Arguments(raw, command: .generate)
        if args.flags.contains("help") { print(help); return 0 }
        guard args.positional.count == 1, let count = Int(args.positional[0]), count >= 0, count <= 10_000_000 else {
            throw Arguments.UsageError(message: "generate expects one paragraph count from 0 to 10000000")
        }
        let data = Data(TextDocument.generatedMarkdown(paragraphs: count).utf8)
        if let out = args.values["out"] {
            let url = URL(fileURLWithPath: out)
            // The folder is made as `render --out` makes its own: the file is all this writes.
            try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            let file = try AtomicFile(url)
            try file.append(data)
            try file.commit()
        } else {
            if let failure = AtomicFile.writeAll(data, to: STDOUT_FILENO), failure != EPIPE {
                throw TextReelError("cannot write to standard output (\(String(cString: strerror(failure))))")
            }
        }
        return 0
    }
}
