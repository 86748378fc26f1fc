import Foundation
import XCTest
@testable import TextReel
@testable import TextReelMarkdown

/// GitHub's math syntax typeset as formulas: inline on the text's baseline, display blocks on
/// their own, the TeX source kept as the attachment's text; what the engine cannot draw is its
/// source in a code span, never text that lost characters.
final class MathTests: XCTestCase {
    /// The paragraphs as laid out: formulas are typeset then, not when the document is read.
    private func typeset(_ document: TextDocument) -> [TextParagraph] {
        document.paragraphs.map { document.kinds.prepared($0, inDarkLook: false) ?? $0 }
    }

    private func formulas(_ paragraph: TextParagraph) -> [String] {
        paragraph.attachments.filter { $0.scheme == "math" }.map(\.altText)
    }

    func testFormulasAreReadFromTheSourceAsWritten() throws {
        let markdown = """
        Inline $\\frac{a_1}{b_2} \\cdot x_{i}$, prices like $5 and $10, `$code$` and \\$escaped\\$.

        $$\\int_0^1 x^2\\,dx$$

        ```math
        \\sqrt{x^2 + y^2}
        ```
        """
        let document = try TextDocument(markdown: markdown)
        XCTAssertEqual(formulas(document.paragraphs[0]), ["\\frac{a_1}{b_2} \\cdot x_{i}"], "backslashes and underscores as written")
        let text = document.paragraphs[0].text
        XCTAssertTrue(text.contains("prices like $5 and $10"), text)
        XCTAssertTrue(text.contains("$code$") && text.contains("$escaped$"), text)
        // A display formula alone in its paragraph is centred, as GitHub sets it.
        for k in [1, 2] {
            XCTAssertEqual(document.paragraphs[k].kind, .body)
            XCTAssertEqual(document.paragraphs[k].text, TextAttachment.character)
            guard case .paragraphStyle(let style)? = document.paragraphs[k].attributes(at: 0)[NSAttributedString.Key.paragraphStyle.rawValue] else {
                return XCTFail("paragraph \(k) has no paragraph style")
            }
            XCTAssertEqual(style.alignment, .center)
        }
        XCTAssertEqual(formulas(document.paragraphs[1]), ["\\int_0^1 x^2\\,dx"])
        XCTAssertEqual(formulas(document.paragraphs[2]), ["\\sqrt{x^2 + y^2}"])
        XCTAssertTrue(document.warnings.isEmpty, "\(document.warnings)")
        // The same in sections as whole: a section with "$" is read when the file is opened.
        let sections = try TextDocument(markdownData: Data(markdown.utf8), sectionBytes: 1)
        XCTAssertEqual(Array(sections.paragraphs), Array(document.paragraphs))
    }

    /// A formula reaches below the baseline by its depth, and is drawn: ink inside its box.
    func testAFormulaSitsOnTheBaselineAndIsDrawn() throws {
        let document = try TextDocument(markdown: "Sum: $\\sum_{k=1}^{n} k$ done.")
        let formula = try XCTUnwrap(typeset(document)[0].attachments.first)
        XCTAssertGreaterThan(formula.baselineDepth, 0)
        let view = TextView(document: document, viewportSize: CGSize(width: 500, height: 140))
        let frame = try view.renderFrame()
        let fragment = view.textLayoutManager.ensureLayout(forParagraphAt: 0)
        let box = try XCTUnwrap(fragment.frameForTextAttachment(id: formula.id)).offsetBy(dx: 0, dy: fragment.layoutFragmentFrame.minY)
        let baseline = fragment.layoutFragmentFrame.minY + fragment.textLineFragments[0].glyphOrigin.y
        XCTAssertEqual(box.maxY, baseline + formula.baselineDepth, accuracy: 0.5, "the depth hangs below the baseline")
        var ink = 0
        for y in Int(box.minY)..<Int(box.maxY) { for x in Int(box.minX)..<Int(box.maxX) where frame.pixel(x: x, y: y).red < 128 { ink += 1 } }
        XCTAssertGreaterThan(ink, 40, "the formula is drawn")
    }

