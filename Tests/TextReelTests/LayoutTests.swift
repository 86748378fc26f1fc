import CPango
import XCTest
@testable import TextReel
@testable import TextReelMarkdown

final class LayoutTests: XCTestCase {
    private func view(_ markdown: String, width: Double = 600) throws -> TextView {
        TextView(document: try TextDocument(markdown: markdown), viewportSize: CGSize(width: width, height: 400))
    }

    /// Lays the same text out with Pango directly, with the same font, width and options.
    private func pangoLineStarts(_ text: String, width: Double, theme: Theme, fonts: FontSystem) -> [Int] {
        let layout = pango_layout_new(fonts.context)!
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        pango_layout_set_text(layout, text, Int32(text.utf8.count))
        let description = pango_font_description_from_string("\(theme.bodyFamilies) \(theme.bodySize)")
        pango_layout_set_font_description(layout, description)
        pango_font_description_free(description)
        pango_layout_set_width(layout, Int32(width * Double(PANGO_SCALE)))
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        var starts: [Int] = []
        let iter = pango_layout_get_iter(layout)
        repeat { starts.append(Int(pango_layout_iter_get_line_readonly(iter)!.pointee.start_index)) }
        while pango_layout_iter_next_line(iter) != 0
        pango_layout_iter_free(iter)
        XCTAssertEqual(Int(pango_layout_get_line_count(layout)), starts.count)
        return starts
    }

    func testLineBreaksAgreeWithPango() throws {
        let texts = [
            "The quick brown fox jumps over the lazy dog, again and again, until the line has to wrap several times over.",
            "Supercalifragilisticexpialidocious-words-that-do-not-fit-anywhere-in-a-narrow-column-at-all",
            "العربية: يكتب النص العربي من اليمين إلى اليسار، وتأخذ الفقرة اتجاهها من نصها.",
            "日本語：縦書きではなく横書きで、和文と欧文が混ざっても行は正しく折り返されます。",
        ]
        for width in [240.0, 420.0] {
            for text in texts {
                let view = try view(text, width: width)
                let fragment = view.textLayoutManager.ensureLayout(forParagraphAt: 0)
                let theme = view.theme
                let expected = pangoLineStarts(text, width: width - theme.insets.left - theme.insets.right,
                                               theme: theme, fonts: view.fonts)
                XCTAssertGreaterThan(expected.count, 1, "the text should wrap at \(width)")
                XCTAssertEqual(fragment.textLineFragments.map(\.utf8Range.lowerBound), expected, text)
                XCTAssertEqual(fragment.textLineFragments.last?.utf8Range.upperBound, text.utf8.count)
                // The public offsets are UTF-16, as TextKit's and the layout manager's are.
                let utf16Starts = expected.map { String(decoding: Array(text.utf8)[..<$0], as: UTF8.self).utf16.count }
                XCTAssertEqual(fragment.textLineFragments.map(\.characterRange.lowerBound), utf16Starts, text)
                XCTAssertEqual(fragment.textLineFragments.last?.characterRange.upperBound, text.utf16.count)
            }
        }
    }

    func testFragmentFramesTileWithoutGapsOrOverlaps() throws {
        let document = try TextDocument(contentsOf: Paths.demo)
        let view = TextView(document: document, viewportSize: CGSize(width: 800, height: 600))
        let manager = view.textLayoutManager
        var frames: [CGRect] = []
        manager.enumerateTextLayoutFragments(from: nil, options: .ensuresLayout) { fragment in
            frames.append(fragment.layoutFragmentFrame)
            return true
        }
        XCTAssertEqual(frames.count, document.count)
        XCTAssertEqual(frames.first.map { Double($0.minY) }, view.theme.insets.top)
        for (a, b) in zip(frames, frames.dropFirst()) {
            XCTAssertEqual(a.maxY, b.minY, "fragments must abut")
            XCTAssertGreaterThan(b.height, 0)
            XCTAssertEqual(a.minX, 0)
            XCTAssertEqual(a.width, 800)
        }
        XCTAssertEqual(manager.documentHeight, frames.last!.maxY + view.theme.insets.bottom)
    }

    func testInlineAttachmentsReserveExactlyTheirSize() throws {
        let view = try view("Before ![](video:v?size=50x40) middle ![](control:c?kind=toggle&size=30x12) after")
        let fragment = view.textLayoutManager.ensureLayout(forParagraphAt: 0)
        XCTAssertEqual(fragment.attachmentFrames.count, 2)
        let layout = fragment.shaped!.layout.layout
        for (attachment, frame) in fragment.attachmentFrames {
            XCTAssertEqual(frame.size, attachment.size)
            var position = PangoRectangle()
            pango_layout_index_to_pos(layout, Int32(attachment.utf8Offset), &position)
            XCTAssertEqual(Double(position.width) / Double(PANGO_SCALE), attachment.size.width, accuracy: 0.001,
                           "the U+FFFC advances by exactly the attachment's width")
            let line = fragment.textLineFragments[0]
            XCTAssertEqual(frame.maxY, line.glyphOrigin.y, accuracy: 0.001, "sits on the baseline")
        }
        // A 40-point-tall object makes its line taller than a text line.
        XCTAssertGreaterThanOrEqual(fragment.textLineFragments[0].typographicBounds.height, 40)
    }

