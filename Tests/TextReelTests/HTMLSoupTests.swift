import Foundation
import XCTest
@testable import TextReel
@testable import TextReelMarkdown

/// HTML as READMEs write it, broken as browsers forgive it: every word a browser shows is drawn,
/// in the style the browser gives it, and nothing a browser hides shows. Each expectation is
/// what Chromium shows for the same Markdown under GitHub's stylesheet (the reference renderer).
final class HTMLSoupTests: XCTestCase {
    /// The words of the document's paragraphs, in order.
    private func words(_ markdown: String) throws -> [String] {
        try TextDocument(markdown: markdown).paragraphs.flatMap { $0.text.split(whereSeparator: { $0.isWhitespace || $0 == "\t" }).map(String.init) }
    }

    /// The styles of the first run holding `word` in the paragraph that holds it.
    private func style(of word: String, in markdown: String) throws -> InlineStyle? {
        let document = try TextDocument(markdown: markdown)
        guard let paragraph = document.paragraphs.first(where: { $0.text.contains(word) }),
              let range = paragraph.text.range(of: word) else { return nil }
        let offset = paragraph.text.utf8.distance(from: paragraph.text.startIndex, to: range.lowerBound)
        return paragraph.runs.first { $0.range.contains(offset) }?.style ?? []
    }

    func testUnclosedAndMisnestedTagsShowEveryWord() throws {
        XCTAssertEqual(try words("<p>First para\n<p>Second <b>bold <i>both</b> italic</i> after\n"),
                       ["First", "para", "Second", "bold", "both", "italic", "after"])
        // The adoption agency: the italic opened inside the bold goes on after the bold ends.
        let misnested = "<p>Second <b>bold <i>both</b> italic</i> after</p>\n"
        XCTAssertEqual(try style(of: "italic", in: misnested), [.emphasis])
        XCTAssertEqual(try style(of: "both", in: misnested), [.strong, .emphasis])
        XCTAssertEqual(try style(of: "after", in: misnested), [])
        XCTAssertEqual(try TextDocument(markdown: "<ul><li>one<li>two<li>three</ul>\n").paragraphs.map(\.text), ["one", "two", "three"])
    }

    /// Text written inside a table but outside its cells is shown before the table, as a browser
    /// moves it (the HTML parser before lost "foster").
    func testTextBeforeATablesRowsIsShownBeforeIt() throws {
        let found = try words("<div>text <table>foster <tr><td>cell</td></tr></table></div>\n")
        XCTAssertEqual(found, ["text", "foster", "cell"])
        XCTAssertEqual(try words("<table><tr><td>a<td>b</table>\n"), ["a", "b"])
    }

    /// What a browser reads as a comment (a processing instruction, CDATA outside SVG or MathML)
    /// is hidden; the text around it shows.
    func testWhatABrowserTakesForACommentIsHidden() throws {
        XCTAssertEqual(try words("<?php echo \"hidden\"; ?> visible text\n"), ["visible", "text"])
        XCTAssertEqual(try words("<![CDATA[ cdata text ]]> after cdata\n"), ["after", "cdata"])
        XCTAssertEqual(try words("<div>shown <!-- a comment --> too</div>\n"), ["shown", "too"])
    }

    /// GitHub's tag filter: tags that would change how the rest of a page parses show as written.
    func testFilteredTagsShowAsWritten() throws {
        let markdown = "<textarea>raw <b>not bold</b></textarea>\n"
        XCTAssertEqual(try TextDocument(markdown: markdown).paragraphs.map(\.text), ["<textarea>raw not bold</textarea>"])
        XCTAssertEqual(try style(of: "not bold", in: markdown), [.strong])
        XCTAssertEqual(try words("<div><script>alert(1)</script> and <STYLE>p {}</STYLE></div>\n"),
                       ["<script>alert(1)</script>", "and", "<STYLE>p", "{}</STYLE>"])
    }

    /// A deep nesting past what the walk reads is refused with its line, never cut silently.
    func testHTMLPastTheDeepestReadIsRefused() {
        var limits = ReadingLimits()
        limits.nesting = 5_000
        let deep = "Before.\n\n" + String(repeating: "<div>", count: HTMLFragment.deepestRead + 10) + "deep\n\nAfter.\n"
        XCTAssertThrowsError(try TextDocument(markdown: deep, limits: limits)) { error in
            XCTAssertEqual((error as? TextReelError)?.message, "HTML elements nested more than \(HTMLFragment.deepestRead) deep, past what TextReel reads")
        }
    }
}
