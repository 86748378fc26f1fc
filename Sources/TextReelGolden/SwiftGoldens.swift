import Foundation
import TextReelMarkdown

/// The goldens of Swift tests (`assertGoldenFrames`, `GoldenFrames.verify`) as the command line
/// sees them: each `__Goldens__/<test file>/<name>/` under a folder, with the `actual/` and
/// `diff/` images the last `swift test` run left where frames differed. They cannot be rendered
/// again from here (their views are Swift code), but they can be reported, reviewed and accepted.
public enum SwiftGoldens {
    /// The golden folders (holding `expected/` or `actual/`) under `folders`, sorted.
    public static func folders(in folders: [URL]) -> [URL] {
        let fm = FileManager.default
        var found: [URL] = []
        for root in folders {
            guard let walker = fm.enumerator(at: root, includingPropertiesForKeys: [.isDirectoryKey]) else { continue }
            for case let url as URL in walker where url.lastPathComponent == "__Goldens__" {
                walker.skipDescendants()
                for file in ((try? fm.contentsOfDirectory(atPath: url.path)) ?? []).sorted() where !file.hasPrefix(".") {
                    for name in ((try? fm.contentsOfDirectory(atPath: url.appendingPathComponent(file).path)) ?? []).sorted() where !name.hasPrefix(".") {
                        let golden = url.appendingPathComponent(file).appendingPathComponent(name)
                        if ["expected", "actual"].contains(where: { fm.fileExists(atPath: golden.appendingPathComponent($0).path) }) {
                            found.append(golden)
                        }
                    }
                }
            }
        }
        return found
    }

    /// What the last `swift test` run left: a golden with actual images failed (one frame diff
    /// per image, with its golden and diff image where they exist); one without passed.
    public static func results(in folders: [URL]) -> [CaseResult] {
        let fm = FileManager.default
        return self.folders(in: folders).map { golden in
            let expected = golden.appendingPathComponent("expected"), actual = golden.appendingPathComponent("actual")
            let name = "\(golden.deletingLastPathComponent().lastPathComponent)/\(golden.lastPathComponent)"
            let index = (try? ExpectedFolder.index(at: expected))??.frames ?? [:]
            let images = ((try? fm.contentsOfDirectory(atPath: actual.path)) ?? []).filter { $0.hasPrefix("frame-") && $0.hasSuffix(".png") }.sorted()
            var result = CaseResult(name: name, folder: golden.path, status: images.isEmpty ? .passed : .failed, frames: max(index.count, images.count))
            result.expected = expected.path
            result.diffs = images.compactMap { image -> FrameDiff? in
                guard let number = Int(image.dropFirst("frame-".count).prefix(5)) else { return nil }
                let goldenImage = index[String(number)].map { expected.appendingPathComponent($0).path }
                let diff = golden.appendingPathComponent("diff").appendingPathComponent(image).path
                return FrameDiff(frame: number, reason: goldenImage == nil ? "no golden for this frame" : "differs from its golden in the last swift test run",
                                 expected: goldenImage, actual: actual.appendingPathComponent(image).path,
                                 diff: fm.fileExists(atPath: diff) ? diff : nil)
            }
            result.firstDivergingFrame = result.diffs.map(\.frame).min()
            return result
        }
    }
}