    /// TeX the engine lacks is drawn as its source, whole, in a code chip as wide as it, with a
    /// warning in the pass that first lays it out; the text keeps the formula's one character.
    func testWhatTheEngineCannotDrawIsItsSource() throws {
        let document = try TextDocument(markdown: "A diagram $\\begin{tikzcd}a & b \\\\ c & d\\end{tikzcd}$ here.")
        XCTAssertEqual(document.paragraphs[0].text, "A diagram \u{FFFC} here.")
        XCTAssertEqual(document.warnings, [], "known only when typeset")
        let view = TextView(document: document, viewportSize: CGSize(width: 600, height: 120))
        let fragment = try XCTUnwrap(try view.layoutPass().fragments.first)
        XCTAssertEqual(fragment.warnings.count, 1)
        XCTAssertTrue(fragment.warnings[0].hasPrefix("math: TeX the engine cannot draw"), fragment.warnings[0])
        let source = "$\\begin{tikzcd}a & b \\\\ c & d\\end{tikzcd}$"
        let formula = try XCTUnwrap(view.textLayoutManager.ensureLayout(forParagraphAt: 0).paragraph.attachments.first)
        XCTAssertEqual(formula.parameters[MathAttachment.sourceKey], source)
        XCTAssertEqual(formula.size.width, (Double(source.count) * 0.602 * 13.6 + 6).rounded(.up), accuracy: 0.5)
        // A formula too large to typeset is known when read: its source is text, with a warning.
        let large = try TextDocument(markdown: "$" + String(repeating: "x+", count: 2_100) + "x$")
        XCTAssertTrue(large.paragraphs[0].runs.contains { $0.style.contains(.code) })
        XCTAssertTrue(large.warnings.first?.hasPrefix("<markdown>:1:1: warning: math: a formula of 4201 bytes") ?? false, "\(large.warnings)")
    }

    /// Formulas are typeset when their paragraph is first laid out, like everything else: 300 in
    /// a paragraph far below the first frame cost nothing until it is shown (they took 3.6 s
    /// before the first frame).
    func testFormulasAreTypesetWhenTheirParagraphIsLaidOut() throws {
        let body = (1...60).map { "Paragraph \($0) says enough to fill its line." }.joined(separator: "\n\n")
        let formulas = (1...300).map { "$x_{\($0)}$" }.joined(separator: " ")
        let document = try TextDocument(markdown: "$a^2$ first.\n\n" + body + "\n\n" + formulas + "\n")
        func typeset(_ attachment: TextAttachment?) -> Bool { attachment?.parameters[MathAttachment.pathKey] != nil }
        let view = TextView(document: document, viewportSize: CGSize(width: 500, height: 300))
        _ = try view.renderFrame()
        let manager = view.textLayoutManager
        XCTAssertTrue(typeset(manager.ensureLayout(forParagraphAt: 0).paragraph.attachments.first), "the first frame's formula")
        XCTAssertFalse(document.paragraphs.contains { $0.attachments.contains(where: typeset) }, "the document holds formulas to typeset")
        let last = manager.ensureLayout(forParagraphAt: manager.paragraphCount - 1)
        XCTAssertEqual(last.paragraph.attachments.count, 300)
        XCTAssertTrue(last.paragraph.attachments.allSatisfy(typeset))
        XCTAssertGreaterThan(last.layoutFragmentFrame.height, 100, "laid out at their typeset sizes: several lines")
    }

