import Foundation
import XCTest
import TextReelMarkdown

/// Plain text as TextKit's content storage splits it (a paragraph a line) in a code editor's look
/// (monospaced, no space between paragraphs), from Swift and from the command line.
final class PlainTextTests: XCTestCase {
    func testPlainTextInTheEditorLookIsSetLineUnderLine() throws {
        let text = "func main() {\n    print(\"hello\")\n\n    // a comment\n}\n"
        let document = TextDocument(attributedString: NSAttributedString(string: text))
        XCTAssertEqual(document.paragraphs.map(\.text), ["func main() {", "    print(\"hello\")", "", "    // a comment", "}", ""])
        let view = TextView(document: document, viewportSize: CGSize(width: 400, height: 300), theme: .editor)
        let pass = try view.layoutPass()
        let frames = pass.fragments.map(\.frame)
        XCTAssertEqual(frames.count, 6)
        for (above, below) in zip(frames, frames.dropFirst()) {
            XCTAssertEqual(below.y, above.y + above.height, accuracy: 0.01, "no space between paragraphs")
            XCTAssertEqual(below.height, frames[0].height, accuracy: 0.01, "every line, the empty ones too, as tall as the others")
        }
        XCTAssertEqual(frames[0].y, Theme.editor.insets.top)
    }

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
