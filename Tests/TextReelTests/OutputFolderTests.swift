import Foundation
import XCTest
@testable import TextReel
@testable import TextReelMarkdown

/// What a render's folder and summary say: only frames on disk are counted, a partial run only
/// completes a render of the same inputs, and TextReel deletes nothing it did not write.
final class OutputFolderTests: XCTestCase {
    private let demo = "Fixtures/documents/demo.md", script = "Fixtures/scripts/demo.json5"

    private func summary(_ folder: URL) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("summary.json"))) as? [String: Any] ?? [:]
    }

    /// Renders the demo into `out` under `ulimit -f 600` (a disk that fills part way); its exit status.
    private func renderUnderAFileSizeLimit(into out: URL) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "trap '' XFSZ; ulimit -f 600; exec \"$0\" render \"$1\" --script \"$2\" --out \"$3\" --quiet",
                             CLI.executable.path, demo, script, out.path]
        process.currentDirectoryURL = Paths.root
        process.standardError = Pipe()
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    private func frames(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("frame-") }.sorted()
    }

    /// A disk that fills mid-render (a file-size limit, as on a full disk): the summary and
    /// events.jsonl count exactly the PNGs on disk (86 events beside 83 PNGs before), and the
    /// summary of the failed render still says how tall the document is.
    func testAFailedRenderCountsOnlyFramesOnDisk() throws {
        let out = Paths.temporaryFolder()
        XCTAssertEqual(try renderUnderAFileSizeLimit(into: out), 2)
        let summary = try summary(out)
        let onDisk = try frames(out)
        XCTAssertEqual(summary["status"] as? String, "failed")
        XCTAssertGreaterThan(onDisk.count, 0, "the limit leaves room for some frames")
        XCTAssertEqual(summary["framesWritten"] as? Int, onDisk.count)
        let events = try String(contentsOf: out.appendingPathComponent("events.jsonl"), encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(events.count, onDisk.count)
        XCTAssertGreaterThan(summary["documentHeight"] as? Double ?? 0, 0)
        XCTAssertGreaterThan(summary["paragraphs"] as? Int ?? 0, 0)
    }

    /// A `--frames` run after a render that stopped part way says "partial" and names the frames
    /// the folder still lacks; "complete" only once every frame of the script is on disk.
    func testAPartOfAStoppedRenderIsNotComplete() throws {
        let out = Paths.temporaryFolder()
        _ = try renderUnderAFileSizeLimit(into: out)
        let stopped = try frames(out).count
        let last = try CLI.run(["render", demo, "--script", script, "--out", out.path, "--frames", "\(stopped + 3)-\(stopped + 4)"])
        XCTAssertEqual(last.status, 0, last.stderr)
        let partial = try summary(out)
        XCTAssertEqual(partial["status"] as? String, "partial")
        let count = try XCTUnwrap(partial["frames"] as? Int)
        XCTAssertEqual(partial["missingFrames"] as? String, "\(stopped + 1)-\(stopped + 2), \(stopped + 5)-\(count)")
        XCTAssertTrue(last.stdout.contains("still lacks frames \(stopped + 1)-\(stopped + 2)"), last.stdout)
        let rest = try CLI.run(["render", demo, "--script", script, "--out", out.path, "--frames", "\(stopped + 1)-\(count)", "--quiet"])
        XCTAssertEqual(rest.status, 0, rest.stderr)
        XCTAssertEqual(try summary(out)["status"] as? String, "complete")
        XCTAssertNil(try summary(out)["missingFrames"])
        XCTAssertEqual(try frames(out).count, count)
    }

    /// `--frames` into the folder of a render with other inputs (another width) is refused and
    /// leaves it as it was; with the same inputs it completes it.
    func testPartialRendersOnlyCompleteTheSameRender() throws {
        let out = Paths.temporaryFolder()
        XCTAssertEqual(try CLI.run(["render", demo, "--script", script, "--out", out.path, "--quiet"]).status, 0)
        let full = try frames(out)
        let other = try CLI.run(["render", demo, "--script", script, "--out", out.path, "--frames", "1-5", "--width", "300"])
        XCTAssertEqual(other.status, 2)
        XCTAssertTrue(other.stderr.contains("frames of another render"), other.stderr)
        XCTAssertEqual(try frames(out), full)
        XCTAssertEqual(try summary(out)["frames"] as? Int, full.count, "the summary of the full render stands")
        let same = try CLI.run(["render", demo, "--script", script, "--out", out.path, "--frames", "1-5", "--quiet"])
        XCTAssertEqual(same.status, 0, same.stderr)
        XCTAssertEqual(try frames(out), full)
    }

    /// `--out ""` once meant the working folder and deleted its frame-*.png; frames without a
    /// summary.json beside them are not TextReel's and are never deleted.
    func testNothingTextReelDidNotWriteIsDeleted() throws {
        let folder = Paths.temporaryFolder()
        let foreign = folder.appendingPathComponent("frame-00001.png")
        try Data("not ours".utf8).write(to: foreign)
        let empty = try CLI.run(["render", Paths.root.appendingPathComponent(demo).path, "--out", ""], in: folder)
        XCTAssertEqual(empty.status, 2)
        XCTAssertTrue(empty.stderr.contains("--out expects a folder"), empty.stderr)
        let into = try CLI.run(["render", Paths.root.appendingPathComponent(demo).path, "--out", folder.path])
        XCTAssertEqual(into.status, 2)
        XCTAssertTrue(into.stderr.contains("no summary.json of a TextReel render"), into.stderr)
        XCTAssertEqual(try Data(contentsOf: foreign), Data("not ours".utf8))
        // Nor a summary that is not TextReel's, nor a folder or a link named like a frame.
        try Data("{}".utf8).write(to: folder.appendingPathComponent("summary.json"))
        XCTAssertEqual(try CLI.run(["render", Paths.root.appendingPathComponent(demo).path, "--out", folder.path]).status, 2)
        let render = Paths.temporaryFolder("render-folder")
        XCTAssertEqual(try CLI.run(["render", demo, "--out", render.path, "--quiet"]).status, 0)
        try FileManager.default.createDirectory(at: render.appendingPathComponent("frame-00600.png/keep"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: render.appendingPathComponent("frame-00800.png").path, withDestinationPath: foreign.path)
        XCTAssertEqual(try CLI.run(["render", demo, "--out", render.path, "--quiet"]).status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: render.appendingPathComponent("frame-00600.png/keep").path))
        XCTAssertNotNil(try? FileManager.default.destinationOfSymbolicLink(atPath: render.appendingPathComponent("frame-00800.png").path))
    }
}
