import XCTest
@testable import TextReel
@testable import TextReelMarkdown

final class MarkdownReaderTests: XCTestCase {
    func testBlocksBecomeOneParagraphEach() throws {
        let doc = try TextDocument(markdown: """
        # Title

        Some *em* and **strong** and ~~gone~~ and `code` and [a link](https://x.org).

        - one
          - nested
        1. first
        - [x] done
        - [ ] todo

        > quoted

        ```
        let x = 1
        ```

        ---

        | a | b |
        |---|---|
        | 1 | 2 |
        """)
        let kinds = doc.paragraphs.map(\.kind)
        XCTAssertEqual(Array(kinds.prefix(10)), [
            .heading(level: 1), .body, .listItem(marker: "•"), .listItem(marker: "◦"), .listItem(marker: "1."),
            .listItem(marker: "☑"), .listItem(marker: "☐"), .body, .codeBlock(language: nil), .thematicBreak,
        ])
        XCTAssertEqual(kinds.dropFirst(10).map(\.name), ["table-header", "table-row"], "a paragraph per row")
        guard case .tableRow(let header) = kinds[10], case .tableRow(let row) = kinds[11] else { return XCTFail("\(kinds)") }
        XCTAssertTrue(header.columns === row.columns, "the rows of one table share its columns")
        XCTAssertEqual(header.columns.alignments, [.natural, .natural])
        XCTAssertTrue(row.isLast && !header.isLast)
        XCTAssertEqual(doc.paragraphs.map(\.id.rawValue), Array(0..<12))
        XCTAssertEqual(doc.paragraphs[3].listDepth, 2)
        XCTAssertEqual(doc.paragraphs[7].quoteDepth, 1)
        XCTAssertEqual(doc.paragraphs[8].text, "let x = 1")
        XCTAssertEqual(doc.paragraphs[10].text, "a\tb")
        XCTAssertEqual(doc.paragraphs[11].text, "1\t2")

        let body = doc.paragraphs[1]
        func styleOf(_ word: String) -> InlineStyle? {
            let bytes = Array(body.text.utf8)
            guard let start = (0...(bytes.count - word.utf8.count)).first(where: { Array(bytes[$0..<$0 + word.utf8.count]) == Array(word.utf8) }) else { return nil }
            return body.runs.first { $0.range.contains(start) }?.style
        }
        XCTAssertEqual(styleOf("em"), .emphasis)
        XCTAssertEqual(styleOf("strong"), .strong)
        XCTAssertEqual(styleOf("gone"), .strikethrough)
        XCTAssertEqual(styleOf("code"), .code)
        XCTAssertEqual(styleOf("a link"), .link)
        XCTAssertEqual(body.runs.first { $0.style == .link }?.link, "https://x.org")
    }

    /// A table that interrupts a paragraph: cmark-gfm puts its header row, and the paragraph's
    /// inlines, on the paragraph's first line with columns counted through the paragraph. Errors
    /// and warnings there name the true line (without a column); a whole read and a read in
    /// sections agree (found by FuzzMarkdown: "2:55" read whole, "6:55" in sections).
    func testATableInterruptingAParagraphNamesTrueLines() throws {
        func line(_ markdown: String) -> Int? {
            do { _ = try TextDocument(markdown: markdown); return nil } catch { return (error as? TextReelError)?.line }
        }
        XCTAssertEqual(line("b\n| c ![](bogus:x) |\n|-|\n"), 2, "the header row, with no body row")
        XCTAssertEqual(line("b\n**bold** more\n| c ![](bogus:x) |\n|-|\n| d |\n"), 3, "the header row, before body rows")
        XCTAssertEqual(line("x\n\n| a | b |\n|---|---|\n| c | ![](bogus:x) |\n"), 5, "a body row keeps cmark's line")
        let error = try XCTUnwrap({ () -> TextReelError? in
            do { _ = try TextDocument(markdown: "x\n\n| a | b |\n|---|---|\n| c | ![](bogus:x) |\n"); return nil } catch { return error as? TextReelError }
        }())
        XCTAssertEqual(error.column, 7, "and its column")
        let text = "Intro.\n\n" + String(repeating: "Filler.\n\n", count: 40) + "b\n![](missing.png) c\n| h ![](gone.png) |\n|-|\n"
        let whole = try TextDocument(markdownData: Data(text.utf8), sectionBytes: 0).warnings
        let sections = try TextDocument(markdownData: Data(text.utf8), sectionBytes: 1).warnings
        XCTAssertEqual(whole, sections)
        XCTAssertEqual(whole.count, 2)
    }

    func testHardBreakIsALineSeparator() throws {
        let doc = try TextDocument(markdown: "one\\\ntwo")
        XCTAssertEqual(doc.paragraphs[0].text, "one\u{2028}two")
    }

