import XCTest
import TextReelMarkdown
import TextReelGolden

/// STTextView's invisibles fragment (`STTextLayoutFragment.swift`) and insertion point
/// (`STTextView+InsertionPoint.swift`, `STInsertionPointView.swift`), ported by renaming with the
/// STTextKitPlus helpers they call, on plain text as STTextView edits it.
final class STTextViewTests: XCTestCase {
    private let text = "Tabs\tbetween words,  two spaces and a trailing one \nA second line, after a line break.\n\tIndented by a tab, in a paragraph long enough to wrap onto the next line of the view."
    private let size = CGSize(width: 360, height: 200)

    private func stView() -> STTextView {
        STTextView(document: TextDocument(attributedString: NSAttributedString(string: text)), viewportSize: size)
    }

    /// Whether anything but the background is drawn inside `rect`.
    private func inked(_ frame: RenderedFrame, in rect: CGRect) -> Bool {
        let background = frame.pixel(x: 0, y: frame.height - 1)
        // The whole pixels inside `rect`: glyphs stand at fractional x, and a pixel they share
        // with the box's edge holds their antialiasing.
        return (Int(rect.minY.rounded(.up))..<Int(rect.maxY.rounded(.down))).contains { y in
            (Int(rect.minX.rounded(.up))..<Int(rect.maxX.rounded(.down))).contains { x in frame.pixel(x: x, y: y) != background }
        }
    }

    /// The fragment draws its lines itself (`TextLineFragment.draw(at:in:)`): with invisibles off
    /// its frame is TextReel's own, byte for byte.
    func testLinesDrawnByTheFragmentAreTheStandardDrawing() throws {
        let plain = TextView(document: TextDocument(attributedString: NSAttributedString(string: text)), viewportSize: size)
        let view = stView()
        let frame = try view.renderFrame()
        XCTAssertTrue(view.textLayoutManager.ensureLayout(forParagraphAt: 0) is STTextLayoutFragment)
        XCTAssertEqual(try frame.pngData(), try plain.renderFrame().pngData())
    }

