import Foundation
import TextReelMarkdown

/// Accepting changes after a run (the terminal review and the served report): one frame's
/// golden replaced by its actual image, or a whole case re-rendered and recorded. Every write is
/// atomic, as `--update` writes, and only inside `scope` (see `GoldenWriteScope`).
public enum GoldenEdit {
    /// Makes the actual image of the failing frame `diff` of `result` its golden, after
    /// `scope` has checked that the golden folder and the image are that case's own.
    public static func accept(frame diff: FrameDiff, of result: CaseResult, scope: GoldenWriteScope) throws {
        let target = try scope.target(of: result, frame: diff)
        try accept(frame: diff.frame, image: target.image!, expected: target.expected)
    }

    /// Makes `image` (an actual PNG) the golden of frame `number` in the `expected` folder, and,
    /// when the run found the structure changed, that frame's structure too (from the
    /// `layout.json` beside the image), so the frame passes the next run.
    static func accept(frame number: Int, image: URL, expected: URL) throws {
        let indexURL = expected.appendingPathComponent("index.json")
        guard let data = FileManager.default.contents(atPath: indexURL.path),
              var index = try? JSONDecoder().decode(ExpectedFolder.Index.self, from: data) else {
            throw TextReelError(file: indexURL.path, "no golden index to accept into")
        }
        guard let bytes = FileManager.default.contents(atPath: image.path) else {
            throw TextReelError(file: image.path, "the actual image is gone; run the suite again")
        }
        // The old file may stand for several identical frames: this frame gets a file of its own.
        let shared = index.frames.filter { $0.value == index.frames[String(number)] }.count > 1
        let name = String(format: shared ? "frame-%05d.accepted.png" : "frame-%05d.png", number)
        try AtomicFile.write(bytes, to: expected.appendingPathComponent(name))
        index.frames[String(number)] = name
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try AtomicFile.write(encoder.encode(index), to: indexURL)

        let actualLayout = image.deletingLastPathComponent().appendingPathComponent("layout.json")
        let expectedLayout = expected.appendingPathComponent("layout.json")
        if let data = FileManager.default.contents(atPath: actualLayout.path),
           let frame = try JSONDecoder().decode(LayoutSnapshot.self, from: data).frames[number] {
            var layout = try FileManager.default.contents(atPath: expectedLayout.path)
                .map { try JSONDecoder().decode(LayoutSnapshot.self, from: $0) } ?? LayoutSnapshot()
            layout.frames[number] = frame
            try AtomicFile.write(layout.json(), to: expectedLayout)
        }
    }

    /// Re-renders the case `result` reported and records all its goldens; for the goldens of a
    /// Swift test (no case.json5 to render from), accepts every actual image it left. Only a
    /// case inside `scope` is written.
    public static func accept(case result: CaseResult, scope: GoldenWriteScope) throws {
        let folder = try scope.target(of: result).caseFolder
        if !FileManager.default.fileExists(atPath: folder.appendingPathComponent("case.json5").path) {
            for diff in result.diffs where diff.actual != nil {
                try accept(frame: diff, of: result, scope: scope)
            }
            return
        }
        let base = try GoldenCase(folder: folder)
        let restyled = try result.look.map {
            base.restyled(try Appearance.parse(theme: $0.first ?? nil, textSize: $0.dropFirst().first ?? nil, direction: $0.dropFirst(2).first ?? nil))
        }
        guard let golden = restyled.map({ [$0] }) ?? base.variants.first(where: { $0.name == result.name }).map({ [$0] }),
              golden[0].name == result.name else {
            throw TextReelError(file: folder.path, "case \(result.name) is not in its case.json5 any more")
        }
        var options = GoldenSuite.Options()
        options.update = .all
        options.workers = 1
        _ = try GoldenSuite.run(golden, options: options)
    }
}
