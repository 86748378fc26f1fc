import XCTest
@testable import TextReel
@testable import TextReelMarkdown

/// Real documents' blocks as GitHub draws them: footnotes, alerts, raw HTML, remote images and
/// the space after lists.
final class DocumentBlockTests: XCTestCase {
    private func texts(_ markdown: String) throws -> [String] { try TextDocument(markdown: markdown).paragraphs.map(\.text) }

    /// References become superscript numbers in order of first use (links to their notes); the
    /// notes come last, under a rule, numbered the same way, each ending in a back-reference.
    func testFootnotesAreNumberedInOrderOfFirstUse() throws {
        let doc = try TextDocument(markdown: "Alpha[^b] beta[^a] gamma[^b].\n\n[^a]: Note A.\n[^b]: Note B.\n\nEnd.\n")
        let body = doc.paragraphs[0]
        XCTAssertEqual(body.text, "Alpha1 beta2 gamma1.")
        XCTAssertFalse(doc.paragraphs.map(\.text).joined().contains("[^"), "no footnote syntax is drawn")
        let raised = body.runs.filter { $0.style.contains(.raised) }
        XCTAssertEqual(raised.map(\.link), ["#fn-1", "#fn-2", "#fn-1"])
        XCTAssertEqual(doc.paragraphs.map(\.kind.name).suffix(3), ["rule", "list-item", "list-item"])
        XCTAssertEqual(doc.paragraphs.suffix(2).map(\.text), ["Note B. ↩", "Note A. ↩"], "notes in order of first reference")
        XCTAssertEqual(doc.paragraphs.suffix(2).map(\.kind), [.listItem(marker: "1."), .listItem(marker: "2.")])
        // Set as GitHub sets its footnotes section: small and muted, under a thin line.
        let theme = Theme()
        let styles = doc.paragraphs.map { BlockStyle(paragraph: $0, theme: theme, containerWidth: 600) }
        XCTAssertEqual(doc.paragraphs.map { $0.attributes(at: 0)[AttributeVocabulary.footnote] != nil }, [false, false, true, true, true])
        XCTAssertEqual(styles.suffix(2).map(\.color), [theme.secondaryText, theme.secondaryText])
        XCTAssertLessThan(styles[3].size, styles[0].size)
    }

    /// An alert's marker line becomes a title with its icon in the alert's colour, and every
    /// paragraph of it says its bar is the alert's; a plain quote and an unknown marker stay quotes.
    func testAlertsGetATitleAndTheirColour() throws {
        for alert in Alert.allCases {
            let doc = try TextDocument(markdown: "> [!\(alert.rawValue.uppercased())]\n> Some advice.\n")
            XCTAssertEqual(doc.paragraphs.map(\.text), ["\(alert.icon)  \(alert.title)", "Some advice."])
            XCTAssertEqual(doc.paragraphs.map(\.quoteDepth), [1, 1])
            for paragraph in doc.paragraphs {
                XCTAssertEqual(paragraph.attributes(at: 0)[Alert.barKey], .color(alert.color))
            }
            XCTAssertEqual(doc.paragraphs[0].attributes(at: 0)[NSAttributedString.Key.foregroundColor.rawValue], .color(alert.color))
        }
        // The body is in the text's colour (GitHub's alerts inherit it), a quote inside it muted.
        let theme = Theme(), nested = try TextDocument(markdown: "> [!NOTE]\n> Body.\n> > Quoted.\n\n> Plain quote.\n")
        XCTAssertEqual(nested.paragraphs.map { BlockStyle(paragraph: $0, theme: theme, containerWidth: 600).color },
                       [theme.text, theme.text, theme.secondaryText, theme.secondaryText])
        XCTAssertEqual(try texts("> [!NOTE] and more on the line\n"), ["[!NOTE] and more on the line"], "GitHub wants the marker alone on its line")
        XCTAssertEqual(try texts("> [!SOMETHING]\n> text\n"), ["[!SOMETHING] text"])
    }

