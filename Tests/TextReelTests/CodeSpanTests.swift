import Foundation
import XCTest
import TextReelMarkdown

/// A code span breaks where a browser breaks `<code>`: at its spaces, never inside `!=`.
final class CodeSpanTests: XCTestCase {
    func testACodeSpanBreaksOnlyAtItsSpaces() throws {
        let markdown = "Compare values with `!=` and `<=` or `a->b` in expressions such as `x!=y` and `foo::bar()` here, then `a == b` too."
        let document = try TextDocument(markdown: markdown)
        let text = Array(document.paragraphs[0].text.utf8)
        // The code spans' bytes that are not spaces.
        let code = document.paragraphs[0].runs.filter { $0.style.contains(.code) }.flatMap { Array($0.range) }.filter { text[$0] != 0x20 }
        var checked = 0
        for width in stride(from: 160.0, through: 460, by: 3) {
            let view = TextView(document: document, viewportSize: CGSize(width: width, height: 400))
            let lines = view.textLayoutManager.ensureLayout(forParagraphAt: 0).textLineFragments
            for line in lines.dropFirst() {
                let start = line.characterRange.location
                let utf8 = String(document.paragraphs[0].text.utf16.prefix(start))!.utf8.count
                XCTAssertFalse(code.contains(utf8) && code.contains(utf8 - 1), "width \(width): a line starts inside a code span at byte \(utf8)")
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 100)
    }

    /// Found by the fuzzer: a code span of `;` and `$` holding vertical tabs, held whole across
    /// them, made Pango abort; each piece ends at every break Pango must make.
    func testACodeSpanAcrossAVerticalTabIsLaidOut() throws {
        let found = try Data(contentsOf: Paths.fixtures.appendingPathComponent("fuzz/FuzzMarkdown/code-span-held-whole-across-a-vertical-tab-found.md"))
        let document = try TextDocument(markdown: String(decoding: found, as: UTF8.self))
        for width in [120.0, 200, 320, 800] {
            let view = TextView(document: document, viewportSize: CGSize(width: width, height: 300))
            XCTAssertGreaterThan(try view.renderFrame().width, 0)
        }
    }
}

/// What a browser shows of HTML soup is drawn: a `<summary>` left open takes the blocks after it
/// into the summary, shown even while its `<details>` is closed.
final class UnclosedSummaryTests: XCTestCase {
    func testBlocksAfterAnUnclosedSummaryAreShown() throws {
        let markdown = "<details>\n<summary>Installation\n\nStep one is shown.\n\n- and this item\n\n</details>\n\nAfter.\n"
        let shown = try TextDocument(markdown: markdown).paragraphs.map(\.text).joined(separator: "|")
        XCTAssertTrue(shown.contains("Step one is shown."), shown)
        XCTAssertTrue(shown.contains("and this item"), shown)
        XCTAssertTrue(shown.contains("After."), shown)
        // A closed summary still hides the details' blocks, as a browser does.
        let closed = try TextDocument(markdown: "<details>\n<summary>Installation</summary>\n\nHidden step.\n\n</details>\n\nAfter.\n")
            .paragraphs.map(\.text).joined(separator: "|")
        XCTAssertFalse(closed.contains("Hidden step."), closed)
        XCTAssertTrue(closed.contains("After."), closed)
    }

    /// A long `<pre>` is laid out in bands, as a fenced block is (one paragraph of 100,000 lines
    /// took 44 s); a `<pre>` in a table cell keeps its lines.
    func testPreIsBandedAndKeepsItsLinesInACell() throws {
        let lines = (0..<1_000).map { "x\($0)" }
        let pre = try TextDocument(markdown: "<pre>\n" + lines.joined(separator: "\n") + "\n</pre>\n")
        XCTAssertEqual(pre.paragraphs.count, 10)
        XCTAssertEqual(pre.paragraphs.map(\.text).joined(separator: "\n"), lines.joined(separator: "\n"))
        let cell = try TextDocument(markdown: "<table><tr><td>\n<pre>\nline one\nline two\n</pre>\n</td><td>b</td></tr></table>\n")
        XCTAssertTrue(cell.paragraphs[0].text.contains("line one\u{2028}line two"), cell.paragraphs[0].text.debugDescription)
    }
}
