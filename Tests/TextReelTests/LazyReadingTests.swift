import XCTest
@testable import TextReel
@testable import TextReelMarkdown

/// A document read section by section, each parsed when first needed, must be exactly the
/// document of one whole parse: paragraphs, ids, warnings, errors, heading and attachment search.
final class LazyReadingTests: XCTestCase {
    /// Reads `text` whole and in sections of each size; fails on any difference.
    private func assertSameAsWhole(_ text: String, sizes: [Int] = [1, 7, 100, 4000], _ what: String,
                                   file: StaticString = #filePath, line: UInt = #line) {
        let data = Data(text.utf8)
        let whole = Result { try TextDocument(markdownData: data, sectionBytes: 0) }
        // cmark-gfm's table extension gives blocks near a table wrong lines in a whole parse (a
        // line far above, or none): around tables, messages are compared without their place.
        // A table may have no "|" (the fuzzer's: a delimiter row of "-" and a vertical tab).
        let hasTable = text.contains("|") || ((try? whole.get())?.paragraphs.contains { if case .tableRow = $0.kind { true } else { false } } ?? false)
        let placed = { (message: String) in
            hasTable ? message.replacingOccurrences(of: #"^<markdown>(:\d+)*:"#, with: "<markdown>:", options: .regularExpression)
                .replacingOccurrences(of: #"first at [\d:]+"#, with: "first at", options: .regularExpression) : message
        }
        for size in sizes {
            let lazy = Result { try TextDocument(markdownData: data, sectionBytes: size) }
            switch (whole, lazy) {
            case (.success(let a), .success(let b)):
                if let at = Array(zip(a.paragraphs, b.paragraphs)).firstIndex(where: { $0 != $1 }) ?? (a.count != b.count ? min(a.count, b.count) : nil) {
                    let show = { (d: TextDocument) in at < d.count ? "\(d.paragraphs[at].kind.name) '\(d.paragraphs[at].text.prefix(60))' line \(d.paragraphs[at].sourceLine)" : "none" }
                    XCTFail("\(what.prefix(300)), sections of \(size): paragraph \(at) of \(a.count)/\(b.count): whole \(show(a)), sections \(show(b))", file: file, line: line)
                    return
                }
                let (wa, wb) = (a.warnings.map(placed), b.warnings.map(placed))
                if let at = wa.indices.first(where: { $0 >= wb.count || wa[$0] != wb[$0] }) ?? (wa.count != wb.count ? wa.count : nil) {
                    XCTFail("\(what.prefix(300)), sections of \(size): warning \(at) of \(wa.count)/\(wb.count): whole \(at < wa.count ? wa[at] : "none"), sections \(at < wb.count ? wb[at] : "none")", file: file, line: line)
                }
                // Searches on a document whose sections are not parsed yet (a search parses only
                // those it must).
                let unread = try! TextDocument(markdownData: data, sectionBytes: size)
                let fresh = { unread }
                for paragraph in a.paragraphs {
                    if case .heading = paragraph.kind {
                        XCTAssertEqual(a.index(ofHeading: paragraph.text), fresh().index(ofHeading: paragraph.text),
                                       "\(what): heading '\(paragraph.text)'", file: file, line: line)
                    }
                    for attachment in paragraph.attachments {
                        XCTAssertEqual(a.index(ofAttachment: attachment.id), fresh().index(ofAttachment: attachment.id), file: file, line: line)
                    }
                    XCTAssertEqual(b.index(of: paragraph.id), a.index(of: paragraph.id), file: file, line: line)
                }
            case (.failure(let a), .failure(let b)):
                XCTAssertEqual(placed("\(a)"), placed("\(b)"), "\(what), sections of \(size)", file: file, line: line)
            default:
                XCTFail("\(what), sections of \(size): whole \(whole), sections \(lazy)", file: file, line: line)
            }
        }
    }

    func testFixturesAndTheFuzzCorpusReadAlike() throws {
        var folders = [Paths.fixtures.appendingPathComponent("documents"), Paths.fixtures.appendingPathComponent("fuzz/FuzzMarkdown"),
                       Paths.fixtures.appendingPathComponent("fuzz/FuzzScriptOnDocument")]
        // A fuzzing run's grown corpus, when one is on this machine.
        folders.append(Paths.root.appendingPathComponent("Output/fuzz/FuzzMarkdown"))
        var files = 0
        for folder in folders {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.sorted() ?? [] {
                let url = folder.appendingPathComponent(name)
                guard let data = try? Data(contentsOf: url), data.count < 1 << 20 else { continue }
                assertSameAsWhole(String(decoding: data, as: UTF8.self), sizes: [1, 50], name)
                files += 1
            }
        }
        XCTAssertGreaterThan(files, 3)
    }

    /// Random documents made of every construct the index treats specially, side by side.
    func testRandomDocumentsReadAlike() {
        let pieces = [
            "Plain text paragraph.\n", "Two lines\nof a paragraph.\n", "# Heading\n", "## Heading *styled*\n", "### Closed ###\n",
            "#hashtag is text\n", "Setext\n===\n", "Setext two\n---\n", "---\n", "***\n", "_ _ _\n", "- item\n", "- item\n  more\n",
            "1. one\n", "2. two\n", "1. again\n", "1) paren\n", "* star\n", "+ plus\n", "> quote\n", "> quote\ncontinued lazily\n",
            "```\ncode\n\n# not a heading\n```\n", "~~~ swift\nlet x = 1\n~~~\n", "  ```\n  indented fence\n  ```\n",
            "```mermaid\ngraph LR\n  A --> B\n```\n", "~~~ Mermaid\npie\n~~~\n",
            "    indented code\n", "| a | b |\n| - | - |\n| 1 | 2 |\n", "a | b\n:-:|---\n", "<div>\nhtml\n</div>\n",
            "<!-- comment\n\nstill comment -->\n", "[ref]: https://example.org\n", "Uses [ref].\n", "A ![](video:v1?duration=3) video.\n",
            "![](drawing:d1?size=100x50)\n", "![](control:c1?kind=toggle)\n", "![](control:c2?kind=slider&size=80x20)\n",
            "![](video:)\n", "![](drawing:?size=10x10)\n", "![alt *x*](missing.png)\n", "![](video:v1)\n", "![](video:v2?nope=1)\n",
            "Text with `code ![](video:zz)` span.\n", "Escaped \\![](video:esc) one.\n", "*a **b ~~c~~ b** a*\n", "&amp; &nGt; &#x1F600;\n",
            "Line with trailing spaces  \nand a hard break.\n", "Windows line\r\nending.\r\n", "lone\rcarriage\n", "-\n", "2024. A year.\n",
            "===\n", "Text\n    lazy indented\n", "\t tabbed\n", "- [ ] task\n- [x] done\n", "www.example.com autolink\n",
            "Some \u{05E9}\u{05DC}\u{05D5}\u{05DD} and 文本.\n", "", "\n", "\n\n",
            // Found by the fuzzer: cmark-gfm takes a vertical tab or form feed after "-" for a space.
            "-\u{0B}\n", "text\n-\u{0C}\n", "*\u{0B}x\n", "1.\u{0B}\n", "1.\u{0B}b\n",
            // Found by reading cmark-gfm: "= =" is no underline, a BOM is skipped at the start of
            // a parse, a CR in alt text ends a line, "-:" under one column makes a table.
            "a\n= =\nb\n", "\u{FEFF}```\ncode\n```\n", "\u{FEFF}# Intro\n", "![a\r\rb](video:x)\n", "a\n-:\n=\nc\n",
            // And that an image inside another's alt text claims its id though it is dropped.
            "![a ![b](control:c1?kind=toggle) c](video:v9)\n",
        ]
        var random = SplitMix(seed: 7)
        for round in 0..<300 {
            var text = ""
            for _ in 0..<(1 + Int(random.next() % 14)) {
                text += pieces[Int(random.next() % UInt64(pieces.count))]
                if random.next() % 3 != 0 { text += "\n" }
            }
            assertSameAsWhole(text, "random document \(round):\n\(text)")
        }
    }

    func testGeneratedDocumentsAreReadLazily() throws {
        let markdown = TextDocument.generatedMarkdown(paragraphs: 3000)
        assertSameAsWhole(markdown, sizes: [1, 1000, TextDocument.sectionBytes], "generated 3,000")
        let document = try TextDocument(markdown: markdown)
        XCTAssertEqual(document.count, 3000)
        let opened = document.reading
        XCTAssertGreaterThan(opened.sections, 20, "the file is indexed in sections")
        XCTAssertEqual(opened.parsedAtOpen, 0, "the index is sure of every section of a generated document")
        _ = document.paragraphs[2500]
        XCTAssertEqual(document.reading.lazyParses, 1, "one paragraph parses its section only")
        XCTAssertEqual(document.index(ofHeading: "section 70"), 2760)
        XCTAssertEqual(document.index(ofHeading: "  SECTION 7 "), 240, "the exact heading first, though 'Section 70' and others contain it")
        XCTAssertEqual(document.index(ofHeading: "tion 6"), 200, "else the first that contains it")
        XCTAssertEqual(document.reading.lazyParses, 1, "plain headings are found without parsing")
        XCTAssertEqual(document.index(ofAttachment: "c2989"), 2989)
        XCTAssertEqual(document.reading.lazyParses, 2, "an attachment search parses the section that names it")
    }

    /// A large file is scanned in two halves on two cores: the sections are those of one scan,
    /// also when the first half ends inside a fence, an HTML block or before a stray CR.
    func testHalvesScanLikeOneScan() throws {
        let generated = TextDocument.generatedMarkdown(paragraphs: 17_000)
        XCTAssertGreaterThan(generated.utf8.count, MarkdownIndex.parallelBytes)
        let half = generated.index(generated.startIndex, offsetBy: generated.count / 2 - 2000)
        let variants = [
            generated,
            String(generated[..<half]) + "\n\n```\ncode across the middle\n\n" + String(repeating: "still code\n\n", count: 400) + "```\n\n" + String(generated[half...]),
            "<div>\n\n" + generated,
            generated + "a stray\rreturn\n",
        ]
        // The halves may end a section at the middle where one scan does not: compare what the
        // sections say about the file, not where they end.
        func described(_ index: MarkdownIndex) -> [String] {
            var lines: [String] = [], attachments: [String] = [], first = 0
            for section in index.sections {
                guard let count = section.paragraphs else { lines.append("unsure \(section.bytes)"); continue }
                lines += section.plainHeadings.map { "heading \(first + $0.paragraph) \($0.text)" }
                attachments += section.attachmentIDs.map { "attachment \($0)" }
                first += count
            }
            return lines + attachments + ["\(first) paragraphs"]
        }
        for (n, text) in variants.enumerated() {
            let data = Data(text.utf8)
            let (parallel, serial) = data.withUnsafeBytes {
                (MarkdownIndex($0, sectionBytes: TextDocument.sectionBytes, limits: .standard, trusted: TrustedAttachmentURL(.standard)),
                 MarkdownIndex($0, sectionBytes: TextDocument.sectionBytes, limits: .standard, trusted: TrustedAttachmentURL(.standard), parallel: false))
            }
            let (a, b) = (described(parallel), described(serial))
            if let at = a.indices.first(where: { $0 >= b.count || a[$0] != b[$0] }) ?? (a.count != b.count ? a.count : nil) {
                XCTFail("variant \(n): at \(at) of \(a.count)/\(b.count): halves \(at < a.count ? a[at] : "-"), one scan \(at < b.count ? b[at] : "-")")
            }
            XCTAssertGreaterThan(parallel.sections.count, n >= 2 ? 0 : 100, "variant \(n)")
        }
        assertSameAsWhole(variants[1], sizes: [TextDocument.sectionBytes], "a fence across the middle")
    }

    /// Frames of a lazily read document are those of one read whole, byte for byte: at the top,
    /// after a far jump, and scrolling on from there. So are the event lines and the document's
    /// height, though the lazy one's height is sampled on another thread (its sections are not
    /// parsed yet) and the whole one's on the view's.
    func testFramesOfALazyDocumentAreThoseOfAWholeOne() throws {
        let data = Data(TextDocument.generatedMarkdown(paragraphs: 3000).utf8)
        var frames: [[Data]] = [], events: [[Data]] = [], heights: [Double] = []
        for size in [0, TextDocument.sectionBytes] {
            let document = try TextDocument(markdownData: data, sectionBytes: size)
            XCTAssertEqual(document.paragraphs.store.hasUnparsedSections, size != 0)
            let view = TextView(document: document, viewportSize: CGSize(width: 500, height: 400))
            let script = try ScrollScript(data: Data("{fps: 10, steps: [{wait: 0.1}, {scroll: {toParagraph: 2500}}, {scroll: {by: 900, duration: 0.5}}, {scroll: {toHeading: \"Section 40\"}}]}".utf8))
            var pngs: [Data] = [], lines: [Data] = []
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            let summary = try ScriptRunner(view: view, script: script).run { _, frame, event in
                if let frame { pngs.append(try frame.pngData()) }
                lines.append(try encoder.encode(event))
            }
            frames.append(pngs)
            events.append(lines)
            heights.append(summary.documentHeight)
        }
        XCTAssertGreaterThan(frames[0].count, 5)
        XCTAssertEqual(frames[0], frames[1])
        XCTAssertEqual(events[0], events[1])
        XCTAssertEqual(heights[0].bitPattern, heights[1].bitPattern)
    }

    /// Front matter reads the same in sections as whole (found by the fuzzer twice: the index cut
    /// a section at a blank line inside it, and took a fence inside it for one of the document's).
    func testFrontMatterIsNeverCutIntoSections() throws {
        for source in ["---\n:\n\n...", "---\ntitle: A\n\ntags: b\n---\n# Heading\n\nText.\n\nMore.\n", "---\n:\n```\n---\n```\n\na"] {
            let whole = try TextDocument(markdownData: Data(source.utf8), sectionBytes: 0)
            let sections = try TextDocument(markdownData: Data(source.utf8), sectionBytes: 1)
            XCTAssertEqual(Array(whole.paragraphs), Array(sections.paragraphs), source)
            XCTAssertTrue(whole.paragraphs.first.map { if case .tableRow = $0.kind { true } else { false } } ?? false, source)
        }
    }

    /// Inline HTML that warns (an `<img>` of a missing file, mid-line) reads the same in sections
    /// as whole: the index leaves such lines to a parse (found by the fuzzer).
    func testInlineHTMLThatWarnsIsParsedAtOpen() throws {
        for source in ["s<img src=e>", "# T\n\ntext <img src=\"nosuch.png\"> more\n\nplain\n", "a < b and a<3 stay lazy\n"] {
            let whole = try TextDocument(markdownData: Data(source.utf8), sectionBytes: 0)
            let sections = try TextDocument(markdownData: Data(source.utf8), sectionBytes: 1)
            XCTAssertEqual(Array(sections.paragraphs), Array(whole.paragraphs), source)
            XCTAssertEqual(sections.warnings, whole.warnings, source)
        }
    }

    /// A section that reads to another count than its index said (an index bug) still yields the
    /// paragraphs promised, its source shown as written, instead of ending the process.
    func testASectionTheIndexMiscountedStillGivesItsParagraphs() throws {
        let source = Data("# One\n\nTwo\n\nThree\n".utf8)
        var index = source.withUnsafeBytes {
            MarkdownIndex($0, sectionBytes: Int.max, limits: .standard, trusted: .none, parallel: false)
        }
        XCTAssertEqual(index.sections.map(\.paragraphs), [3])
        index.sections[0].paragraphs = 5
        var reader = MarkdownReader(fileName: "x.md", baseURL: nil, limits: .standard, kinds: .standard)
        let store = try MarkdownSections.store(source: source, index: index, reader: &reader)
        XCTAssertEqual(store.count, 5)
        let paragraphs = (0..<5).map { store[$0] }
        XCTAssertEqual(paragraphs.map(\.id.rawValue), [0, 1, 2, 3, 4])
        XCTAssertEqual(paragraphs[0].text, "# One\n\nTwo\n\nThree\n")
        XCTAssertEqual(paragraphs[0].kind, .codeBlock(language: nil))
        XCTAssertTrue(paragraphs.dropFirst().allSatisfy { $0.text.isEmpty })
        // A section the index counted right parses as always.
        index.sections[0].paragraphs = 3
        let right = try MarkdownSections.store(source: source, index: index, reader: &reader)
        XCTAssertEqual((0..<3).map { right[$0].text }, ["One", "Two", "Three"])
    }

    /// Sections drop their paragraphs past a bound and parse again to the same values.
    func testDroppedSectionsParseAgainAlike() throws {
        let document = try TextDocument(markdownData: Data(TextDocument.generatedMarkdown(paragraphs: 2000).utf8), sectionBytes: 500)
        let first = Array(document.paragraphs)
        XCTAssertGreaterThan(document.reading.sections, ParagraphStore.keptSections * 2)
        XCTAssertLessThanOrEqual(document.paragraphs.store.sectionsParsedNow, ParagraphStore.keptSections)
        XCTAssertEqual(Array(document.paragraphs), first)
    }

    /// Edits in a lazily read document land where they do in one read whole.
    func testEditsOfALazyDocumentMatchAWholeOne() throws {
        let markdown = TextDocument.generatedMarkdown(paragraphs: 600)
        var views = try [0, 300].map { size in
            TextView(document: try TextDocument(markdownData: Data(markdown.utf8), sectionBytes: size),
                     viewportSize: CGSize(width: 400, height: 300))
        }
        for view in views {
            try view.insertParagraphs(markdown: "Inserted *one*.\n\nInserted two.", after: 450)
            try view.deleteParagraph(at: 10)
            let body = (500...).first { view.document.paragraphs[$0].kind == .body }!
            try view.insertText("typed ", inParagraphAt: body, atCharacter: 3)
            try view.deleteParagraph(at: 598)
        }
        XCTAssertEqual(Array(views[0].document.paragraphs), Array(views[1].document.paragraphs))
        for paragraph in views[0].document.paragraphs.prefix(600) {
            XCTAssertEqual(views[1].document.index(of: paragraph.id), views[0].document.index(of: paragraph.id))
        }
        views.removeAll()
    }

    /// An error deep in the file is reported at its own line, and a repeated attachment id is
    /// warned about at its place, however the file is split.
    func testErrorsAndWarningsKeepTheirPlaces() throws {
        var markdown = ""
        for i in 0..<600 {
            markdown += i % 7 == 0 ? "## Section \(i)\n\n" : "Paragraph \(i) with *emphasis* and ![](control:c\(i)?kind=toggle).\n\n"
            if i % 50 == 3 { markdown += "```\n# not a heading, inside a fence\n\n# still code\n```\n\n" }
            if i % 40 == 5 { markdown += "- item one\n\n- item two\n\n  continued\n\n" }
        }
        let bad = markdown + "Broken ![](nope:thing) here.\n"
        XCTAssertThrowsError(try TextDocument(markdownData: Data(bad.utf8), sectionBytes: 2000)) { error in
            XCTAssertEqual((error as? TextReelError)?.line, bad.split(separator: "\n", omittingEmptySubsequences: false).count - 1)
        }
        let repeated = markdown + "Again ![](control:c1?kind=toggle).\n"
        let document = try TextDocument(markdownData: Data(repeated.utf8), sectionBytes: 2000)
        XCTAssertEqual(document.warnings.count, 1)
        XCTAssertTrue(document.warnings[0].contains("'c1' is used again"), document.warnings[0])
        assertSameAsWhole(repeated, sizes: [2000], "a repeated id")
    }
}