    /// Raw HTML draws what GitHub's sanitiser allows and hides the rest: comments vanish, a
    /// script shows as written (GitHub's tag filter makes its `<` text), `align` centres, `<br>`
    /// breaks, inline tags style, `<details>` shows its summary.
    func testHTMLIsDrawnNotShownAsSource() throws {
        let doc = try TextDocument(markdown: """
        <p align="center"><img src="https://img.shields.io/badge/build-passing-green" alt="build passing"></p>

        <!-- a comment -->

        <script>alert(1)</script>

        Press <kbd>Ctrl</kbd>+<b>C</b>, H<sub>2</sub>O<br>
        next line.

        <details>
        <summary>More</summary>

        Hidden until opened.

        </details>

        <table><tr><th>Name</th><th align="right">Stars</th></tr><tr><td>a</td><td align="right">1</td></tr></table>

        After.
        """)
        let all = doc.paragraphs.map(\.text)
        XCTAssertFalse(all.joined().contains("comment"), "\(all)")
        XCTAssertFalse(all.joined().contains("Hidden"), "a closed details hides its content")
        XCTAssertEqual(all, ["\u{FFFC}", "<script>alert(1)</script>", "Press Ctrl+C, H2O\u{2028}next line.", "▸ More", "Name\tStars", "a\t1", "After."])
        guard case .paragraphStyle(let style)? = doc.paragraphs[0].attributes(at: 0)[NSAttributedString.Key.paragraphStyle.rawValue] else {
            return XCTFail("the logo paragraph is centred")
        }
        XCTAssertEqual(style.alignment, .center)
        let badge = doc.paragraphs[0].attachments[0]
        XCTAssertEqual(badge.size.height, 20, "a remote badge is one line tall")
        XCTAssertEqual(badge.altText, "build passing")
        XCTAssertTrue(badge.isNotFetched)
        let styles = doc.paragraphs[2].runs.map(\.style)
        XCTAssertTrue(styles.contains([.code, .keyboard]) && styles.contains(.strong) && styles.contains(.lowered), "a key, bold, lowered: \(styles)")
        guard case .tableRow(let header) = doc.paragraphs[4].kind else { return XCTFail("an HTML table is a table") }
        XCTAssertEqual(header.columns.alignments, [.natural, .right])
    }

    /// An HTML table keeps every cell where GitHub shows it: Markdown between blank lines inside
    /// a `<td>` is the cell's (its paragraphs and items as lines), a cell spanning columns or rows
    /// leaves those places empty, and a first row of `<td>` is a row, not a header.
    func testHTMLTablesKeepEveryCell() throws {
        let doc = try TextDocument(markdown: """
        <table>
        <tr><td><strong>Compatibility</strong></td><td>

        This shouldn't break **any** flows.

        - one
        - two

          more

        </td></tr>
        <tr><td>Localization</td><td>

        None.

        </td></tr>
        </table>

        <table>
          <thead><tr><td>Feature</td><td colspan="2">Support</td></tr></thead>
          <tr><td rowspan="2">Tables</td><td>yes</td><td>right</td></tr>
          <tr><td>badge</td><td><code>code</code></td></tr>
        </table>

        After.
        """)
        XCTAssertEqual(doc.paragraphs.map(\.text), ["Compatibility\tThis shouldn't break any flows.\u{2028}• one\u{2028}• two\u{2028}more", "Localization\tNone.",
                                                    "Feature\tSupport\t", "Tables\tyes\tright", "\tbadge\tcode", "After."])
        XCTAssertEqual(doc.paragraphs.map(\.kind.name), ["table-row", "table-row", "table-header", "table-row", "table-row", "paragraph"])
        XCTAssertTrue(doc.paragraphs[0].runs.contains { $0.style.contains(.strong) && doc.paragraphs[0].text.utf8.dropFirst($0.range.lowerBound).starts(with: "any".utf8) })
        guard case .tableRow(let second) = doc.paragraphs[1].kind, case .tableRow(let first) = doc.paragraphs[0].kind else { return XCTFail("rows") }
        XCTAssertTrue(second.isStriped && !first.isStriped, "GitHub stripes the second row of a table without a header")
        XCTAssertEqual(second.columns.count, 2)
        let wider = try TextDocument(markdown: "<table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td><td>e</td></tr></table>")
        guard case .tableRow(let widest)? = wider.paragraphs.last?.kind else { return XCTFail("rows") }
        XCTAssertEqual(widest.columns.count, 3, "as many columns as the widest row: e is drawn")
        // Cells outside a row are a row; a cell's list is numbered or bulleted, one item a line,
        // and the text after it starts a line of its own.
        let stray = try TextDocument(markdown: """
        <table>
          <th colspan="2">Any view</th>
          <tr><td>Tab</td><td>Intro.<br><ol><li>one</li><li>two<ul><li>a</li></ul></li></ol>After.</td></tr>
        </table>
        """)
        XCTAssertEqual(stray.paragraphs.map(\.text), ["Any view\t", "Tab\tIntro.\u{2028}1. one\u{2028}2. two\u{2028}• a\u{2028}After."])
        XCTAssertEqual(stray.paragraphs.first?.kind.name, "table-header")
        // A table never closed loses nothing after it.
        let open = try TextDocument(markdown: "<table><tr><td>cell\n\nText **after**.\n\n<table><tr><td>again\n\n# Heading\n\n- item\n")
        XCTAssertEqual(open.paragraphs.map(\.text), ["cell", "Text after.", "again", "Heading", "item"])
    }