    func testBlockAttachmentWiderThanTheColumnIsScaledToFit() throws {
        let view = try view("![](drawing:wide?size=2000x1000)", width: 400)
        let fragment = view.textLayoutManager.ensureLayout(forParagraphAt: 0)
        let frame = fragment.attachmentFrames[0].frame
        XCTAssertEqual(frame.width, 400 - view.theme.insets.left - view.theme.insets.right)
        XCTAssertEqual(frame.height, (frame.width / 2).rounded())
    }

    /// An `<img width="50%">` is half the text column wide, keeping its aspect, alone or beside
    /// another in a centred paragraph; over 100% is the whole column.
    func testImagesWithPercentWidthsShareTheColumn() throws {
        let folder = Paths.temporaryFolder()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Paths.fixtures.appendingPathComponent("documents/media/photo.png"), to: folder.appendingPathComponent("photo.png"))
        let markdown = """
        <img src="photo.png" width="50%">

        <p align="center"><img src="photo.png" width="40%"> <img src="photo.png" width="40%"></p>

        <img src="photo.png" width="150%">
        """
        let document = try TextDocument(markdown: markdown, baseURL: folder)
        let intrinsic = document.paragraphs[0].attachments[0].size
        let view = TextView(document: document, viewportSize: CGSize(width: 600, height: 2000))
        let column = 600 - view.theme.insets.left - view.theme.insets.right
        let half = view.textLayoutManager.ensureLayout(forParagraphAt: 0).attachmentFrames[0].frame
        XCTAssertEqual(half.width, (column / 2).rounded())
        XCTAssertEqual(half.height, (intrinsic.height * half.width / intrinsic.width).rounded())
        let pair = view.textLayoutManager.ensureLayout(forParagraphAt: 1).attachmentFrames.map(\.frame)
        XCTAssertEqual(pair.map(\.width), [(column * 0.4).rounded(), (column * 0.4).rounded()])
        XCTAssertEqual(pair[0].minY, pair[1].minY, "side by side, on one line")
        XCTAssertEqual(view.textLayoutManager.ensureLayout(forParagraphAt: 2).attachmentFrames[0].frame.width, column)
    }

    /// A table wider than the text column wraps its cells at word boundaries so that every
    /// column is on screen, as browsers' automatic table layout does: the columns line up in every
    /// row, each row is a fragment of its own, and cells follow their column's alignment.
    func testTableCellsWrapSoThatEveryColumnFits() throws {
        let long = "a description long enough that it cannot stay on one line at this width"
        let markdown = """
        | Name | Description | Count |
        |:-----|:------------|------:|
        | first | \(long) | 1 |
        | second entry | short | 12345 |
        | third | \(long) and then some | 7 |
        """
        for width in [375.0, 800.0] {
            let view = try view(markdown, width: width)
            let rows = (0..<4).map { view.textLayoutManager.ensureLayout(forParagraphAt: $0) }
            XCTAssertEqual(rows.map(\.paragraph.kind.name), ["table-header", "table-row", "table-row", "table-row"])
            let right = width - view.theme.insets.right
            for row in rows {
                XCTAssertEqual(row.textLineFragments.filter { $0.typographicBounds.maxX > right + 0.5 }.count, 0, "every cell inside the column at \(width)")
                XCTAssertNil(row.shaped?.table?.overflow)
            }
            XCTAssertEqual(Set(rows.map { $0.shaped!.table!.edges }).count, 1, "the same column edges in every row")
            // The description wraps in the narrow view, not the wide one.
            let descriptionLines = rows[1].textLineFragments.filter { $0.characterRange.lowerBound > 6 && $0.characterRange.upperBound < 6 + long.utf8.count + 2 }
            XCTAssertEqual(descriptionLines.count > 1, width < 500, "\(width): \(descriptionLines.count) lines")
            // The count column is right-aligned: its cells end at the same x.
            let countEnds = rows.dropFirst().map { row in row.textLineFragments.last!.typographicBounds.minX + row.textLineFragments.last!.typographicBounds.width }
            XCTAssertLessThan(countEnds.max()! - countEnds.min()!, 1, "\(countEnds)")
        }
    }

    /// Browsers' automatic layout: widest contents when they fit, else each column's narrowest
    /// plus a share of the rest by how much wider it wants to be, else the narrowest, overflowing.
    func testColumnWidthsFollowTheAutomaticTableLayout() {
        XCTAssertEqual(TableColumnWidths.fit(minimum: [10, 20], maximum: [30, 40], available: 100).widths, [30, 40])
        let shared = TableColumnWidths.fit(minimum: [10, 20], maximum: [30, 100], available: 60)
        XCTAssertEqual(shared.widths.reduce(0, +), 60, accuracy: 0.001)
        XCTAssertEqual(shared.widths[0], 10 + 30 * 20 / 100, accuracy: 0.001)
        XCTAssertFalse(shared.overflows)
        XCTAssertTrue(TableColumnWidths.fit(minimum: [50, 60], maximum: [90, 90], available: 100).overflows)
    }

    func testRightToLeftParagraphsAreRightAligned() throws {
        let view = try view("שלום עולם, זו פסקה בעברית.\n\nالعربية: هذه فقرة.\n\nLeft to right.")
        let right = 600 - view.theme.insets.right
        for index in 0..<2 {
            let line = view.textLayoutManager.ensureLayout(forParagraphAt: index).textLineFragments[0]
            XCTAssertTrue(line.isRightToLeft)
            XCTAssertEqual(line.typographicBounds.maxX, right, accuracy: 0.5)
            XCTAssertGreaterThan(line.typographicBounds.minX, view.theme.insets.left + 50)
        }
        let ltr = view.textLayoutManager.ensureLayout(forParagraphAt: 2).textLineFragments[0]
        XCTAssertFalse(ltr.isRightToLeft)
        XCTAssertEqual(ltr.typographicBounds.minX, view.theme.insets.left, accuracy: 0.5)
    }

    /// Every script Noto covers draws its own glyphs: a line of letters in each of 60 scripts
    /// (Thai, Bengali, Khmer, Sinhala, Ethiopic, Myanmar … Adlam, Osage), none of them Pango's
    /// unknown glyph (a hex box).
    func testSixtyScriptsDrawNoBoxes() throws {
        let document = try TextDocument(contentsOf: Paths.fixtures.appendingPathComponent("documents/scripts.md"))
        let scripts = document.paragraphs.filter { $0.text.contains(": ") }
        XCTAssertGreaterThanOrEqual(scripts.count, 60)
        let view = TextView(document: document, viewportSize: CGSize(width: 600, height: 600))
        var boxes: [String] = []
        for index in 0..<document.count {
            let fragment = view.textLayoutManager.ensureLayout(forParagraphAt: index)
            if pango_layout_get_unknown_glyphs_count(fragment.shaped!.layout.layout) > 0 { boxes.append(fragment.paragraph.text) }
        }
        XCTAssertEqual(boxes, [], "lines with glyphs no font covers")
    }

    func testEveryScriptRendersWithRealGlyphs() throws {
        // Pango reports unknown glyphs (boxes) through pango_layout_get_unknown_glyphs_count.
        // The demo, and emoji sequences of every kind (ZWJ, flags, tags, keycaps) among scripts.
        for url in [Paths.demo, Paths.fixtures.appendingPathComponent("documents/emoji.md")] {
            let document = try TextDocument(contentsOf: url)
            let view = TextView(document: document, viewportSize: CGSize(width: 800, height: 600))
            for index in 0..<document.count {
                let fragment = view.textLayoutManager.ensureLayout(forParagraphAt: index)
                XCTAssertEqual(pango_layout_get_unknown_glyphs_count(fragment.shaped!.layout.layout), 0,
                               "paragraph \(index) has glyphs no font covers: \(fragment.paragraph.text)")
            }
        }
    }
}