    /// The environments MathJax draws and mathtext lacks (matrices, cases, aligned equations,
    /// arrays with their rules) are laid out as grids of cells between stretched delimiters: as
    /// tall as their rows, drawn, and never their source.
    func testEnvironmentsAreLaidOutAsGrids() throws {
        let document = try TextDocument(markdown: """
        Inline $x$ and $\\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\end{bmatrix}$.

        $$R = \\begin{pmatrix} \\cos\\theta & -\\sin\\theta \\\\ \\sin\\theta & \\cos\\theta \\end{pmatrix}$$

        $$|x| = \\begin{cases} x & \\text{if } x \\ge 0 \\\\ -x & \\text{otherwise} \\end{cases}$$

        $$\\begin{aligned} f(x) &= (x+1)^2 \\\\ &= x^2 + 2x + 1 \\\\ &= 1 \\end{aligned}$$

        $$\\left( \\begin{array}{l|r} \\hline a & bb \\\\ ccc & d \\\\ \\hline \\end{array} \\right) \\begin{smallmatrix} 1 \\end{smallmatrix}$$
        """)
        XCTAssertEqual(document.warnings, [])
        let paragraphs = typeset(document)
        XCTAssertEqual(paragraphs.flatMap(\.attachments).compactMap(\.problem), [])
        let line = paragraphs[0].attachments[0].size.height
        let matrix = paragraphs[0].attachments[1].size
        XCTAssertGreaterThan(matrix.height, line * 1.8, "two rows: \(matrix) against \(line)")
        for index in 1...4 {
            let paragraph = paragraphs[index]
            XCTAssertFalse(paragraph.text.contains("begin"), paragraph.text)
            XCTAssertEqual(paragraph.attachments.count, 1)
        }
        let aligned = paragraphs[3].attachments[0].size, rotation = paragraphs[1].attachments[0].size
        XCTAssertGreaterThan(aligned.height, rotation.height * 1.3, "three rows against two: \(aligned), \(rotation)")
        XCTAssertGreaterThan(rotation.width, matrix.width, "the rotation has its 'R =' before the matrix")
        let view = TextView(document: document, viewportSize: CGSize(width: 500, height: 400))
        let frame = try view.renderFrame()
        let fragment = view.textLayoutManager.ensureLayout(forParagraphAt: 2)
        let formula = document.paragraphs[2].attachments[0]
        let box = try XCTUnwrap(fragment.frameForTextAttachment(id: formula.id)).offsetBy(dx: 0, dy: fragment.layoutFragmentFrame.minY)
        // The brace of the cases spans its rows: ink in the box's first columns, top and bottom.
        func ink(_ rows: Range<Int>) -> Int {
            var count = 0
            for y in rows { for x in Int(box.minX) + 40..<Int(box.minX) + 60 where frame.pixel(x: x, y: y).red < 128 { count += 1 } }
            return count
        }
        let top = Int(box.minY), bottom = Int(box.maxY)
        XCTAssertGreaterThan(ink(top..<top + 8) + ink(bottom - 8..<bottom), 0, "ink at the top and bottom of \(box)")
    }

    /// A display formula over lines inside a quote is typeset without the quote's markers that
    /// begin its lines (they were drawn as "> a² + b² >"), and stays in the quote.
    func testAFormulaInAQuoteLeavesTheQuoteMarkersOut() throws {
        let quoted = try TextDocument(markdown: "> Text:\n>\n> $$\n> a^2 + b^2\n> $$\n"), plain = try TextDocument(markdown: "$$\na^2 + b^2\n$$\n")
        XCTAssertEqual(quoted.paragraphs.map(\.quoteDepth), [1, 1])
        XCTAssertEqual(typeset(quoted)[1].attachments.first?.size, typeset(plain)[0].attachments.first?.size, "no '>' typeset")
        XCTAssertEqual(MathTypesetter.withoutQuoteMarkers(" > >\ta^2"), "a^2")
    }

