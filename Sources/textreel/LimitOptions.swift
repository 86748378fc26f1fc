import Foundation
import TextReelMarkdown

/// The input limits every command that reads documents accepts, as flags.
enum LimitOptions {
    static let names = ["max-document-mb", "max-paragraph-kb", "max-nesting", "max-frames", "max-steps", "root"]
    static let flags = ["allow-outside", "plain"]

    static let help = """
    Limits (bad input gets a clear error, never a hang):
      --max-document-mb N   largest document (default \(ReadingLimits.standard.documentBytes >> 20))
      --max-paragraph-kb N  largest single paragraph (default \(ReadingLimits.standard.paragraphBytes >> 10))
      --max-nesting N       deepest nesting of quotes, lists and styles (default \(ReadingLimits.standard.nesting))
      --max-frames N        most frames a script may make (default \(ScrollScript.maximumFrames))
      --max-steps N         most steps a script may have (default \(ScrollScript.maximumSteps))
      --allow-outside       let image paths leave the document's folder (absolute, .., symlinks)
      --plain               read the document as plain text, a paragraph a line, no Markdown (as a
                            .txt file is read); `--theme editor` sets it as a code editor does
      --root DIR            where /docs/x.png starts and image paths must stay, as GitHub reads a
                            README from its repository (default: the nearest folder up holding
                            .git, else the document's folder)
    Images larger than \(ReadingLimits.standard.imagePixels >> 20) megapixels are refused from their header.
    """

    static func reading(_ args: Arguments) throws -> ReadingLimits {
        var limits = ReadingLimits()
        func positive(_ name: String) throws -> Int? {
            guard let text = args.values[name] else { return nil }
            guard let value = Int(text), value > 0 else { throw Arguments.UsageError(message: "--\(name) expects a positive whole number, got '\(text)'") }
            return value
        }
        if let mb = try positive("max-document-mb") {
            guard mb <= 1 << 20 else { throw Arguments.UsageError(message: "--max-document-mb \(mb) is more than any document could be; expected at most \(1 << 20)") }
            limits.documentBytes = mb << 20
        }
        if let kb = try positive("max-paragraph-kb") {
            guard kb <= ReadingLimits.maximumParagraphBytes >> 10 else {
                throw Arguments.UsageError(message: "--max-paragraph-kb \(kb) is over \(ReadingLimits.maximumParagraphBytes >> 10), the most Pango lays out as one paragraph")
            }
            limits.paragraphBytes = kb << 10
        }
        if let depth = try positive("max-nesting") {
            guard depth <= ReadingLimits.maximumNesting else {
                throw Arguments.UsageError(message: "--max-nesting \(depth) is over the most it can be raised to, \(ReadingLimits.maximumNesting)")
            }
            limits.nesting = depth
        }
        limits.allowOutside = args.flags.contains("allow-outside")
        if let root = args.values["root"] {
            guard FileStatus(path: root)?.kind == .directory else {
                throw Arguments.UsageError(message: "--root \(root) is not a folder; expected the folder a README's /docs/… paths start from")
            }
            limits.root = URL(fileURLWithPath: root).standardizedFileURL
        }
        return limits
    }

    static func maximumFrames(_ args: Arguments) throws -> Int {
        try positive(args, "max-frames") ?? ScrollScript.maximumFrames
    }

    static func maximumSteps(_ args: Arguments) throws -> Int {
        try positive(args, "max-steps") ?? ScrollScript.maximumSteps
    }

    /// A runner for `script` on `view` within the limits given on the command line.
    static func runner(_ view: TextView, _ script: ScrollScript, _ args: Arguments) throws -> ScriptRunner {
        try ScriptRunner(view: view, script: script, maximumFrames: maximumFrames(args), maximumSteps: maximumSteps(args))
    }

    private static func positive(_ args: Arguments, _ name: String) throws -> Int? {
        guard let text = args.values[name] else { return nil }
        guard let value = Int(text), value > 0 else { throw Arguments.UsageError(message: "--\(name) expects a positive whole number, got '\(text)'") }
        return value
    }
}