/// Line-fragment geometry agrees with the layout manager's offsets outside ASCII: both count UTF-16.
final class LineOffsetTests: XCTestCase {
    func testLineOffsetsAreTheLayoutManagersUnit() throws {
        let text = "é👨‍👩‍👧 日本語 and more text after it"
        let view = TextView(document: try TextDocument(markdown: text), viewportSize: CGSize(width: 500, height: 100))
        _ = try view.renderFrame()
        let manager = view.textLayoutManager
        let line = manager.ensureLayout(forParagraphAt: 0).textLineFragments[0]
        XCTAssertEqual(line.characterRange, NSRange(location: 0, length: text.utf16.count))
        let start = manager.documentRange.location
        // The caret after "é👨‍👩‍👧 " by the manager's offsets, and by the line's: the same place.
        let offset = ("é👨‍👩‍👧 " as String).utf16.count
        let location = try XCTUnwrap(manager.location(start, offsetBy: offset))
        XCTAssertEqual(manager.offset(from: start, to: location), offset)
        XCTAssertEqual(location.offset, offset, "a location counts what the line fragment counts")
        // The caret's segment (document coordinates) and the line's location (relative to its
        // layout fragment, as TextKit's): the fragment's origin and the location are the caret's.
        var caret = CGRect.null
        manager.enumerateTextSegments(in: TextRange(location: location), type: .standard) { _, rect, _, _ in caret = rect; return false }
        let frame = manager.ensureLayout(forParagraphAt: 0).layoutFragmentFrame
        XCTAssertEqual(line.locationForCharacter(at: offset).x + frame.minX, caret.minX, accuracy: 0.01)
        let hit = line.characterIndex(for: CGPoint(x: caret.minX - frame.minX + 0.5, y: 0))
        XCTAssertEqual(hit, offset)
        XCTAssertEqual(TextLocation(paragraph: location.paragraph, offset: hit), location, "a line's index is a location's offset")
    }
}
