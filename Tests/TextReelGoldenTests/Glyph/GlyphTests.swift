import Foundation
import XCTest
import TextReel
import TextReelMarkdown

/// Glyph's TextKit 2 helpers, ported by renaming (GlyphAdditions.swift), answer where the text
/// is: `boundingRect(for:)` over a word is the word's own segment, on any line of a wrapped
/// paragraph and in an indented item, and `enumerateLineFragments(for:)` finds the lines a rect
/// of the view holds after a far scroll.
final class GlyphTests: XCTestCase {
    private let size = CGSize(width: 420, height: 300)

    private func view() throws -> TextView {
        var markdown = ""
        for k in 0..<60 {
            markdown += k % 3 == 2 ? "- item \(k) holds a needle\(k) indented by its list\n\n"
                                   : "Paragraph \(k) is long enough to wrap onto a second line, where needle\(k) sits near its end.\n\n"
        }
        return TextView(document: try TextDocument(markdown: markdown), viewportSize: size)
    }

    /// The document's UTF-16 range of `word` in paragraph `index`, through the content manager.
    private func range(of word: String, inParagraph index: Int, of view: TextView) throws -> NSRange {
        let manager = view.textLayoutManager
        let paragraph = manager.ensureLayout(forParagraphAt: index).paragraph
        let found = try XCTUnwrap(paragraph.text.range(of: word))
        let start = paragraph.text.utf16.distance(from: paragraph.text.startIndex, to: found.lowerBound)
        let provider = try XCTUnwrap(manager.textContentManager)
        let location = TextLocation(paragraph: paragraph.id, offset: start)
        return NSRange(location: provider.offset(from: provider.documentRange.location, to: location), length: word.utf16.count)
    }

    /// TextReel's own segment for the same range (document coordinates).
    private func segment(_ range: NSRange, of view: TextView) throws -> CGRect {
        let manager = view.textLayoutManager
        let textRange = try XCTUnwrap(TextRange(range, provider: try XCTUnwrap(manager.textContentManager)))
        var found = CGRect.null
        manager.enumerateTextSegments(in: textRange, type: .standard) { _, rect, _, _ in found = found.union(rect); return true }
        return found
    }

    func testABoundingRectIsTheWordsSegmentOnEveryLine() throws {
        let view = try view()
        for (word, index) in [("needle0", 0), ("needle2", 2), ("Paragraph 3", 3)] {
            let range = try range(of: word, inParagraph: index, of: view)
            let rect = try XCTUnwrap(view.textLayoutManager.boundingRect(for: range), word)
            let expected = try segment(range, of: view)
            XCTAssertGreaterThan(rect.width, 20, "\(word) has a width, on a wrapped paragraph's second line too")
            XCTAssertEqual(rect.minX, expected.minX, accuracy: 0.5, "\(word) starts where the text does (it was short by the container's inset)")
            XCTAssertEqual(rect.maxX, expected.maxX, accuracy: 0.5, word)
            XCTAssertEqual(rect.midY, expected.midY, accuracy: 1, word)
        }
        // The second line's word is below the first line's.
        let first = try XCTUnwrap(view.textLayoutManager.boundingRect(for: try range(of: "Paragraph 0", inParagraph: 0, of: view)))
        let second = try XCTUnwrap(view.textLayoutManager.boundingRect(for: try range(of: "needle0", inParagraph: 0, of: view)))
        XCTAssertGreaterThan(second.minY, first.maxY - 1)
    }

    /// After a far scroll, the lines in the view's rect are the viewport's, and the word's
    /// bounding rect holds ink in the frame drawn there.
    func testLinesInARectAfterAFarScroll() throws {
        let view = try view()
        view.scroll(toParagraph: view.document.paragraphs[45].id, offset: 0)
        let frame = try view.renderFrame()
        let visible = CGRect(x: 0, y: view.contentOffset.y, width: size.width, height: size.height)
        var ranges: [NSRange] = []
        view.textLayoutManager.enumerateLineFragments(for: visible) { rect, range, _ in
            XCTAssertTrue(rect.intersects(visible))
            ranges.append(range)
        }
        XCTAssertGreaterThan(ranges.count, 4, "the lines in view")
        let word = try range(of: "needle45", inParagraph: 45, of: view)
        XCTAssertTrue(ranges.contains { NSIntersectionRange($0, word).length > 0 || $0.contains(word.location) }, "the scrolled-to paragraph's lines are found")
        let rect = try XCTUnwrap(view.textLayoutManager.boundingRect(for: word)).offsetBy(dx: 0, dy: -view.contentOffset.y)
        let background = frame.pixel(x: 1, y: 1)
        let inked = (Int(rect.minY)..<Int(rect.maxY)).contains { y in (Int(rect.minX)..<Int(rect.maxX)).contains { x in
            x >= 0 && y >= 0 && x < frame.width && y < frame.height && frame.pixel(x: x, y: y) != background } }
        XCTAssertTrue(inked, "the word is drawn inside its bounding rect")
    }
}