    /// Blocks inside `dir="rtl"` are set right to left whatever their first letter, as a
    /// translated README's `<div dir="rtl">` sets them: a list item starting in English has its
    /// text at the right margin and its bullet right of it; code and what follows keep theirs.
    func testBlocksInsideDirRTLAreSetRightToLeft() throws {
        let doc = try TextDocument(markdown: """
        <div dir="rtl">

        * [Pro Git](https://example.com) - Scott Chacon

        ```
        code
        ```

        </div>

        <p dir="rtl">Hello</p>

        After.
        """)
        XCTAssertEqual(doc.paragraphs.map(\.prefersRightToLeft), [true, false, true, false])
        let view = TextView(document: doc, viewportSize: CGSize(width: 600, height: 300))
        let frame = try view.renderFrame()
        let item = view.textLayoutManager.ensureLayout(forParagraphAt: 0)
        let right = 600 - view.theme.insets.right
        let line = try XCTUnwrap(item.textLineFragments.first)
        XCTAssertGreaterThan(line.typographicBounds.minX + item.layoutFragmentFrame.minX, 300, "the line starts far from the left")
        // The bullet: ink in the list indent at the right margin, none in the one at the left.
        let baseline = Int(item.layoutFragmentFrame.minY + line.glyphOrigin.y)
        let ink = { (x: Int) in (baseline - 10..<baseline).contains { frame.pixel(x: x, y: $0).red < 160 } }
        XCTAssertTrue((Int(right - view.theme.listIndent / 2)..<Int(right) + 1).contains(where: ink), "a bullet at the right")
        XCTAssertFalse((Int(view.theme.insets.left)..<Int(view.theme.insets.left + view.theme.listIndent)).contains(where: ink), "none at the left")
    }

    /// A list takes the direction of its first item, as GitHub gives a list `dir="auto"`: in an
    /// English list a Persian item keeps its bullet and its text at the left (its text went to
    /// the far right, away from its bullet); a list that starts in Persian is set right to left.
    func testAListTakesItsFirstItemsDirection() throws {
        let doc = try TextDocument(markdown: "- English item\n- یک مورد فارسی\n- Another\n\nپاراگراف فارسی.\n\n- مورد اول\n- second, in English\n")
        XCTAssertEqual(doc.paragraphs.map(\.prefersRightToLeft), [false, false, false, false, true, true])
        XCTAssertEqual(doc.paragraphs.map(\.prefersLeftToRight), [false, true, false, false, false, false])
        let view = TextView(document: doc, viewportSize: CGSize(width: 600, height: 400))
        let persian = view.textLayoutManager.ensureLayout(forParagraphAt: 1), english = view.textLayoutManager.ensureLayout(forParagraphAt: 0)
        let persianLine = try XCTUnwrap(persian.textLineFragments.first), englishLine = try XCTUnwrap(english.textLineFragments.first)
        XCTAssertEqual(persianLine.typographicBounds.minX, englishLine.typographicBounds.minX, accuracy: 1, "starts where the English item starts")
        let mirrored = try XCTUnwrap(view.textLayoutManager.ensureLayout(forParagraphAt: 5).textLineFragments.first)
        XCTAssertGreaterThan(mirrored.typographicBounds.minX, 200, "an item of a right-to-left list is set at the right")
    }

    /// HTML sets text as browsers do: a no-break space (also `&nbsp` without its `;`) is not
    /// white space that collapses, and what follows a closed `<details>` in its block shows.
    func testHTMLKeepsNoBreakSpacesAndTextAfterDetails() throws {
        let doc = try TextDocument(markdown: """
        <p>&nbsp;&nbsp; indented<br>&nbsp&nbsp;(n)</p>

        <details>
        <summary>Example</summary>

        Hidden body

        </details>
        Shown after.
        """)
        XCTAssertEqual(doc.paragraphs.map(\.text), ["\u{A0}\u{A0} indented\u{2028}\u{A0}\u{A0}(n)", "▸ Example", "Shown after."])
    }

    /// A `<details>` left open in a quote or a list item ends with it, as the HTML element
    /// does: what follows is shown (found by the fuzzer: a whole read hid it, a read in sections
    /// did not).
    func testDetailsOpenedInAQuoteOrAnItemEndWithIt() throws {
        let doc = try TextDocument(markdown: """
        > <details>
        > <summary>Quoted</summary>
        >
        > Hidden in the quote.

        After the quote.

        - <details><summary>Listed</summary>

          Hidden in the item.
        - Second item.

        After the list.
        """)
        let all = doc.paragraphs.map(\.text)
        XCTAssertFalse(all.joined().contains("Hidden"), "\(all)")
        for shown in ["After the quote.", "Second item.", "After the list."] {
            XCTAssertTrue(all.contains(shown), "\(shown) in \(all)")
        }
    }

