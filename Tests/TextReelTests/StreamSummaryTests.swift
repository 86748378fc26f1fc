import Foundation
import XCTest
import TextReelMarkdown

/// A render whose frames go to standard output says so: its folder's summary never claims
/// frames that are not on disk.
final class StreamSummaryTests: XCTestCase {
    func testAY4MRenderIntoAPNGFolderClaimsNoFiles() throws {
        let folder = Paths.temporaryFolder()
        let out = folder.appendingPathComponent("render")
        let script = folder.appendingPathComponent("short.json5").path
        try Data("{fps: 10, steps: [{scroll: {by: 300, duration: 1}}]}".utf8).write(to: URL(fileURLWithPath: script))
        XCTAssertEqual(try CLI.run(["render", "Fixtures/documents/demo.md", "--script", script, "--out", out.path, "--quiet"]).status, 0)
        let y4m = try CLI.run(["render", "Fixtures/documents/demo.md", "--script", script, "--out", out.path, "--format", "y4m"])
        XCTAssertEqual(y4m.status, 0, y4m.stderr)
        XCTAssertTrue(y4m.stdout.hasPrefix("YUV4MPEG2 "))
        let summary = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("summary.json"))) as? [String: Any])
        let frames = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasPrefix("frame-") }
        XCTAssertEqual(summary["framesWritten"] as? Int, frames.count)
        XCTAssertEqual(summary["framesWritten"] as? Int, 0)
        XCTAssertEqual(summary["streamed"] as? Int, summary["frames"] as? Int)
        XCTAssertGreaterThan(summary["streamed"] as? Int ?? 0, 5)
    }
}
