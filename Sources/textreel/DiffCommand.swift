import Foundation
import Synchronization
import TextReelMarkdown
import TextReelGolden

/// `textreel diff`: compares two PNGs the way pixelmatch does.
enum DiffCommand {
    static let help = """
    Usage: textreel diff <expected.png> <actual.png> [options]

    Compares two images pixel by pixel (pixelmatch-compatible: YIQ colour distance, anti-aliasing
    detection) and prints how many pixels differ. Exit status: 0 when they match, 1 when they
    differ (a size mismatch is a difference, with its own reason), 2 on bad input.

    Options:
      --out FILE        write the diff image (unchanged pixels greyed, differences red)
      --threshold T     colour distance threshold, 0 to 1 (default 0.1; smaller is stricter)
      --include-aa      count anti-aliased pixels as differences
      --alpha A         opacity of the unchanged pixels in the diff image, 0 to 1 (default 0.1)
      --diff-mask       draw only the differences, over a transparent background
      --json            print {mismatch, total, ratio, regions} as JSON
      -h, --help        show this help

    Example:
      textreel diff Fixtures/golden/demo/expected/frame-00001.png Output/demo/frame-00001.png --out diff.png
    """

    static func run(_ raw: [String]) throws -> Int32 {
        let args = try Arguments(raw, command: .diff)
        if args.flags.contains("help") { print(help); return 0 }
        guard args.positional.count == 2 else {
            throw Arguments.UsageError(message: "diff needs two PNG files, got \(args.positional.count)")
        }
        var options = ImageDiff.Options()
        options.threshold = try args.double("threshold", default: 0.1)
        options.alpha = try args.double("alpha", default: 0.1)
        guard (0...1).contains(options.threshold) else { throw Arguments.UsageError(message: "--threshold must be between 0 and 1") }
        guard (0...1).contains(options.alpha) else { throw Arguments.UsageError(message: "--alpha must be between 0 and 1") }
        if let out = args.values["out"] {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: out, isDirectory: &isDirectory), isDirectory.boolValue {
                throw Arguments.UsageError(message: "--out \(out) is a folder; expected the diff image's file name, like diff.png")
            }
        }
        options.includeAA = args.flags.contains("include-aa")
        options.diffMask = args.flags.contains("diff-mask")
        let paths = args.positional
        let files = try paths.map { try RGBAImage.fileData(at: URL(fileURLWithPath: $0)) }
        let out = args.values["out"]
        let json = args.flags.contains("json")
        let result: ImageDiff.Result
        // Decoded a band at a time while compared, on every core; the diff image is compressed
        // as it is made, never held whole.
        if let streamed = try ImageDiff.compare(png: files[0], files[1], options: options, diffImage: out != nil) {
            if let out, let png = streamed.png { try AtomicFile.write(png, to: URL(fileURLWithPath: out)) }
            result = streamed.result
        } else {
            // Any other kind of PNG, differing sizes or damaged data: both decoded whole, one per core.
            let decoded = Mutex<[Int: Result<RGBAImage, Error>]>([:])
            DispatchQueue.concurrentPerform(iterations: 2) { k in
                let image = Result { try RGBAImage(pngData: files[k], file: paths[k]) }
                decoded.withLock { $0[k] = image }
            }
            let expected = try decoded.withLock { $0[0]! }.get()
            let actual = try decoded.withLock { $0[1]! }.get()
            guard expected.width == actual.width, expected.height == actual.height else {
                let reason = "size mismatch: \(expected.width)×\(expected.height) vs \(actual.width)×\(actual.height)"
                if json {
                    print(#"{"mismatch":null,"reason":"\#(reason)","total":\#(expected.width * expected.height)}"#)
                } else {
                    print(reason)
                }
                return 1
            }
            if let out {
                let (found, png) = try ImageDiff.compareEncodingDiffImage(expected, actual, options: options)
                try AtomicFile.write(png, to: URL(fileURLWithPath: out))
                result = found
            } else {
                result = ImageDiff.compare(expected, actual, options: options, makeImage: false)
            }
        }
        if json {
            let regions = result.regions.map { ["x": Int($0.minX), "y": Int($0.minY), "width": Int($0.width), "height": Int($0.height)] }
            let object: [String: Any] = ["mismatch": result.mismatch, "total": result.total, "ratio": result.ratio, "regions": regions]
            print(String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self))
        } else {
            print(result.mismatch == 0 ? "images match (0 of \(result.total) pixels differ)"
                  : "\(result.mismatch) of \(result.total) pixels differ (\(String(format: "%.4f", result.ratio * 100))%) in \(result.regions.count) region\(result.regions.count == 1 ? "" : "s")")
        }
        return result.mismatch == 0 ? 0 : 1
    }
}