    /// README forms of `<details>`: a summary in the block after the start tag (a blank line
    /// between), `open` showing what the element holds (in its own block and in the blocks after
    /// it), and no summary at all ("Details", as browsers show it).
    func testDetailsAcrossBlocksAndOpen() throws {
        let doc = try TextDocument(markdown: """
        <details>

        <summary>Groovy DSL</summary>

        Hidden body.

        </details>

        <details open><summary>Kotlin DSL</summary>

        Shown body.

        </details>

        <details open><summary>Inline</summary><p>Held inside.</p></details>

        <details>

        No summary here.

        </details>

        After.
        """)
        XCTAssertEqual(doc.paragraphs.map(\.text), ["▸ Groovy DSL", "▾ Kotlin DSL", "Shown body.", "▾ Inline", "Held inside.", "▸ Details", "After."])
    }

    /// Markdown inside a `<div align="center">` that spans blocks is centred (badges and a
    /// tagline under a README's logo), up to the `</div>`; tables and code keep their alignment.
    /// Markdown blocks inside a `<dd>` left open by an HTML block are indented as GitHub pads a
    /// description (they were at the margin); the term before them and what follows the list
    /// are not.
    func testMarkdownInsideADescriptionIsIndented() throws {
        let document = try TextDocument(markdown: """
        <dl>
        <dt>Term</dt>
        <dd>

        A paragraph in **Markdown** inside the definition.

        - a list

        </dd>
        <dt>Second</dt>
        <dd>Inline definition.</dd>
        </dl>

        After the list.
        """)
        func indent(_ text: String) -> Double? {
            guard let paragraph = document.paragraphs.first(where: { $0.text.hasPrefix(text) }) else { return nil }
            if case .paragraphStyle(let values)? = paragraph.attributes(at: 0)[NSAttributedString.Key.paragraphStyle.rawValue] { return values.headIndent }
            return 0
        }
        XCTAssertEqual(indent("Term"), 0)
        XCTAssertEqual(indent("A paragraph in"), 16)
        XCTAssertEqual(indent("a list"), 16)
        XCTAssertEqual(indent("Second"), 0)
        XCTAssertEqual(indent("Inline definition."), 16)
        XCTAssertEqual(indent("After the list."), 0)
    }

    /// A term sits on its description, as GitHub's stylesheet spaces a `<dt>` above only: the
    /// description starts where the term ends, and the next term is a block's space below it.
    func testATermSitsOnItsDescription() throws {
        let document = try TextDocument(markdown: "Before.\n\n<dl>\n  <dt>Term one</dt>\n  <dd>Its description.</dd>\n  <dt>Term two</dt>\n  <dd>Another.</dd>\n</dl>\n\nAfter.\n")
        let view = TextView(document: document, viewportSize: CGSize(width: 600, height: 400))
        let frames = (0..<document.paragraphs.count).map { view.textLayoutManager.ensureLayout(forParagraphAt: $0).layoutFragmentFrame }
        XCTAssertEqual(document.paragraphs.map(\.text), ["Before.", "Term one", "Its description.", "Term two", "Another.", "After."])
        XCTAssertEqual(frames[1].height, 24, accuracy: 0.5, "a term's fragment is its line, no space below it")
        XCTAssertEqual(frames[2].minY, frames[1].maxY, accuracy: 0.5, "the description right under its term")
        XCTAssertGreaterThan(frames[2].height, 24 + 8, "a description keeps a block's space below it")
        XCTAssertEqual(frames[3].minY - frames[2].minY, frames[1].minY - frames[0].minY, accuracy: 0.5, "a block's pitch from a description to the next term")
    }

    func testMarkdownInsideAnAlignedDivTakesItsAlignment() throws {
        let doc = try TextDocument(markdown: """
        <div align="center">

        **Centred**

        [![badge](https://img.shields.io/badge/a-b-green)](https://example.com)

        ```
        code
        ```

        </div>

        Left again.
        """)
        func alignment(_ k: Int) -> TextAlignment? {
            guard case .paragraphStyle(let style)? = doc.paragraphs[k].attributes(at: 0)[NSAttributedString.Key.paragraphStyle.rawValue] else { return nil }
            return style.alignment
        }
        XCTAssertEqual(doc.paragraphs.map(\.text), ["Centred", "\u{FFFC}", "code", "Left again."])
        XCTAssertEqual(alignment(0), .center)
        XCTAssertEqual(doc.paragraphs[1].kind, .body, "an aligned image is not a left-set block")
        XCTAssertEqual(alignment(1), .center)
        XCTAssertNil(alignment(2), "code keeps its own alignment")
        XCTAssertNil(alignment(3), "the div ends at its end tag")
    }