    /// MathJax's spellings that mathtext lacks (GitHub's documents use them) are typeset, not
    /// drawn as source; a display formula's fraction is full size (taller than inline).
    func testMathJaxSpellingsAreTypeset() throws {
        let document = try TextDocument(markdown: """
        Bounds $a \\le b \\ge c$, $\\text{if } x \\lt 0$, $\\lVert v \\rVert$, $n \\pmod{2}$, $\\big( x \\big)$, $\\frac{1}{2}$.

        $$\\frac{1}{2}$$
        """)
        XCTAssertEqual(document.warnings, [])
        XCTAssertEqual(formulas(document.paragraphs[0]).count, 6)
        let inline = document.paragraphs[0].attachments.last!, display = document.paragraphs[1].attachments[0]
        XCTAssertGreaterThan(display.size.height, inline.size.height * 1.3, "display style: \(display.size) against \(inline.size)")
    }

    /// MathJax also reads arguments without braces (`\frac ab`, `\mathcal O`, `\sqrt 2`), infix
    /// `\choose`, colours, boxes and braces over or under; each is typeset as mathtext can,
    /// not drawn as source, and an unbraced fraction is the braced one.
    func testMathJaxShorthandsAreTypeset() throws {
        let document = try TextDocument(markdown: """
        $\\frac ab$, $\\mathcal O(n)$, $\\tfrac12$, $a \\pmod m$, $\\boxed{x}$, ${n \\choose k}$, $\\overbrace{a+b}^{n}$, \
        $\\color{red}{x}$, $\\text{f("a")}$, $x_ {ij}$, $\\sqrt 2$, $a \\\\ b$, $\\frac{a}{b}$.

        $\\left[ x \\right]$ $[ x ]$
        """)
        XCTAssertEqual(document.warnings, [])
        let paragraphs = typeset(document)
        XCTAssertEqual(paragraphs.flatMap(\.attachments).compactMap(\.problem), [])
        let sizes = paragraphs[0].attachments.map(\.size)
        XCTAssertEqual(sizes.count, 13)
        XCTAssertEqual(sizes.first, sizes.last, "\\frac ab is \\frac{a}{b}")
        let brackets = paragraphs[1].attachments.map(\.size)
        XCTAssertEqual(brackets.first, brackets.last, "brackets around nothing tall are the text's size (mathtext drew them smaller)")
    }

    /// What GitHub's own documentation and lecture notes write: infix `\over` (the quadratic
    /// formula of GitHub's math docs), `\atop`, `\newline` in `aligned`, `\text` with math
    /// inside, labelled arrows, `\tag`, `\cancel`, `align`, `\operatorname`, `\mathbb`: each is
    /// typeset, none drawn as source; `{a \over b}` is `\frac{a}{b}`.
    func testMathJaxInfixAndEnvironmentsAreTypeset() throws {
        let document = try TextDocument(markdown: """
        $x = {-b \\pm \\sqrt{b^2-4ac} \\over 2a}$, $x = \\frac{-b \\pm \\sqrt{b^2-4ac}}{2a}$, ${n \\atop k}$, \
        $a \\xrightarrow{f} b$, $\\cancel{x} + y$, $\\operatorname{argmax}_x f(x)$, $\\mathbb{R}$.

        $$\\begin{aligned} a &= b \\newline c &= d \\end{aligned}$$

        $$E = mc^2 \\tag{1}$$

        $$\\begin{align} a &= b \\\\ c &= d \\end{align}$$

        $$\\text{if $x > 0$ then } y$$
        """)
        XCTAssertEqual(document.warnings, [])
        let paragraphs = typeset(document)
        XCTAssertEqual(paragraphs.flatMap(\.attachments).compactMap(\.problem), [])
        let inline = paragraphs[0].attachments.map(\.size)
        XCTAssertEqual(inline.count, 7)
        XCTAssertEqual(inline[0], inline[1], "{a \\over b} is \\frac{a}{b}")
        let aligned = paragraphs[1].attachments[0].size, single = paragraphs[2].attachments[0].size
        XCTAssertGreaterThan(aligned.height, single.height * 1.5, "\\newline breaks the aligned rows: \(aligned) against \(single)")
    }