    /// Turning invisibles on invalidates the viewport's layout (STTextView's `willSet`), and the
    /// next frame shows a marker in the segment frame of every space and tab, and none elsewhere.
    func testInvisiblesAreMarkedWhereTheWhitespaceIs() throws {
        let view = stView()
        let plain = try view.renderFrame()
        view.showsInvisibleCharacters = true
        let marked = try view.renderFrame()
        XCTAssertNotEqual(try plain.pngData(), try marked.pngData(), "the invalidation redraws")
        let manager = view.textLayoutManager
        var checked = 0
        for index in 0..<manager.paragraphCount {
            let fragment = manager.ensureLayout(forParagraphAt: index)
            let start = TextLocation(paragraph: fragment.paragraph.id)
            for (offset, unit) in fragment.paragraph.text.utf16.enumerated() where unit == 0x20 || unit == 0x09 {
                guard let location = manager.location(start, offsetBy: offset), let next = manager.location(location, offsetBy: 1),
                      let frame = manager.textSegmentFrame(in: TextRange(location: location), type: .standard),
                      let after = manager.textSegmentFrame(in: TextRange(location: next), type: .standard),
                      frame.maxY < size.height, after.minY == frame.minY, after.minX - frame.minX >= 3 else { continue }
                // Inside the whitespace's own advance, the plain frame has nothing and the marked one a marker.
                let box = CGRect(x: frame.minX + 1, y: frame.minY + 2, width: after.minX - frame.minX - 2, height: frame.height - 4)
                XCTAssertFalse(inked(plain, in: box), "paragraph \(index) offset \(offset): nothing drawn without invisibles")
                XCTAssertTrue(inked(marked, in: box), "paragraph \(index) offset \(offset): marked")
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 10)
        // The markers are in the placeholder colour, lighter than the text.
        let light = Color.placeholderTextColor
        XCTAssertTrue((0..<Int(size.height)).contains { y in (0..<Int(size.width)).contains { x in
            let p = marked.pixel(x: x, y: y); return abs(Double(p.red) - light.red * 255) < 24 && p.red < 230 && p.red == p.blue
        } })
        // Lines are measured in the fonts they were set in.
        let line = manager.ensureLayout(forParagraphAt: 0).textLineFragments[0]
        let font = try XCTUnwrap(line.attributedString.attribute(.font, at: 4, effectiveRange: nil) as? Font)
        XCTAssertEqual(font.pointSize, view.theme.bodySize, accuracy: 0.01)
        XCTAssertNotNil(font.familyName)
    }

    /// A first responder with a caret gets an insertion point view in `contentView`, where
    /// TextReel would draw its own caret; one that is not gets none.
    func testTheInsertionPointStandsWhereTheCaretIs() throws {
        let view = stView()
        let id = view.textLayoutManager.ensureLayout(forParagraphAt: 0).paragraph.id
        let caretLocation = TextLocation(paragraph: id, offset: 10)
        view.textLayoutManager.textSelections = [TextSelection(caretLocation)]
        _ = try view.renderFrame()
        XCTAssertTrue(view.contentView.subviews.isEmpty, "not the first responder: no insertion point")

        view.isFirstResponder = true
        let frame = try view.renderFrame()
        let insertion = try XCTUnwrap(view.contentView.subviews.first)
        XCTAssertEqual(view.contentView.subviews.count, 1)
        // TextReel's own caret for the same selection.
        let reference = TextView(document: TextDocument(attributedString: NSAttributedString(string: text)), viewportSize: size)
        reference.textLayoutManager.textSelections = [TextSelection(TextLocation(paragraph: reference.textLayoutManager.ensureLayout(forParagraphAt: 0).paragraph.id, offset: 10))]
        let caret = try XCTUnwrap(try reference.renderFrame().pass?.selection?.caret?.cgRect)
        // TextReel's caret is centred on the location (its left edge a point before it); the
        // insertion view starts at the location, pixel-aligned (up to half a pixel more).
        XCTAssertEqual(insertion.frame.minX, caret.minX + 1, accuracy: 0.5)
        XCTAssertEqual(insertion.frame.minY, caret.minY, accuracy: 1)
        XCTAssertEqual(insertion.frame.height, caret.height, accuracy: 1)
        XCTAssertEqual(insertion.frame.width, 2)
        // Drawn in the insertion point colour, nowhere but there.
        let accent = Color.textInsertionPointColor
        let x = Int(insertion.frame.midX), y = Int(insertion.frame.midY)
        let p = frame.pixel(x: x, y: y)
        XCTAssertEqual(Double(p.blue), accent.blue * 255, accuracy: 2)
        XCTAssertEqual(Double(p.red), accent.red * 255, accuracy: 2)

        // Moving the caret moves the same view; leaving first responder removes it.
        view.textLayoutManager.textSelections = [TextSelection(TextLocation(paragraph: id, offset: 2))]
        _ = try view.renderFrame()
        XCTAssertTrue(view.contentView.subviews.first === insertion, "the view is reused")
        XCTAssertLessThan(insertion.frame.minX, caret.minX)
        view.isFirstResponder = false
        _ = try view.renderFrame()
        XCTAssertTrue(view.contentView.subviews.isEmpty)
    }

    func testGoldenFrames() throws {
        let view = stView()
        view.showsInvisibleCharacters = true
        view.isFirstResponder = true
        let script = try ScrollScript(data: Data("""
            {fps: 10, steps: [{select: {paragraph: 1, from: 9}}, {snapshot: "invisibles-and-caret"},
                              {scroll: {by: 40, duration: 0.2}}, {snapshot: "scrolled"}]}
            """.utf8))
        XCTAssertNoThrow(try GoldenFrames.verify(view, script: script, frames: .snapshots, named: "sttextview"))
    }
}
