import XCTest
import TextReelMarkdown
import TextReelGolden

/// STTextView's line-number ruler, ported by renaming (`STLineNumberRulerView.swift`), on the
/// view's vertical ruler: it numbers each fragment's first line beside the text, follows the
/// scroll, and leaves the text's pixels as they were.
final class LineNumberTests: XCTestCase {
    private func view(ruler: Bool) throws -> TextView {
        let markdown = "# Numbered\n\n" + (1...14).map { "Paragraph \($0) of a document whose paragraphs the ruler numbers." }.joined(separator: "\n\n")
        let view = TextView(document: try TextDocument(markdown: markdown), viewportSize: CGSize(width: 360, height: 300))
        if ruler {
            let ruler = STLineNumberRulerView()
            ruler.clientView = view
            view.verticalRulerView = ruler
        }
        return view
    }

    func testNumbersAreDrawnBesideEachFragmentsFirstLine() throws {
        let plain = try view(ruler: false).renderFrame()
        let view = try view(ruler: true)
        let frame = try view.renderFrame()
        let manager = view.textLayoutManager
        // Ink in the left inset at each visible fragment's first line, and nowhere else there.
        for index in 0..<manager.paragraphCount {
            let fragment = manager.ensureLayout(forParagraphAt: index)
            // Where STTextView's code puts it: the fragment's origin plus the first character's
            // location in its line (TextKit's meaning: from the line's top, not the fragment's).
            let baseline = fragment.layoutFragmentFrame.minY + fragment.textLineFragments[0].locationForCharacter(at: 0).y
            guard baseline < 290 else { break }
            let inked = (Int(baseline) - 9..<Int(baseline)).contains { y in (2..<28).contains { x in frame.pixel(x: x, y: y).red < 200 } }
            XCTAssertTrue(inked, "paragraph \(index) is numbered")
        }
        // The text is untouched: right of the ruler, both frames are the same.
        for y in stride(from: 0, to: 300, by: 3) {
            for x in stride(from: 34, to: 360, by: 3) {
                XCTAssertTrue(frame.pixel(x: x, y: y) == plain.pixel(x: x, y: y), "(\(x), \(y))")
            }
        }
    }

    func testGoldenFramesFollowTheScroll() throws {
        let script = try ScrollScript(data: Data("{fps: 10, steps: [{snapshot: \"top\"}, {scroll: {by: 200, duration: 0.3}}, {snapshot: \"scrolled\"}]}".utf8))
        XCTAssertNoThrow(try GoldenFrames.verify(try view(ruler: true), script: script, frames: .snapshots, named: "line-numbers"))
    }
}
