import Foundation
import XCTest
@testable import TextReel
@testable import TextReelMarkdown

/// Nothing a browser shows is hidden, on the GFM spec's own examples
/// (`Fixtures/gfm-spec/examples.json`, the 673 examples of cmark-gfm's test/spec.txt): the words
/// each example's HTML shows in a browser (its text as the HTML5 parser builds it, comments
/// left out) against the words TextReel's paragraphs hold for its Markdown, as multisets.
final class GFMSpecWordsTests: XCTestCase {
    struct Example: Decodable { var example: Int, line: Int, section: String, `extension`: String, markdown: String, html: String }

    /// The share of examples whose words must all be drawn: all of them, as measured when the test
    /// was written (668 of 671 before its two fixes; a failure lists what differs).
    static let matchingAtLeast = 1.0

    private static func words(_ text: String) -> [String] {
        text.unicodeScalars.split { CharacterSet.whitespacesAndNewlines.contains($0) || $0 == "\u{2028}" || $0 == "\u{FFFC}" }
            .map { String(String.UnicodeScalarView($0)) }.sorted()
    }

    /// Elements a browser lays out as blocks (or breaks a line at): words end at them.
    private static let blocks: Set = ["p", "div", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre",
                                      "table", "thead", "tbody", "tr", "td", "th", "hr", "br", "dl", "dt", "dd", "details",
                                      "summary", "section", "article", "header", "footer", "nav", "aside", "figure", "figcaption",
                                      "address", "center"]

    /// What a browser shows of `html`: its text, blocks apart, without what it never draws.
    private static func shown(_ nodes: [HTMLFragment.Node]) -> String {
        nodes.map { node -> String in
            switch node {
            case .text(let text): text
            case .element(let name, _, let children):
                ["script", "style", "template", "title", "head"].contains(name) ? ""
                    : blocks.contains(name) ? " " + shown(children) + " " : shown(children)
            }
        }.joined()
    }

    func testEveryWordABrowserShowsIsDrawn() throws {
        let data = try Data(contentsOf: Paths.root.appendingPathComponent("Fixtures/gfm-spec/examples.json"))
        let examples = try JSONDecoder().decode([Example].self, from: data).filter { $0.extension != "disabled" }
        var differing: [(Example, [String], [String])] = []
        for example in examples {
            let browser = Self.words(Self.shown(HTMLFragment(example.html).nodes))
            let drawn: [String]
            do {
                let document = try TextDocument(markdown: example.markdown)
                drawn = Self.words(document.paragraphs.map { $0.text.replacingOccurrences(of: "▸ ", with: "") }.joined(separator: "\n"))
            } catch {
                drawn = ["<error: \(error)>"]
            }
            if drawn != browser { differing.append((example, browser, drawn)) }
        }
        let matching = examples.count - differing.count
        var report = ["\(matching) of \(examples.count) GFM spec examples draw every word a browser shows (\(NumberText.text(100 * Double(matching) / Double(examples.count), decimals: 1))%)"]
        for (example, browser, drawn) in differing {
            let missing = browser.filter { !drawn.contains($0) }, extra = drawn.filter { !browser.contains($0) }
            report.append("  example \(example.example) (\(example.section), line \(example.line)): missing \(missing.prefix(6)) extra \(extra.prefix(6))")
        }
        print(report.joined(separator: "\n"))
        try? report.joined(separator: "\n").appending("\n").write(to: Paths.root.appendingPathComponent("Output/gfm-spec-words.txt"), atomically: true, encoding: .utf8)
        XCTAssertGreaterThanOrEqual(Double(matching) / Double(examples.count), Self.matchingAtLeast, report.prefix(40).joined(separator: "\n"))
    }
}