    /// A formula wider than the column keeps its size, cut at the column's edge as GitHub shows
    /// one it has not scrolled, and the pass says so; shrunk to fit, 60 terms were a sliver.
    func testAFormulaWiderThanTheColumnIsCutAndSaid() throws {
        let terms = (1...60).map { "x_{\($0)}" }.joined(separator: " + ")
        let document = try TextDocument(markdown: "$$\(terms)$$\n\nAfter.\n")
        let natural = try XCTUnwrap(typeset(document)[0].attachments.first?.size)
        let view = TextView(document: document, viewportSize: CGSize(width: 400, height: 300))
        let pass = try view.layoutPass()
        let fragment = try XCTUnwrap(pass.fragments.first)
        XCTAssertEqual(fragment.attachments.first?.frame.width ?? 0, natural.width, accuracy: 0.5, "not shrunk")
        XCTAssertGreaterThan(natural.height, 10, "not a sliver")
        XCTAssertTrue(fragment.warnings.contains { $0.hasPrefix("math cut: a formula runs") }, "\(fragment.warnings)")
        XCTAssertNotNil(fragment.clipped)
        // A formula that fits says nothing.
        let narrow = TextView(document: try TextDocument(markdown: "$$x^2$$\n"), viewportSize: CGSize(width: 400, height: 300))
        XCTAssertEqual(try narrow.layoutPass().fragments.first?.warnings, [])
    }

    /// `$$…$$` amid a paragraph's text is a display of its own, as MathJax sets it: the text
    /// before and after are paragraphs around the centred formula (it was set on the text line);
    /// in a list item, all three stay in the item. Sections read lazily give the same paragraphs.
    func testADisplayFormulaAmidTextIsADisplay() throws {
        let source = "Text before $$a \\over b$$ after **the** formula.\n\n- item with $$z^2$$ inside\n"
        let document = try TextDocument(markdown: source)
        XCTAssertEqual(document.paragraphs.map(\.text), ["Text before", "\u{FFFC}", "after the formula.", "item with", "\u{FFFC}", "inside"])
        XCTAssertEqual(document.paragraphs[1].attachments.first?.altText, "a \\over b")
        XCTAssertEqual(document.paragraphs[1].attachments.first?.parameters[MathAttachment.displayKey], "1")
        XCTAssertTrue(document.paragraphs[2].runs.contains(where: { $0.style.contains(.strong) && $0.range == 6..<9 }), "runs move with their text")
        let view = TextView(document: document, viewportSize: CGSize(width: 500, height: 400))
        let formula = view.textLayoutManager.ensureLayout(forParagraphAt: 1)
        let box = try XCTUnwrap(formula.attachmentFrames.first?.frame)
        XCTAssertEqual(box.midX, formula.layoutFragmentFrame.width / 2, accuracy: 2, "centred")
        if case .listItem(let marker?) = document.paragraphs[3].kind { XCTAssertEqual(marker, "•") } else { XCTFail("\(document.paragraphs[3].kind)") }
        for k in 4...5 {
            guard case .listItem(nil) = document.paragraphs[k].kind else { return XCTFail("a continuation of the item, no bullet: \(document.paragraphs[k].kind)") }
        }
        let whole = try TextDocument(markdownData: Data(source.utf8), sectionBytes: 0)
        XCTAssertEqual(Array(try TextDocument(markdownData: Data(source.utf8), sectionBytes: 1).paragraphs), Array(whole.paragraphs))
    }

    /// A fence with a blank line in a file with "$" (found by the fuzzer: the scan for formulas
    /// never left the blank line) reads, and its "$" stays code.
    func testAFencedBlockWithABlankLineIsLeftAlone() throws {
        let document = try TextDocument(markdown: "# T |$b |\n\n```\n$x$\n\n$y$\n```\n\nafter $z$\n")
        XCTAssertEqual(document.paragraphs[1].text, "$x$\n\n$y$")
        XCTAssertEqual(formulas(document.paragraphs[2]), ["z"])
    }

