import Foundation
import XCTest
@testable import TextReel
@testable import TextReelMarkdown

/// Fenced code in syntax colours by its info string, wrapped between tokens, and highlighted
/// again band by band as it is edited.
final class HighlightingTests: XCTestCase {
    private func classes(_ paragraph: TextParagraph) -> [(text: String, name: String)] {
        let bytes = Array(paragraph.text.utf8)
        return paragraph.attributes.compactMap { run in
            guard case .string(let name)? = run.attributes[AttributeVocabulary.syntaxClass] else { return nil }
            return (String(decoding: bytes[run.range], as: UTF8.self), name)
        }
    }

    /// Signals whose handlers do not restart system calls (a timer's, a profiler's) interrupt
    /// the helper's pipe reads and writes: each is done again, so the process neither stops nor
    /// leaves code plain (found by the fuzzer, whose timer interrupted a reply: FileHandle's
    /// `availableData` stopped the process).
    func testSignalsDuringAnExchangeAreSurvived() throws {
        var action = sigaction(), old = sigaction()
        action.__sigaction_handler.sa_handler = { _ in }
        action.sa_flags = 0   // no SA_RESTART: an interrupted read or write returns EINTR
        sigaction(SIGUSR2, &action, &old)
        defer { sigaction(SIGUSR2, &old, nil) }
        final class Sender: @unchecked Sendable {
            let stop = NSLock(), target = pthread_self(), ended = DispatchSemaphore(value: 0)
            var done = false
            var interrupted = 0
        }
        let sender = Sender()
        let thread = Thread {
            while !sender.stop.withLock({ sender.done }) {
                pthread_kill(sender.target, SIGUSR2)
                sender.stop.withLock { sender.interrupted += 1 }
                usleep(100)
            }
            sender.ended.signal()
        }
        thread.start()
        // The sender has stopped before the handler is put back (SIGUSR2's default ends the process).
        defer { sender.stop.withLock { sender.done = true }; sender.ended.wait() }
        let code = String(repeating: "let value = \"text\" // a comment\n", count: 4000)
        for _ in 0..<4 {
            let result = try XCTUnwrap(SyntaxHighlighter.highlight(code, language: "swift"), "highlighted despite the signals")
            XCTAssertGreaterThanOrEqual(result.spans.count, 4 * 4000)
        }
        XCTAssertGreaterThan(sender.stop.withLock { sender.interrupted }, 10, "signals were sent during the exchanges")
    }

    /// A Swift block gets keywords, strings, comments, numbers and types, each drawn in the
    /// theme's colour for it; an unknown language and a block without one stay plain.
    func testASwiftBlockIsDrawnInSyntaxColours() throws {
        let markdown = "```swift\nlet greeting = \"Hello\" // say it\nfunc twice(_ n: Int) -> Int { n * 2 }\n```\n\n```nosuchlanguage\nlet x = 1\n```\n\n```\nlet y = 2\n```\n"
        let document = try TextDocument(markdown: markdown)
        let found = classes(document.paragraphs[0])
        for (text, name) in [("let", "keyword"), ("\"Hello\"", "string"), ("// say it", "comment"), ("2", "number"), ("func", "keyword"), ("twice", "function")] {
            XCTAssertTrue(found.contains { $0.text == text && $0.name == name }, "\(text) as \(name) in \(found)")
        }
        XCTAssertTrue(classes(document.paragraphs[1]).isEmpty, "an unknown language stays plain")
        XCTAssertTrue(classes(document.paragraphs[2]).isEmpty, "a block without a language stays plain")

        let view = TextView(document: document, viewportSize: CGSize(width: 600, height: 200))
        let frame = try view.renderFrame()
        let line = view.textLayoutManager.ensureLayout(forParagraphAt: 0).textLineFragments[0]
        let top = Int(view.textLayoutManager.ensureLayout(forParagraphAt: 0).layoutFragmentFrame.minY + line.typographicBounds.minY)
        var seen = Set<String>()
        let colours = [("keyword", view.theme.syntax.keyword), ("string", view.theme.syntax.string), ("comment", view.theme.syntax.comment)]
        for y in top..<top + Int(line.typographicBounds.height) {
            for x in 0..<600 {
                let p = frame.pixel(x: x, y: y)
                for (name, c) in colours where abs(Int(p.red) - Int(c.red * 255)) < 12 && abs(Int(p.green) - Int(c.green * 255)) < 12 && abs(Int(p.blue) - Int(c.blue * 255)) < 12 {
                    seen.insert(name)
                }
            }
        }
        XCTAssertEqual(seen, ["keyword", "string", "comment"], "the first line is drawn in three syntax colours")
    }