    func testAttachmentsBlockAndInline() throws {
        let doc = try TextDocument(markdown: """
        ![Intro](video:intro?size=320x180&duration=12)

        Text ![](control:name?kind=textfield&size=240x32) and ![](drawing:?size=30x20) more.
        """)
        let block = doc.paragraphs[0]
        XCTAssertEqual(block.kind, .blockAttachment)
        XCTAssertEqual(block.attachments.first?.id, "intro")
        XCTAssertEqual(block.attachments.first?.size, CGSize(width: 320, height: 180))
        XCTAssertEqual(block.attachments.first?.parameters["duration"], "12")
        XCTAssertTrue(block.attachments[0].isBlock)

        let inline = doc.paragraphs[1]
        XCTAssertEqual(inline.kind, .body)
        XCTAssertEqual(inline.attachments.map(\.scheme), ["control", "drawing"])
        XCTAssertEqual(inline.attachments[1].id, "drawing-1", "an id derived from position when the URL has none")
        for attachment in inline.attachments {
            let bytes = Array(inline.text.utf8)[attachment.utf8Offset..<attachment.utf8Offset + 3]
            XCTAssertEqual(Array(bytes), Array("\u{FFFC}".utf8))
        }
    }

    func testDefaultSizes() throws {
        let doc = try TextDocument(markdown: "![](video:a) ![](drawing:b) ![](control:c?kind=toggle) ![](control:d)")
        XCTAssertEqual(doc.paragraphs[0].attachments.map(\.size), [
            CGSize(width: 320, height: 180), CGSize(width: 300, height: 200),
            CGSize(width: 52, height: 32), CGSize(width: 240, height: 32),
        ])
    }

    func testImageSizeFromFileAndMissingImageWarns() throws {
        let doc = try TextDocument(markdown: "![](media/photo.png)\n\n![](media/nope.png)",
                                   baseURL: Paths.fixtures.appendingPathComponent("documents"))
        XCTAssertEqual(doc.paragraphs[0].attachments[0].size, CGSize(width: 480, height: 280))
        XCTAssertEqual(doc.warnings.count, 1)
        XCTAssertTrue(doc.warnings[0].contains("media/nope.png"), doc.warnings[0])
    }

    func testBadInputsNameTheirPlace() {
        func error(_ markdown: String) -> TextReelError? {
            do { _ = try TextDocument(markdown: markdown); return nil } catch { return error as? TextReelError }
        }
        let scheme = error("line one\n\nsee ![x](ftp:thing)")
        XCTAssertEqual(scheme?.line, 3)
        XCTAssertEqual(scheme?.column, 5)
        XCTAssertTrue(scheme?.message.contains("unknown attachment scheme 'ftp:'") == true, "\(String(describing: scheme))")
        let size = error("![x](video:a?size=12by3)")
        XCTAssertTrue(size?.message.contains("malformed size '12by3'") == true)
        XCTAssertEqual(size?.line, 1)
        XCTAssertNotNil(error("![x](video:a?size=0x10)"))
        XCTAssertNotNil(error("![x](video:a?size=99999x10)"))
        XCTAssertNotNil(error("![x](control:a?kind=knob)"))
        // Columns count characters, not bytes (cmark's), in every section of a document.
        let wide = error("# Zürich\n\nééé ![x](ftp:thing)")
        XCTAssertEqual(wide.map { [$0.line, $0.column] }, [3, 5])
        let quoted = error("> 日本 ![x](ftp:thing)")
        XCTAssertEqual(quoted?.column, 6)
        // Lines end at "\r\n" and lone "\r" too (found by the fuzzer: a lone "\r" before an
        // attribute list placed its warning past the section's last line and ended the process).
        let lone = try? TextDocument(markdown: "\r\r^[](t o)")
        XCTAssertTrue(lone?.warnings.first?.hasPrefix("<markdown>:3:1: warning") == true, "\(lone?.warnings ?? [])")
        let crlf = try? TextDocument(markdown: "a\r\nb\r\n\r\nééé ^[x](note: NaN) ![a](nosuch.png)")
        XCTAssertEqual(Set(crlf?.warnings.map { $0.prefix(16) } ?? []), ["<markdown>:4:5: ", "<markdown>:4:21:"])
        let document = try? TextDocument(markdown: "ééé ![a](nosuch.png)")
        XCTAssertTrue(document?.warnings.first?.hasPrefix("<markdown>:1:5: warning: image nosuch.png") == true, "\(document?.warnings ?? [])")
    }

    func testInvalidUTF8IsAnErrorWithItsPlace() {
        var data = Data("ok\nab".utf8)
        data.append(0xFF)
        XCTAssertThrowsError(try TextDocument(markdownData: data, baseURL: nil, fileName: "bad.md", limits: .standard, attachments: .standard)) { error in
            let e = error as? TextReelError
            XCTAssertEqual(e?.file, "bad.md")
            XCTAssertEqual(e?.line, 2)
            XCTAssertEqual(e?.column, 3)
        }
        var wide = Data("ok\néé".utf8)
        wide.append(0xFF)
        XCTAssertThrowsError(try TextDocument(markdownData: wide, fileName: "bad.md")) { error in
            XCTAssertEqual((error as? TextReelError).map { [$0.line, $0.column] }, [2, 3], "columns count characters")
        }
    }

    func testRightToLeftTextIsKept() throws {
        let doc = try TextDocument(markdown: "שלום עולם")
        XCTAssertEqual(doc.paragraphs[0].text, "שלום עולם")
    }
}
