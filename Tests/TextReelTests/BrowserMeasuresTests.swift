import Foundation
import XCTest
@testable import TextReel
@testable import TextReelMarkdown

/// Where a browser showing GitHub's stylesheet puts text, in the details `make fidelity` found
/// drifting: each figure is Chromium's for the same Markdown (the reference renderer), 800 px wide.
final class BrowserMeasuresTests: XCTestCase {
    private func view(_ markdown: String) throws -> TextView {
        TextView(document: try TextDocument(markdown: markdown), viewportSize: CGSize(width: 800, height: 600))
    }

    /// The distance from each paragraph's top to the next one's.
    private func pitches(_ markdown: String) throws -> [Double] {
        let view = try view(markdown)
        let count = view.textLayoutManager.paragraphCount
        let tops = (0..<count).map { view.textLayoutManager.ensureLayout(forParagraphAt: $0).layoutFragmentFrame.minY }
        return zip(tops, tops.dropFirst()).map { $1 - $0 }
    }

    /// Text in raw HTML outside any `<p>` is an anonymous block: no margin below it, the next
    /// block's margin only (a heading keeps its 24 px above).
    func testTextOutsideAParagraphHasNoSpaceBelowIt() throws {
        let inParagraph = try pitches("<p>One</p>\n\nNext\n")[0]
        let inDiv = try pitches("<div>One</div>\n\nNext\n")[0]
        let bare = try pitches("<br />\nOne\n\nNext\n")[0]
        XCTAssertEqual(inParagraph - inDiv, 16, accuracy: 0.5, "a <p>'s 16 px below it, none below a <div>'s text")
        XCTAssertEqual(bare, inDiv + 24, accuracy: 0.5, "a line for the <br>, then the text, then nothing")
        XCTAssertEqual(try pitches("<div>One</div>\n\n## Next\n")[0], try pitches("<p>One</p>\n\n## Next\n")[0], accuracy: 0.5,
                       "a heading's space above is whole after either")
        XCTAssertEqual(try pitches("<h2>One</h2>\n\nNext\n")[0], try pitches("## One\n\nNext\n")[0], accuracy: 0.5, "an HTML heading keeps its margins")
    }

    /// Glyphs advance by the font's own widths, as Chromium's do: fifty `i` of Noto Sans at 16 px
    /// are 206.4 px wide (Pango's whole-pixel rounding made them 200).
    func testGlyphsAdvanceByTheFontsOwnWidths() throws {
        let view = try view(String(repeating: "i", count: 50) + "\n")
        let line = try XCTUnwrap(view.textLayoutManager.ensureLayout(forParagraphAt: 0).textLineFragments.first)
        XCTAssertEqual(line.typographicBounds.width, 206.4, accuracy: 0.5)
    }

    /// Code in a heading is set at the heading's size (`h3 code { font-size: inherit }`), so the
    /// heading breaks where the browser's does: on one line at 800 px.
    func testCodeInAHeadingIsTheHeadingsSize() throws {
        let view = try view("### `mmmmmmmmmm`\n\n### Commit message with scope and `!` to draw attention to breaking change\n")
        let code = try XCTUnwrap(view.textLayoutManager.ensureLayout(forParagraphAt: 0).textLineFragments.first)
        XCTAssertEqual(code.typographicBounds.width, 10 * 0.602 * 20, accuracy: 3, "ten monospaced em-tenths at 20 px, not 17")
        XCTAssertEqual(view.textLayoutManager.ensureLayout(forParagraphAt: 1).textLineFragments.count, 1)
    }

    /// A nested item's bullet (`◦`, from a fallback font) does not make its item taller: items
    /// are 28 px apart at every depth.
    func testItemsAreAsFarApartAtEveryDepth() throws {
        let found = try pitches("- a\n    - b\n    - c\n- d\n- e\n")
        XCTAssertEqual(found[1], 28, accuracy: 0.1, "depth 2")
        XCTAssertEqual(found[3], 28, accuracy: 0.1, "depth 1")
    }

    /// A nested list that more of its item follows ends without space (`ul ul { margin: 0 }`):
    /// from its last item to a code block after it in the item, the item's own gap only; a
    /// paragraph of a loose item keeps its 16 px above (`li > p`).
    func testANestedListEndsWithoutSpaceInsideItsItem() throws {
        let code = try pitches("- intro\n    - a\n    - b\n\n    ```\n    x\n    ```\n")
        XCTAssertEqual(code[2], 24, accuracy: 0.1, "b's line, then the code block at once")
        let loose = try pitches("- intro\n\n    - a\n    - b\n\n    after\n\n- next\n")
        XCTAssertEqual(loose[2], 24 + 16, accuracy: 0.1, "a loose item's paragraph keeps its margin")
    }

    /// Images in a table's cells shrink to share the column (`img { max-width: 100% }` gives
    /// them no least width): two 480-point photos side by side in 736 points, each in its cell,
    /// the table whole, as a README's pair of screenshots shows.
    func testImagesInATableShareTheColumn() throws {
        let document = try TextDocument(markdown: "| ![](media/photo.png) | ![](media/photo.png) |\n|---:|---:|\n",
                                         baseURL: Paths.fixtures.appendingPathComponent("documents"))
        let view = TextView(document: document, viewportSize: CGSize(width: 800, height: 600))
        var events: [FrameEvent] = []
        try ScriptRunner(view: view, script: ScrollScript(data: Data("{steps: [{wait: 0.05}]}".utf8))).run(drawing: 0...0) { _, _, event in events.append(event) }
        XCTAssertTrue(events[0].fragments.allSatisfy { $0.clipped == nil }, "the table is not cut")
        let fragment = view.textLayoutManager.ensureLayout(forParagraphAt: 0)
        let frames = fragment.paragraph.attachments.compactMap { fragment.frameForTextAttachment(id: $0.id) }
        XCTAssertEqual(frames.count, 2)
        for frame in frames {
            XCTAssertLessThan(frame.width, 368, "shrunk to its half of the column")
            XCTAssertEqual(frame.height / frame.width, 280.0 / 480.0, accuracy: 0.02, "keeping its aspect")
            XCTAssertLessThanOrEqual(frame.maxX, 800 - 32 + 0.5, "inside the column")
        }
        XCTAssertEqual(frames[0].width, frames[1].width, accuracy: 1, "equal images, equal shares")
    }
}