    /// A comment that spans two bands of a long block is a comment in both, from the state the
    /// second band starts in.
    func testAStateCarriesAcrossBands() throws {
        let lines = (0..<98).map { "let v\($0) = \($0)" } + ["/* a comment", "that spans", "two bands */ let after = 1"]
        let document = try TextDocument(markdown: "```swift\n" + lines.joined(separator: "\n") + "\n```\n")
        XCTAssertEqual(document.count, 2)
        let second = classes(document.paragraphs[1])
        XCTAssertEqual(second.first?.name, "comment", "\(second)")
        XCTAssertTrue(second.contains { $0.text == "let" && $0.name == "keyword" })
        XCTAssertEqual(document.paragraphs[1].syntaxStart?.last, "comment-multi")
    }

    /// Typing into the middle band of a 10,000-line block lexes that band (and the next, to see
    /// its state unchanged), not the block; opening a comment there colours the bands after it.
    func testTypingIntoALongBlockLexesWhatChanged() throws {
        let lines = (0..<10_000).map { "let value\($0) = compute(\($0)) // line" }
        let document = try TextDocument(markdown: "```swift\n" + lines.joined(separator: "\n") + "\n```\n")
        XCTAssertEqual(document.count, 100)
        let view = TextView(document: document, viewportSize: CGSize(width: 600, height: 300))
        let band = document.paragraphs[50]
        XCTAssertEqual(classes(band).first?.text, "let")
        view.selectedTextRange = TextRange(location: TextLocation(paragraph: band.id, offset: 0))
        try view.insertText("x")
        XCTAssertEqual(view.codeBandsLexed, 1, "one band lexed; the next starts in the state it had")
        XCTAssertNotEqual(classes(view.document.paragraphs[50]).first?.text, "let", "'xlet' is a name, not a keyword")
        try view.insertText("/*")
        XCTAssertEqual(classes(view.document.paragraphs[99]).first?.name, "comment", "an open comment runs to the block's end")
        XCTAssertEqual(classes(view.document.paragraphs[49]).first?.name, "keyword", "bands before the edit keep their colours")
    }

    /// Long code lines wrap between tokens, never inside one, unless a token alone is wider than
    /// the line; wrapped lines are continuation lines (indented, marked).
    func testCodeWrapsBetweenTokens() throws {
        let long = String(repeating: "x", count: 120)
        let source = "sudo apt-get install -y libpango1.0-dev && ./install-everything.sh --prefix=/usr/local --with-String-arguments \(long)"
        let document = try TextDocument(markdown: "```sh\n\(source)\n```\n")
        // By default a long line runs on past the box, one line, as GitHub shows it.
        let runsOn = TextView(document: document, viewportSize: CGSize(width: 360, height: 300))
        XCTAssertEqual(runsOn.textLayoutManager.ensureLayout(forParagraphAt: 0).textLineFragments.count, 1)
        var wrapping = Theme.light
        wrapping.wrapsCode = true
        let view = TextView(document: document, viewportSize: CGSize(width: 360, height: 300), theme: wrapping)
        _ = try view.renderFrame()
        let fragment = view.textLayoutManager.ensureLayout(forParagraphAt: 0)
        let lines = fragment.textLineFragments
        XCTAssertGreaterThan(lines.count, 3)
        let bytes = Array(document.paragraphs[0].text.utf8)
        let longStart = bytes.count - long.utf8.count
        for line in lines.dropFirst() {
            let start = line.characterRange.lowerBound
            if start > longStart { continue }    // inside the token wider than a line
            XCTAssertTrue(bytes[start - 1] == 0x20, "a line starts after a space: \(String(decoding: bytes[start...], as: UTF8.self).prefix(20))")
        }
        XCTAssertTrue(lines.contains { $0.characterRange.lowerBound > longStart }, "the over-long token breaks")
        XCTAssertGreaterThan(lines[1].typographicBounds.minX, lines[0].typographicBounds.minX, "continuation lines are indented")
    }

