import Foundation
import TextReel

/// `textreel render`: one frame of a document at a scroll offset.
enum RenderCommand {
    static let help = """
    Usage: textreel render <document.md> [options]

    Renders the document into PNG frames of a text view.

    Options:
      --out DIR        output folder (default: Output/<document name>/)
      --width PT       viewport width in points (default 800)
      --height PT      viewport height in points (default 600)
      --scale N        pixels per point (default 1)
      --at Y           scroll offset in points (default 0)
      -h, --help       show this help

    The viewport may be at most \(ViewportLimits.maximumPixels) pixels a side after scaling.

    Example:
      textreel render Fixtures/documents/demo.md --at 400 --out Output/demo
    """

    static func run(_ raw: [String]) throws -> Int32 {
        let args = try Arguments(raw, options: ["out", "width", "height", "scale", "at"], flags: [])
        if args.flags.contains("help") { print(help); return 0 }
        guard args.positional.count == 1 else {
            throw Arguments.UsageError(message: args.positional.isEmpty ? "render needs a document" : "render takes one document, got \(args.positional.count)")
        }
        let documentURL = URL(fileURLWithPath: args.positional[0])
        let viewport = try ViewportLimits.check(width: try args.double("width", default: 800),
                                                height: try args.double("height", default: 600),
                                                scale: try args.double("scale", default: 1))
        let at = try args.double("at", default: 0)
        let document = try TextDocument(contentsOf: documentURL)
        for warning in document.warnings { FileHandle.standardError.write(Data((warning + "\n").utf8)) }

        let name = documentURL.deletingPathExtension().lastPathComponent
        let outDir = URL(fileURLWithPath: args.values["out"] ?? "Output/\(name)")
        try OutputFolder.prepare(outDir)

        let view = TextView(document: document, viewportSize: viewport.size, scale: viewport.scale)
        view.contentOffset = CGPoint(x: 0, y: at)
        let frame = try view.renderFrame()
        let file = outDir.appendingPathComponent("frame-00001.png")
        try frame.write(to: file)
        print("wrote \(file.relativePath) (\(frame.width)×\(frame.height) px, offset \(view.contentOffset.y) pt)")
        return 0
    }
}

/// Checks a viewport against the size limit.
enum ViewportLimits {
    static let maximumPixels = 16384

    static func check(width: Double, height: Double, scale: Double) throws -> (size: CGSize, scale: Double) {
        guard width > 0, height > 0 else {
            throw TextReelError("viewport \(width)×\(height) is not positive; expected a width and height above 0 points")
        }
        guard scale > 0, scale <= 8 else {
            throw TextReelError("scale \(scale) is out of range; expected a number above 0 and at most 8")
        }
        guard width * scale <= Double(maximumPixels), height * scale <= Double(maximumPixels) else {
            throw TextReelError("viewport \(Int(width * scale))×\(Int(height * scale)) px is too large; expected at most \(maximumPixels) px a side after scaling")
        }
        return (CGSize(width: width, height: height), scale)
    }
}

/// Creates the output folder and checks that it is writable, before any work is done.
enum OutputFolder {
    static func prepare(_ url: URL) throws {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw TextReelError(file: url.path, "cannot create the output folder; expected a writable path")
        }
        guard FileManager.default.isWritableFile(atPath: url.path) else {
            throw TextReelError(file: url.path, "the output folder is not writable")
        }
    }
}
