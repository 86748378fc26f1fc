import XCTest

/// `render --shard I/N` and `merge-renders`: the parts joined are the single render, byte for
/// byte (frames, events.jsonl, summary.json); a missing, repeated or foreign part is an error.
final class ShardedRenderTests: XCTestCase {
    private func files(_ folder: URL) throws -> [String: Data] {
        var out: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where !name.hasPrefix(".") {
            out[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return out
    }

    func testPartsMergeIntoTheSingleRender() throws {
        let root = Paths.temporaryFolder()
        let script = "Fixtures/golden/video-policy/scroll.json5", document = "Fixtures/documents/attachments.md"
        XCTAssertEqual(try CLI.run(["render", document, "--script", script, "--out", root.appendingPathComponent("whole").path, "--quiet"]).status, 0)
        for i in 1...3 {
            let part = try CLI.run(["render", document, "--script", script, "--shard", "\(i)/3", "--out", root.appendingPathComponent("p\(i)").path, "--quiet"])
            XCTAssertEqual(part.status, 0, part.stderr)
        }
        let p2 = try files(root.appendingPathComponent("p2"))
        XCTAssertLessThan(p2.keys.filter { $0.hasPrefix("frame-") }.count, try files(root.appendingPathComponent("whole")).keys.filter { $0.hasPrefix("frame-") }.count,
                          "a part writes its own frames only")
        let merged = root.appendingPathComponent("merged")
        let merge = try CLI.run(["merge-renders", root.appendingPathComponent("p3").path, root.appendingPathComponent("p1").path,
                                 root.appendingPathComponent("p2").path, "--out", merged.path])
        XCTAssertEqual(merge.status, 0, merge.stderr)
        let whole = try files(root.appendingPathComponent("whole"))
        let joined = try files(merged)
        XCTAssertEqual(Set(joined.keys), Set(whole.keys))
        for (name, data) in whole { XCTAssertEqual(joined[name], data, "\(name) is the single render's") }

        let missing = try CLI.run(["merge-renders", root.appendingPathComponent("p1").path, root.appendingPathComponent("p3").path, "--out", merged.path])
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.contains("part 2 of 3 is missing"), missing.stderr)
        let repeated = try CLI.run(["merge-renders"] + ["p1", "p1", "p2", "p3"].map { root.appendingPathComponent($0).path } + ["--out", merged.path])
        XCTAssertTrue(repeated.stderr.contains("is part 1 again"), repeated.stderr)
        XCTAssertEqual(try CLI.run(["render", document, "--shard", "2/3", "--script", "Fixtures/golden/drawing-scroll-policy/script.json5",
                                    "--out", root.appendingPathComponent("other").path, "--quiet"]).status, 0)
        let foreign = try CLI.run(["merge-renders"] + ["p1", "other", "p3"].map { root.appendingPathComponent($0).path } + ["--out", merged.path])
        XCTAssertTrue(foreign.stderr.contains("is a part of another render"), foreign.stderr)
        let whole2 = try CLI.run(["merge-renders", root.appendingPathComponent("whole").path, "--out", merged.path])
        XCTAssertTrue(whole2.stderr.contains("is a whole render, not a part"), whole2.stderr)
        XCTAssertEqual(try CLI.run(["render", document, "--shard", "4/3", "--out", root.appendingPathComponent("bad").path]).status, 2)
        // A summary edited by hand into nonsense is an error, not a crash.
        let summary = root.appendingPathComponent("p2/summary.json")
        let text = try String(contentsOf: summary, encoding: .utf8)
        try text.replacingOccurrences(of: #""shard" : "2/3: frames [0-9]+-[0-9]+""#, with: #""shard" : "2/3: frames 9-3""#, options: .regularExpression)
            .write(to: summary, atomically: true, encoding: .utf8)
        let nonsense = try CLI.run(["merge-renders"] + ["p1", "p2", "p3"].map { root.appendingPathComponent($0).path } + ["--out", merged.path])
        XCTAssertEqual(nonsense.status, 2, nonsense.stderr)
        XCTAssertTrue(nonsense.stderr.contains("is not I/N: frames A-B"), nonsense.stderr)
    }
}