    /// An `<img align="right">` alone in its block, or starting a paragraph (a README's logo),
    /// sits on a line of its own at the right margin, above the text GitHub floats it beside; one
    /// without `align` stays a block at the left.
    func testAnImageAlignedRightSitsAtTheRightMargin() throws {
        let doc = try TextDocument(markdown: """
        <img src="https://example.com/logo.png" align="right" width="64" height="64">

        <img src="https://example.com/b.png" width="64" height="64">

        <p><img src="https://example.com/c.png" align="right" width="64" height="64">Intro beside it.</p>
        """)
        XCTAssertEqual(doc.paragraphs.map(\.kind), [.body, .blockAttachment, .body, .body])
        XCTAssertEqual(doc.paragraphs.map(\.text), ["\u{FFFC}", "\u{FFFC}", "\u{FFFC}", "Intro beside it."])
        for k in [0, 2] {
            guard case .paragraphStyle(let style)? = doc.paragraphs[k].attributes(at: 0)[NSAttributedString.Key.paragraphStyle.rawValue] else {
                return XCTFail("the logo's paragraph is aligned")
            }
            XCTAssertEqual(style.alignment, .right)
        }
    }

    /// Prose is set as HTML sets it (GitHub's page): runs of spaces are one, none starts a line
    /// after a break; code spans keep theirs. `</br>` is a break, `7)` numbers show as `7.`, a
    /// `<pre>`'s first line break is not text, a `<br>` between blocks is a blank line, and a
    /// definition list's terms are bold italic, its descriptions plain and indented.
    func testWhiteSpaceAndSmallHTMLFormsAsBrowsersShowThem() throws {
        let doc = try TextDocument(markdown: """
        One sentence.  Two spaces.\tA tab, `code  kept`, <small>small print</small>.

        Line one.</br>  Line two

        7) seven
        8) eight

        <pre>
        first
        second</pre>

        <br>

        <dl>
          <dt>--verbose</dt>
          <dd>Print more output.</dd>
        </dl>
        """)
        XCTAssertEqual(doc.paragraphs[0].runs.last?.style, .small, "<small> is smaller")
        XCTAssertEqual(doc.paragraphs.map(\.text), ["One sentence. Two spaces. A tab, code  kept, small print.", "Line one.\u{2028}Line two",
                                                    "seven", "eight", "first\nsecond", "", "--verbose", "Print more output."])
        XCTAssertEqual(doc.paragraphs[2].kind, .listItem(marker: "7."))
        XCTAssertEqual(doc.paragraphs[6].runs.map(\.style), [[.strong, .emphasis]])
        XCTAssertTrue(doc.paragraphs[7].runs.allSatisfy { !$0.style.contains(.strong) }, "a description is not bold")
        guard case .paragraphStyle(let style)? = doc.paragraphs[7].attributes(at: 0)[NSAttributedString.Key.paragraphStyle.rawValue] else {
            return XCTFail("a description is indented")
        }
        XCTAssertEqual(style.headIndent, 16)
    }

    /// Front matter is a table of its keys over its values, as GitHub shows it; lines after it
    /// keep their numbers; a file whose first `---` is a rule has none.
    func testFrontMatterIsATable() throws {
        let doc = try TextDocument(markdown: "---\ntitle: \"A title\"\n# a comment\ntags:\n  - one\n  - two\n---\n\nBody text.\n")
        XCTAssertEqual(doc.paragraphs.map(\.text), ["title\ttags", "A title\tone, two", "Body text."])
        XCTAssertEqual(doc.paragraphs.map(\.kind.name), ["table-header", "table-row", "paragraph"])
        XCTAssertEqual(doc.paragraphs[2].sourceLine, 9)
        // Saved on Windows: the same table, the same line numbers.
        let crlf = try TextDocument(markdown: "---\ntitle: \"A title\"\n# a comment\ntags:\n  - one\n  - two\n---\n\nBody text.\n".replacingOccurrences(of: "\n", with: "\r\n"))
        XCTAssertEqual(crlf.paragraphs.map(\.text), doc.paragraphs.map(\.text))
        XCTAssertEqual(crlf.paragraphs.map(\.sourceLine), doc.paragraphs.map(\.sourceLine))
        XCTAssertEqual(try texts("---\n\nText.\n").last, "Text.")
        XCTAssertEqual(try TextDocument(markdown: "---\n\nText.\n").paragraphs.first?.kind, .thematicBreak, "no closing fence: a rule")
    }

