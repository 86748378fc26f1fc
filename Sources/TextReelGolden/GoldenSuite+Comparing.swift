import Foundation
import TextReelMarkdown

/// A case's rendered frames held against its expected folder: verdicts, diffs and the goldens
/// written by the update mode.
extension GoldenSuite {
    /// A case's `expected`, `actual` or `diff` folder, or a variant's folder in it.
    static func folder(_ kind: String, of folder: URL, variant: String?) -> URL {
        variant.map { folder.appendingPathComponent(kind).appendingPathComponent($0) } ?? folder.appendingPathComponent(kind)
    }

    /// Compares a render with the goldens in `folder/expected`, writing `actual/` and `diff/`
    /// images for frames that differ, and goldens as `update` says.
    static func compare(_ rendered: GoldenCase.Rendered, name: String, folder: URL, variant: String? = nil,
                        tolerance: GoldenCase.Tolerance, update: UpdateMode, prune: Bool = false) throws -> CaseResult {
        let fm = FileManager.default
        func place(_ kind: String) -> URL { Self.folder(kind, of: folder, variant: variant) }
        let expectedFolder = place("expected")
        let actualFolder = place("actual")
        let diffFolder = place("diff")
        try? fm.removeItem(at: actualFolder)
        try? fm.removeItem(at: diffFolder)
        var result = CaseResult(name: name, folder: folder.path, status: .passed, frames: rendered.frames.count)
        result.expected = expectedFolder.path
        result.chart = rendered.chart
        // Budgets first: a frame that breaks one fails the case before any pixel is compared.
        if !rendered.violations.isEmpty {
            result.status = .failed
            result.structure = rendered.violations.prefix(8).map { "\($0.check == "invariant" ? "invariant" : "budget \($0.check)"): \($0)" }
            if rendered.violations.count > 8 { result.structure.append("… and \(rendered.violations.count - 8) more") }
            return result
        }

        guard let expected = try ExpectedFolder.read(at: expectedFolder) else {
            if update == .never {
                result.status = .failed
                result.structure = ["no goldens yet in \(expectedFolder.path); record them with update mode missing"]
            } else {
                try ExpectedFolder.write(rendered, to: expectedFolder)
                result.status = .recorded
                result.written = true
                result.recordedFrames = rendered.frames.keys.sorted()
            }
            return result
        }

        // The same bytes as stored are the same structure: decoding 300 frames' layout.json was a
        // tenth of a test of an unchanged case.
        let layoutBytes = try rendered.layout.json()
        result.structure = layoutBytes == expected.layoutData ? [] : rendered.layout.changes(from: try expected.layout())
        result.drift = expected.fingerprint.map { rendered.fingerprint.differences(from: $0) } ?? ["no fingerprint was recorded"]
        var diffOptions = ImageDiff.Options()
        diffOptions.threshold = tolerance.threshold
        diffOptions.includeAA = tolerance.includeAA
        let numbers = Set(rendered.frames.keys).union(expected.index.frames.keys.compactMap { Int($0) }).sorted()
        var sameBytes: Set<Int> = []
        for number in numbers {
            let name = String(format: "frame-%05d.png", number)
            let actualPath = actualFolder.appendingPathComponent(name)
            guard let output = rendered.frames[number] else {
                // Not a failure: a golden nothing produces any more (listed; removed by --prune).
                let why = number > rendered.frameCount ? "past the end of the script (\(rendered.frameCount) frames)" : "no longer among the frames the case keeps"
                result.obsolete.append("\(expectedFolder.path): frame \(number) (\(expected.index.frames[String(number)] ?? name)) is \(why)")
                continue
            }
            // The same bytes are the same pixels: nothing to decode.
            if let file = expected.imageURL(frame: number), let bytes = FileManager.default.contents(atPath: file.path),
               bytes == output.png { sameBytes.insert(number); continue }
            let actual = output.image
            guard let file = expected.imageURL(frame: number), FileManager.default.fileExists(atPath: file.path) else {
                try write(actual, to: actualPath)
                result.diffs.append(FrameDiff(frame: number, reason: "no golden for this frame", actual: actualPath.path))
                continue
            }
            let golden: RGBAImage
            do { golden = try RGBAImage(contentsOf: file) } catch let error as TextReelError {
                try write(actual, to: actualPath)
                result.diffs.append(FrameDiff(frame: number, reason: "the golden is damaged (\(error.message)); re-record it", expected: file.path, actual: actualPath.path))
                continue
            }
            guard golden.width == actual.width, golden.height == actual.height else {
                try write(actual, to: actualPath)
                result.diffs.append(FrameDiff(frame: number, reason: "size \(actual.width)×\(actual.height) instead of \(golden.width)×\(golden.height)",
                                              expected: file.path, actual: actualPath.path))
                continue
            }
            // Counted first without a diff image: a frame within its tolerance (another engine's
            // anti-aliasing) needs none; a failing one's is made while it is compressed.
            let comparison = ImageDiff.compare(golden, actual, options: diffOptions, makeImage: false)
            let allowed = max(tolerance.maxDiffPixels, Int((Double(comparison.total) * tolerance.maxDiffPixelRatio).rounded(.down)))
            guard comparison.mismatch > allowed else { continue }
            try write(actual, to: actualPath)
            let diffPath = diffFolder.appendingPathComponent(name)
            try write(ImageDiff.compareEncodingDiffImage(golden, actual, options: diffOptions).png, to: diffPath)
            let scale = rendered.layout.frames[number]?.scale ?? 1
            let regions = comparison.regions.prefix(20).map { box -> Region in
                let points = CGRect(x: box.minX / scale, y: box.minY / scale, width: box.width / scale, height: box.height / scale)
                return Region(x: Int(box.minX), y: Int(box.minY), width: Int(box.width), height: Int(box.height),
                              what: rendered.layout.describe(points, inFrame: number))
            }
            result.diffs.append(FrameDiff(frame: number, reason: "\(comparison.mismatch) pixels differ (\(allowed) allowed)",
                                          mismatch: comparison.mismatch, total: comparison.total, regions: Array(regions),
                                          expected: file.path, actual: actualPath.path, diff: diffPath.path))
        }
        for k in result.diffs.indices { result.diffs[k].snapshot = rendered.snapshots[result.diffs[k].frame] }
        result.firstDivergingFrame = result.diffs.map(\.frame).min()
        let failed = !result.diffs.isEmpty || !result.structure.isEmpty
        if failed {
            result.status = result.drift.isEmpty ? .failed : .drift
        }
        // Frames whose golden was deleted are recorded by `missing`, like a new case's.
        let onlyMissing = failed && result.structure.isEmpty && result.diffs.allSatisfy { $0.reason == "no golden for this frame" }
        if onlyMissing && update == .missing {
            // Only the missing frames are written: the others stay exactly as they were.
            try ExpectedFolder.add(Dictionary(uniqueKeysWithValues: result.diffs.compactMap { diff in
                rendered.frames[diff.frame].map { (diff.frame, $0.png) }
            }), to: expectedFolder)
            result.status = .recorded
            result.written = true
            result.recordedFrames = result.diffs.map(\.frame)
        } else if (failed && update == .changed) || (update == .all && (failed || sameBytes.count != numbers.count || !result.drift.isEmpty)) {
            // `all` leaves a case whose every frame has the same bytes as it is, in the same
            // environment, as it is: nothing to write. (In another one, the fingerprint is new.)
            try ExpectedFolder.write(rendered, to: expectedFolder)
            if failed { result.status = .updated }
            result.written = true
            result.recordedFrames = rendered.frames.keys.sorted().filter { !sameBytes.contains($0) }
        } else if prune && !failed && !result.obsolete.isEmpty {
            try ExpectedFolder.write(rendered, to: expectedFolder)
            result.pruned = result.obsolete
        } else if !result.structure.isEmpty {
            // Accepting one frame later takes its structure from here along with its image.
            try fm.createDirectory(at: actualFolder, withIntermediateDirectories: true)
            try AtomicFile.write(rendered.layout.json(), to: actualFolder.appendingPathComponent("layout.json"))
        }
        return result
    }

    private static func write(_ image: RGBAImage, to url: URL) throws {
        try write(image.pngData(), to: url)
    }

    private static func write(_ png: Data, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try AtomicFile.write(png, to: url)
    }
}