    /// Prose wraps a URL, a path or an option as a browser does: whole, at the spaces around it
    /// (Pango alone breaks after `/`, `$` and inside `--name`), unless it is wider than a line.
    func testProseKeepsURLsPathsAndOptionsWhole() throws {
        let long = "https://example.com/" + String(repeating: "segment/", count: 12)
        let words = ["see https://github.com/BurntSushi/ripgrep/archive/0.7.1.zip now", "run `--no-require-git` or",
                     "${HOME}/bin/tool", "C:\\Users\\name\\file", "and /usr/local/share/fonts/truetype please", long, "end"]
        let markdown = (0..<4).map { _ in "alpha beta gamma delta epsilon zeta eta theta " }.joined() + words.joined(separator: " ")
        let document = try TextDocument(markdown: markdown)
        let view = TextView(document: document, viewportSize: CGSize(width: 600, height: 600))
        _ = try view.renderFrame()
        let lines = view.textLayoutManager.ensureLayout(forParagraphAt: 0).textLineFragments
        let bytes = Array(document.paragraphs[0].text.utf8)
        let longRange = Array(document.paragraphs[0].text.utf8).firstRange(of: Array(long.utf8))!
        var starts: [String] = []
        for line in lines.dropFirst() where !longRange.dropFirst().contains(line.characterRange.lowerBound) {
            let start = line.characterRange.lowerBound
            starts.append(String(decoding: bytes[start...].prefix(12), as: UTF8.self))
            XCTAssertEqual(bytes[start - 1], 0x20, "a line starts after a space: \(starts.last!)")
        }
        XCTAssertTrue(lines.contains { longRange.dropFirst().contains($0.characterRange.lowerBound) }, "a URL wider than a line breaks")
        XCTAssertGreaterThan(starts.count, 4, "\(starts)")
    }

    /// In a table, too, a path stays whole: its column is measured wide enough for it.
    func testTableCellsKeepPathsWhole() throws {
        let path = "/v1/widgets/{id}/children"
        let document = try TextDocument(markdown: "| Path | Description |\n|---|---|\n| `\(path)` | " + String(repeating: "words that wrap ", count: 12) + "|\n")
        let view = TextView(document: document, viewportSize: CGSize(width: 420, height: 400))
        _ = try view.renderFrame()
        let row = document.paragraphs[1]
        let start = Array(row.text.utf8).firstRange(of: Array(path.utf8))!
        let lines = view.textLayoutManager.ensureLayout(forParagraphAt: 1).textLineFragments
        let holding = lines.filter { $0.characterRange.lowerBound < start.upperBound && $0.characterRange.upperBound > start.lowerBound }
        XCTAssertEqual(holding.count, 1, "the path on one line")
    }

    /// A token kept whole ends at every break Pango must make: a vertical tab or a form feed
    /// (found by the fuzzer: Pango aborted on a code span of `;` and `$` holding one), a line or
    /// paragraph separator.
    func testKeptTokensEndAtEveryForcedBreak() throws {
        XCTAssertEqual(Typesetter.proseTokens("a/b\u{0B}c/d e\u{0C}-f"), [0..<3, 4..<7, 10..<12])
        XCTAssertEqual(Typesetter.codeTokens("ab\u{0B}cd\u{2028}ef\u{85}gh"), [0..<2, 3..<5, 8..<10, 12..<14])
        let fuzzed = try Data(contentsOf: Paths.fixtures.appendingPathComponent("fuzz/FuzzMarkdown/vertical-tab-in-a-kept-token.md"))
        let view = TextView(document: try TextDocument(markdown: String(decoding: fuzzed, as: UTF8.self)), viewportSize: CGSize(width: 320, height: 240))
        XCTAssertGreaterThan(try view.renderFrame().width, 0)
    }

    /// A theme file sets the syntax colours by class; an unknown class is an error at its place.
    func testAThemeFileSetsSyntaxColours() throws {
        let folder = Paths.temporaryFolder()
        let good = folder.appendingPathComponent("good.json5"), bad = folder.appendingPathComponent("bad.json5")
        try Data("{base: \"dark\", syntax: {keyword: \"#00FF00\"}}".utf8).write(to: good)
        try Data("{syntax: {keywords: \"#00FF00\"}}".utf8).write(to: bad)
        let theme = try Theme(contentsOf: good)
        XCTAssertEqual(theme.syntax.keyword, Color(hex: 0x00FF00))
        XCTAssertEqual(theme.syntax.string, Theme.dark.syntax.string)
        XCTAssertThrowsError(try Theme(contentsOf: bad)) { error in
            XCTAssertEqual((error as? TextReelError)?.line, 1)
            XCTAssertTrue("\(error)".contains("unknown key 'keywords'"), "\(error)")
        }
    }
}