    /// Blocks made of rows or lines render whatever their size: a 20,000-row table and a code
    /// block of 800 KB (both past the 255 KB Pango lays out as one paragraph) are a paragraph per
    /// row and per band of lines; the bands join as one box and keep their lines' numbers.
    func testLongTablesAndCodeBlocksAreLaidOutInPieces() throws {
        let table = (["| a | b |", "|---|---|"] + (0..<20_000).map { "| row \($0) | some more words in row \($0) |" }).joined(separator: "\n")
        XCTAssertGreaterThan(table.utf8.count, 255 << 10)
        XCTAssertEqual(try TextDocument(markdown: table).count, 20_001)
        let code = "```swift\n" + (0..<16_000).map { "let value\($0) = compute(\($0)) // a line of code" }.joined(separator: "\n") + "\n```\n\nAfter.\n"
        XCTAssertGreaterThan(code.utf8.count, 731 << 10)
        let doc = try TextDocument(markdown: code)
        XCTAssertEqual(doc.count, 16_000 / MarkdownReader.codeBandLines + 1)
        XCTAssertEqual(doc.paragraphs.first?.ending, BlockEnding(joinsNext: true))
        XCTAssertEqual(doc.paragraphs[1].ending, BlockEnding(joinsPrevious: true, joinsNext: true))
        XCTAssertEqual(doc.paragraphs[1].sourceLine, 2 + MarkdownReader.codeBandLines, "a band's line is its first line's")
        XCTAssertEqual(doc.paragraphs[1].text.split(separator: "\n").first, "let value100 = compute(100) // a line of code")
        // Only a single run of text is refused, with advice that is true.
        XCTAssertThrowsError(try TextDocument(markdown: String(repeating: "word ", count: 60_000))) {
            XCTAssertTrue("\($0)".contains("the most Pango lays out as one paragraph; split it with blank lines"), "\($0)")
            XCTAssertFalse("\($0)".contains("--max-paragraph-kb"), "raising the limit cannot help: \($0)")
        }
    }

    /// A table's columns are measured from its cells as drawn: a shortcode is its emoji's width.
    func testTableColumnsMeasureShortcodesAsEmoji() throws {
        func columns(_ cell: String) throws -> TableColumns? {
            let doc = try TextDocument(markdown: "| ico | name |\n| - | - |\n| \(cell) | smile |\n")
            guard case .tableRow(let row)? = doc.paragraphs.last?.kind else { return nil }
            return row.columns
        }
        XCTAssertEqual(try columns(":smiling_face_with_three_hearts:"), try columns("🥰"))
        XCTAssertNotEqual(try columns("`:smiling_face_with_three_hearts:`"), try columns("🥰"), "code keeps the name")
    }

    /// GitHub's shortcodes become emoji (names from Debian's emoji data, underscores and `+1`
    /// included); unknown names, times and code stay as written.
    func testEmojiShortcodes() throws {
        let doc = try TextDocument(markdown: "# :rocket: Release :tada:\n\n:bug: fixed, :white_check_mark: tested, :+1: **:fire:**\n\n`:tada:` :notanemoji: 10:30:00\n\n```\n:tada:\n```\n")
        XCTAssertEqual(doc.paragraphs.map(\.text), ["🚀 Release 🎉", "🐛 fixed, ✅ tested, 👍 🔥", ":tada: :notanemoji: 10:30:00", ":tada:"])
        let bold = doc.paragraphs[1].runs.first { $0.style.contains(.strong) }
        XCTAssertEqual(bold.map { Array(doc.paragraphs[1].text.utf8)[$0.range] }.map { String(decoding: $0, as: UTF8.self) }, "🔥", "runs move with the text")
    }

    /// Names GitHub knows that GitLab's table lacks: emoji of Unicode 12 and later by their CLDR
    /// names, and gemoji's own aliases.
    func testNewerAndGitHubOnlyEmojiShortcodes() throws {
        let doc = try TextDocument(markdown: ":smiling_face_with_tear: :heart_on_fire: :lungs: :hugs: :monocle_face: :fu: :fist_left: :red_haired_man:")
        XCTAssertEqual(doc.paragraphs.map(\.text), ["🥲 ❤️‍🔥 🫁 🤗 🧐 🖕 🤛 👨‍🦰"])
        // The table in use (read from the cache after a first run) is the one the files make.
        XCTAssertEqual(EmojiShortcodes.table, EmojiShortcodes.built())
        XCTAssertGreaterThan(EmojiShortcodes.table.count, 4_000)
    }

    /// A link around blocks (a logo, a name, a caption, as READMEs centre their sponsors) links
    /// the text of each: a block ending inside it kept the link closed for the rest.
    func testALinkAroundBlocksLinksTheTextOfEach() throws {
        let doc = try TextDocument(markdown: """
        <p align="center">
        <a href="https://example.com">
        <div><img src="https://example.com/logo.png" width="100" alt="Logo"></div>
        <b>Bold link</b>
        <div><sup>small link</sup></div>
        </a>
        </p>

        after
        """)
        XCTAssertEqual(doc.paragraphs.map(\.text), ["\u{FFFC}", "Bold link", "small link", "after"])
        for paragraph in doc.paragraphs[1...2] {
            XCTAssertEqual(paragraph.runs.filter { $0.link == "https://example.com" }.map(\.range), [0..<paragraph.text.utf8.count], paragraph.text)
        }
        XCTAssertEqual(doc.paragraphs[3].runs, [], "the link ends with its element")
    }

