import Foundation
import XCTest
@testable import TextReel
@testable import TextReelMarkdown

/// TextKit code as its users write it, where TextReel's types once differed: locations compared
/// in document order, a failable `TextRange(location:end:)`, UIColor's initializer with alpha.
final class PortingTrapTests: XCTestCase {
    func testLocationsCompareInDocumentOrderThroughTheLayoutManager() throws {
        let view = TextView(document: try TextDocument(markdown: "One.\n\nTwo.\n\nThree."), viewportSize: CGSize(width: 300, height: 200))
        let manager = view.textLayoutManager
        // A paragraph inserted at the top has the newest id but comes first.
        try view.insertParagraphs(markdown: "Zero.", after: -1)
        let zero = TextLocation(paragraph: view.document.paragraphs[0].id), two = TextLocation(paragraph: view.document.paragraphs[2].id, offset: 2)
        XCTAssertGreaterThan(zero.paragraph, two.paragraph, "ids are not document order")
        XCTAssertEqual(manager.compare(zero, two), .orderedAscending)
        XCTAssertEqual(manager.compare(two, zero), .orderedDescending)
        XCTAssertEqual(manager.compare(two, two), .orderedSame)
        XCTAssertNil(manager.compare(TextLocation(paragraph: ParagraphID(999)), zero))
    }

    func testTextRangeLocationEndIsFailableAsTextKitsIs() throws {
        let p = ParagraphID(0)
        guard let range = TextRange(location: TextLocation(paragraph: p, offset: 1), end: TextLocation(paragraph: p, offset: 4)) else {
            return XCTFail("a forward range")
        }
        XCTAssertEqual(range.start.offset, 1)
        XCTAssertNil(TextRange(location: TextLocation(paragraph: p, offset: 4), end: TextLocation(paragraph: p, offset: 1)), "an end before the start")
        XCTAssertEqual(TextRange(location: TextLocation(paragraph: p, offset: 2), end: nil)?.isEmpty, true)
        XCTAssertTrue(TextRange(location: TextLocation(paragraph: p)).isEmpty)
    }

    func testUIColorsInitializerWithAlpha() {
        let opaque = Color(red: 0.2, green: 0.4, blue: 0.6, alpha: 1)
        XCTAssertEqual(opaque, Color(0.2, 0.4, 0.6))
        let half = Color(red: 0, green: 0, blue: 1, alpha: 0.5)
        XCTAssertEqual(half.resolved(for: .light), Color(0.5, 0.5, 1))
        XCTAssertEqual(half.resolved(for: .dark), Color(0, 0, 0.5))
    }
}