    /// "```m`" opens no fence (a backtick fence's info holds no backtick), so the formula after
    /// it is one, read whole or in sections (found by the fuzzer).
    func testABacktickInAFenceInfoOpensNoFence() throws {
        // Also: "```\" inside a fence closes nothing (a closing fence holds only spaces after it),
        // and no formula is taken from "```$$`$$", which would leave a fence (found by the fuzzer).
        for (source, paragraph) in [("```m`\n\n$i$", 1), ("```\n```\\\n```\n\n$i$", 1), ("```$$`$$\n\nf $i$", 1)] {
            let whole = try TextDocument(markdownData: Data(source.utf8), sectionBytes: 0)
            XCTAssertEqual(formulas(whole.paragraphs[paragraph]), ["i"], source)
            XCTAssertEqual(Array(try TextDocument(markdownData: Data(source.utf8), sectionBytes: 1).paragraphs), Array(whole.paragraphs), source)
        }
    }

    /// A fence the formula scan did not see as one (indented in a list item) shows its `$` as
    /// written, never a placeholder.
    func testCodeTheScanTookForTextKeepsItsDollars() throws {
        let document = try TextDocument(markdown: "- item\n\n      ```\n      $x$ stays\n      ```\n\n  and `$y$` too\n")
        XCTAssertTrue(document.paragraphs.contains { $0.text.contains("$x$ stays") }, "\(document.paragraphs.map(\.text))")
        XCTAssertTrue(document.paragraphs.contains { $0.text.contains("$y$") })
        XCTAssertFalse(document.paragraphs.contains { $0.text.unicodeScalars.contains { (0xE000...0xF8FF).contains($0.value) } })
    }

    /// Raw HTML, a link's or an image's destination and title are not Markdown text: their
    /// `$…$` shows (or points) as written, never as a formula's marker (found by the fuzzer: a
    /// processing instruction's marker differed between a whole read and one in sections, and an
    /// HTML block drew its formulas as boxes).
    func testHTMLAndDestinationsKeepTheirDollars() throws {
        let markdown = """
        Inline $x^2$ first.

        <div align="center">Costs $a$ and $b$ here</div>

        A <span title="$t$">tag</span>, [a link](https://example.com/$q$ "is $r$") and ![](drawing:d$s$).

        <?$u$
        """
        let document = try TextDocument(markdown: markdown)
        let texts = document.paragraphs.map(\.text)
        XCTAssertEqual(formulas(document.paragraphs[0]), ["x^2"], "formulas in text are still formulas")
        XCTAssertTrue(texts.contains { $0.contains("Costs $a$ and $b$ here") }, "\(texts)")
        XCTAssertFalse(texts.contains { $0.contains("$u$") }, "a processing instruction is a comment to a browser, hidden: \(texts)")
        XCTAssertFalse(texts.contains { $0.unicodeScalars.contains { (0xE000...0xF8FF).contains($0.value) } }, "\(texts)")
        XCTAssertEqual(document.paragraphs[2].runs.compactMap(\.link), ["https://example.com/$q$"])
        XCTAssertEqual(document.paragraphs[2].attachments.first?.url, "drawing:d$s$")
    }

    /// A display formula whose lines cmark-gfm cuts into a table's rows leaves the next block's
    /// text whole (found by the fuzzer: what the cells left of its placeholder ate the start of
    /// the next paragraph in a whole read, not in one read in sections).
    func testAFormulaCutIntoTableRowsLeavesTheNextBlockWhole() throws {
        for (markdown, last) in [("$\n:-\n$$\n$$\n\n`", "`"), ("$\n:-\n$$\n$$\n\nAfter the table.\n", "After the table.")] {
            for sections in [0, 1, TextDocument.sectionBytes] {
                let document = try TextDocument(markdownData: Data(markdown.utf8), sectionBytes: sections)
                XCTAssertEqual(document.paragraphs.last?.text, last, "sections of \(sections): \(document.paragraphs.map(\.text))")
            }
        }
    }

