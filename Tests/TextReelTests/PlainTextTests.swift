import Foundation
import XCTest
import TextReelMarkdown

/// Plain text from the command line (`.txt`, `--plain`); from Swift it is TextReelEngineTests'.
final class PlainTextTests: XCTestCase {
    func testTheCommandLineReadsPlainText() throws {
        let folder = Paths.temporaryFolder()
        let markdownLooking = folder.appendingPathComponent("notes.md")
        try Data("# Not a heading\n- not a list\n".utf8).write(to: markdownLooking)
        let plain = try CLI.run(["preview", markdownLooking.path, "--plain", "--theme", "editor", "--json"])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: plain.stdoutData) as? [String: Any])
        let kinds = try XCTUnwrap(object["fragments"] as? [[String: Any]]).compactMap { $0["kind"] as? String }
        XCTAssertEqual(kinds, ["paragraph", "paragraph", "paragraph"], "read as lines, not Markdown")
        let text = folder.appendingPathComponent("notes.txt")
        try Data("# Not a heading\n".utf8).write(to: text)
        let txt = try CLI.run(["render", text.path, "--theme", "editor", "--out", folder.appendingPathComponent("out").path, "--quiet"])
        XCTAssertEqual(txt.status, 0, txt.stderr)
        let events = try String(contentsOf: folder.appendingPathComponent("out/events.jsonl"), encoding: .utf8)
        XCTAssertFalse(events.contains("heading"), "a .txt file is plain text")
    }
}
