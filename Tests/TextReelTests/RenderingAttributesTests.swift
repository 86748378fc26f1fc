import Foundation
import XCTest
import TextReelMarkdown

/// Rendering attributes colour text when it is drawn, never reshaping it.
final class RenderingAttributesTests: XCTestCase {
    func testARenderingColourIsDrawnAndMovesNothing() throws {
        let view = TextView(document: try TextDocument(markdown: "Plain words here\n\nMore words"), viewportSize: CGSize(width: 300, height: 160))
        let before = try view.renderFrame()
        let manager = view.textLayoutManager
        let frame = manager.ensureLayout(forParagraphAt: 0).layoutFragmentFrame
        let start = manager.documentRange.location
        let range = try XCTUnwrap(TextRange(location: start, end: manager.location(start, offsetBy: 5)))
        manager.addRenderingAttribute(.foregroundColor, value: Color(hex: 0xD1242F), for: range)
        let after = try view.renderFrame()
        func red(_ f: RenderedFrame) -> Int {
            var n = 0
            for y in 0..<f.height { for x in 0..<f.width { let p = f.pixel(x: x, y: y); if p.red > 150 && p.green < 90 && p.blue < 90 { n += 1 } } }
            return n
        }
        XCTAssertEqual(red(before), 0)
        XCTAssertGreaterThan(red(after), 20)
        XCTAssertEqual(manager.ensureLayout(forParagraphAt: 0).layoutFragmentFrame, frame)
        manager.removeRenderingAttribute(.foregroundColor, for: manager.documentRange)
        XCTAssertEqual(red(try view.renderFrame()), 0)
    }
}