    /// `<picture>` shows its `<img>`, wherever the parser puts it.
    func testPictureShowsItsImage() throws {
        let doc = try TextDocument(markdown: """
        <p align="center">
          <picture>
            <source media="(prefers-color-scheme: dark)" srcset="https://example.com/dark.png">
            <img width="180" src="https://example.com/logo.png" alt="Depot logo">
          </picture>
        </p>

        after
        """)
        // The dark source and the `<img>`, each shown in its looks (see
        // `RobustnessTests.testImagesFollowTheLooksColourScheme`).
        XCTAssertEqual(doc.paragraphs.map(\.text), ["\u{FFFC}\u{FFFC}", "after"])
        XCTAssertEqual(doc.paragraphs[0].attachments.map(\.altText), ["Depot logo", "Depot logo"])
        XCTAssertEqual(doc.paragraphs[0].attachments.map(\.shownInDarkLook), [true, false])
        XCTAssertEqual(doc.paragraphs[0].attachments.map(\.size.width), [180, 180])
    }

    /// `<img width height>` sizes an image; one given alone keeps the aspect where it is known.
    func testHTMLImageSizes() throws {
        let doc = try TextDocument(markdown: #"<img src="https://example.com/a.png" width="200" height="50" alt="wide"> <img src="https://example.com/b.png" width="120px" alt="w">"#)
        XCTAssertEqual(doc.paragraphs[0].attachments.map(\.size), [CGSize(width: 200, height: 50), CGSize(width: 120, height: 90)])
    }

    /// Misnested and unclosed inline tags end where their own end tags are, and never trap.
    func testMisnestedInlineTagsAreTolerated() throws {
        let doc = try TextDocument(markdown: "*a <b>b* c</b> d <i>open to the end\n\n</b></i>stray ends")
        XCTAssertEqual(doc.paragraphs.map(\.text), ["a b c d open to the end", "stray ends"])
        XCTAssertEqual(doc.paragraphs[1].runs, [], "stray end tags style nothing")
    }

    /// The paragraph after a list is as far from it as the list is from the paragraph before;
    /// a nested list ends inside its item; a loose list's items are paragraph-spaced.
    func testListsEndWithAParagraphsSpace() throws {
        let doc = try TextDocument(markdown: "Before.\n\n- one\n  - nested\n- two\n\nAfter.\n\n- loose\n\n- items\n")
        XCTAssertEqual(doc.paragraphs.map(\.ending.list), [false, false, false, true, false, false, true])
        XCTAssertEqual(doc.paragraphs.suffix(2).map(\.ending.looseList), [true, true])
        let view = TextView(document: doc, viewportSize: CGSize(width: 400, height: 600))
        // Where each paragraph's text starts and ends, in the document.
        let text = (0..<doc.count).map { index -> (top: Double, bottom: Double) in
            let fragment = view.textLayoutManager.ensureLayout(forParagraphAt: index)
            return (fragment.layoutFragmentFrame.minY + fragment.textLineFragments.first!.typographicBounds.minY,
                    fragment.layoutFragmentFrame.minY + fragment.textLineFragments.last!.typographicBounds.maxY)
        }
        let before = text[1].top - text[0].bottom, after = text[4].top - text[3].bottom, between = text[2].top - text[1].bottom
        XCTAssertEqual(before, after, accuracy: 1, "gap before the list \(before), after it \(after)")
        XCTAssertLessThan(between, before, "items of a tight list are closer than blocks")
    }

    /// Markers as GitHub's stylesheet draws them: numbers decimal, lower-roman nested once,
    /// lower-alpha deeper (in Markdown and in HTML lists); bullets disc, circle, then square at
    /// every level below.
    func testNestedListsNumberAndBulletAsGitHub() throws {
        let doc = try TextDocument(markdown: """
        1. one
           1. sub
           2. sub
              1. deep
        - a
          - b
            - c
              - d

        <ol><li>x<ol start="4"><li>y</li></ol></li></ol>
        """)
        let markers = doc.paragraphs.map { paragraph -> String in
            if case .listItem(let marker?) = paragraph.kind { return marker }
            return ""
        }
        XCTAssertEqual(markers, ["1.", "i.", "ii.", "a.", "•", "◦", "▪", "▪", "1.", "iv."])
        XCTAssertEqual(ListMarker.roman(1994), "mcmxciv")
        XCTAssertEqual([1, 26, 27, 52, 703].map(ListMarker.alpha), ["a", "z", "aa", "az", "aaa"])
        XCTAssertEqual(ListMarker.text(ordered: true, number: 0, depth: 2), "0.", "below one stays decimal")
    }

    /// A paragraph of inline HTML that shows nothing (an anchor above a heading, as READMEs
    /// link their sections) takes no room, as the browser's empty paragraph takes none.
    func testAParagraphOfEmptyAnchorsTakesNoRoom() throws {
        let doc = try TextDocument(markdown: "Para.\n\n<a id=\"install\"></a>\n## Installing\n\n- <a name=\"x\"></a>\n")
        XCTAssertEqual(doc.paragraphs.map(\.text), ["Para.", "Installing", ""], "an item keeps its marker")
        // What shows takes its line: a code span of a space (found by the fuzzer: the section
        // index counted it, a whole read dropped it), a no-break space.
        for shown in ["`\n`", "&nbsp;", "<b> </b>&nbsp;"] {
            for sectionBytes in [0, 1] {
                let read = try TextDocument(markdownData: Data("A\n\n\(shown)\n\nB\n".utf8), sectionBytes: sectionBytes)
                XCTAssertEqual(read.count, 3, "\(shown), sections of \(sectionBytes)")
            }
        }
    }

    /// Numbers end a little before their item's text, right-aligned as a browser sets them: the
    /// full stops of 9 and 10 line up, and "10." keeps a gap before its text (it touched it).
    func testNumbersEndBeforeTheirText() throws {
        let doc = try TextDocument(markdown: "9. nine\n10. ten\n")
        let view = TextView(document: doc, viewportSize: CGSize(width: 300, height: 120))
        let frame = try view.renderFrame()
        var textStarts: [Double] = [], markerEnds: [Int] = []
        for index in 0..<2 {
            let fragment = view.textLayoutManager.ensureLayout(forParagraphAt: index)
            let start = fragment.layoutFragmentFrame.minX + fragment.caretRect(atOffset: 0)!.minX
            let line = fragment.textLineFragments[0].typographicBounds.offsetBy(dx: fragment.layoutFragmentFrame.minX, dy: fragment.layoutFragmentFrame.minY)
            // The rightmost ink left of the text: the marker's full stop.
            var end = 0
            for y in Int(line.minY)..<Int(line.maxY) { for x in 0..<Int(start) where frame.pixel(x: x, y: y).red < 160 { end = max(end, x) } }
            textStarts.append(start)
            markerEnds.append(end)
        }
        XCTAssertEqual(textStarts[0], textStarts[1], accuracy: 0.5)
        XCTAssertEqual(markerEnds[0], markerEnds[1], "the full stops line up: \(markerEnds)")
        XCTAssertGreaterThanOrEqual(textStarts[1] - Double(markerEnds[1]), 4, "a gap before the text: \(textStarts), \(markerEnds)")
    }

    /// An item that starts with a fence, a heading or a table shows its marker beside the block's
    /// first line (it had none), and a quote inside an item has its bar at the item's text, its
    /// marker before the bar (the bar stood at the page's margin, the marker after it).
    func testBlocksThatStartItemsKeepTheirMarkers() throws {
        let doc = try TextDocument(markdown: "- ```\n  code\n  ```\n- ## Title\n- | a |\n  |---|\n  | 1 |\n- > quoted\n")
        let view = TextView(document: doc, viewportSize: CGSize(width: 400, height: 400))
        let frame = try view.renderFrame()
        let theme = Theme()
        /// Dark ink in a column range over a paragraph's first line.
        func ink(paragraph index: Int, x: Range<Int>) -> Bool {
            let fragment = view.textLayoutManager.ensureLayout(forParagraphAt: index)
            let line = fragment.textLineFragments[0].typographicBounds.offsetBy(dx: fragment.layoutFragmentFrame.minX, dy: fragment.layoutFragmentFrame.minY)
            for y in Int(line.minY)..<Int(line.maxY) { for x in x where frame.pixel(x: x, y: y).red < 140 { return true } }
            return false
        }
        let margin = Int(theme.insets.left), text = Int(theme.insets.left + theme.listIndent)
        let kinds = doc.paragraphs.map(\.kind.name)
        XCTAssertEqual(kinds, ["code", "heading2", "table-header", "table-row", "list-item"])
        for index in [0, 1, 2, 4] { XCTAssertTrue(ink(paragraph: index, x: margin..<text - 4), "a marker beside \(kinds[index])") }
        XCTAssertFalse(ink(paragraph: 3, x: margin..<text - 4), "a table's second row has none")
        // The quote's bar: at the item's text, not at the margin.
        let fragment = view.textLayoutManager.ensureLayout(forParagraphAt: 4)
        let y = Int(fragment.layoutFragmentFrame.minY + 4)
        let bar = (0..<200).filter { frame.pixel(x: $0, y: y) != frame.pixel(x: 399, y: y) }.first
        XCTAssertEqual(bar, text, "the bar stands where the item's text starts")
    }
}