    /// A line of spaces (or a CRLF file's empty line) is blank: display math does not run past
    /// it, read whole or in sections (found by the fuzzer: "$$", " ", "$$" was one formula read
    /// whole and two paragraphs in sections).
    func testDisplayMathStopsAtALineOfSpaces() throws {
        for markdown in ["$$\n \n$$", "$$\n\t \n$$\n", "$$\r\n\r\n$$\r\n"] {
            for sections in [0, 1] {
                let document = try TextDocument(markdownData: Data(markdown.utf8), sectionBytes: sections)
                XCTAssertEqual(document.paragraphs.map(\.text), ["$$", "$$"], "\(markdown.debugDescription), sections of \(sections)")
            }
        }
    }

    /// Display math opened by "$$" and a line break keeps the file's line numbers (found by the
    /// fuzzer: the marker took the break, and every block after it was placed a line up).
    func testDisplayMathOverLinesKeepsLineNumbers() throws {
        for source in ["$$\n$$\n\n`", "$$\nx^2\n+ y\n$$\n\nafter\n"] {
            let whole = try TextDocument(markdownData: Data(source.utf8), sectionBytes: 0)
            XCTAssertEqual(whole.paragraphs.last?.sourceLine, source.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0 == "`" || $0 == "after" }.map { $0 + 1 })
            XCTAssertEqual(Array(try TextDocument(markdownData: Data(source.utf8), sectionBytes: 1).paragraphs), Array(whole.paragraphs))
        }
        XCTAssertEqual(try TextDocument(markdown: "$$\nx^2\n+ y\n$$").paragraphs[0].attachments.first?.altText, "\nx^2\n+ y\n")
    }

    /// `\color{c}{x}`, `\textcolor{c}{x}` and the switch `\color{c}` (to the end of its group)
    /// tint their glyphs as MathJax does, and move nothing: the formula is as wide as without them.
    func testColoursTintTheirGlyphs() throws {
        let markdown = "$a + \\color{red}{b} + c$ and $a + b + c$ and $x = \\textcolor{#0000ff}{y}$ and $p \\color{green} q$"
        let document = try TextDocument(markdown: markdown)
        let formulas = typeset(document)[0].attachments.filter { $0.scheme == "math" }
        XCTAssertEqual(formulas.count, 4)
        XCTAssertEqual(formulas[0].size.width, formulas[1].size.width, "a colour only tints")
        XCTAssertNil(formulas[1].parameters[MathAttachment.coloredKey], "nothing coloured")
        XCTAssertTrue(formulas[0].parameters[MathAttachment.coloredKey]?.hasPrefix("255 0 0 M") == true)
        XCTAssertTrue(formulas[2].parameters[MathAttachment.coloredKey]?.hasPrefix("0 0 255 M") == true)
        XCTAssertTrue(formulas[3].parameters[MathAttachment.coloredKey]?.hasPrefix("0 128 0 M") == true)
        // Drawn: red ink in the first formula's box, none in the second's.
        let view = TextView(document: document, viewportSize: CGSize(width: 700, height: 100))
        let frame = try view.renderFrame()
        let fragment = view.textLayoutManager.ensureLayout(forParagraphAt: 0)
        func redInk(_ formula: TextAttachment) throws -> Int {
            let box = try XCTUnwrap(fragment.frameForTextAttachment(id: formula.id)).offsetBy(dx: 0, dy: fragment.layoutFragmentFrame.minY)
            var count = 0
            for y in Int(box.minY)..<Int(box.maxY) { for x in Int(box.minX)..<Int(box.maxX) {
                let p = frame.pixel(x: x, y: y)
                if p.red > 200 && p.green < 120 && p.blue < 120 { count += 1 }
            } }
            return count
        }
        XCTAssertGreaterThan(try redInk(formulas[0]), 5, "the red b")
        XCTAssertEqual(try redInk(formulas[1]), 0)
    }
}
