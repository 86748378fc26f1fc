import Foundation
import XCTest
import TextReelMarkdown

/// The viewport controller's contract as TextKit code uses it: `relocateViewport(to:)` returns
/// the offset that puts its location at the top, and `adjustViewport(byVerticalOffset:)`
/// followed by the same move of the offset keeps the content still.
final class ViewportContractTests: XCTestCase {
    /// Apple's TextKit 2 sample's document view ("Using TextKit 2 to interact with text",
    /// TextDocumentView.adjustViewportOffsetIfNeeded), renamed: `scroll(_:)` of the clip view is
    /// `contentOffset`, the document view's `bounds` (origin zero) a property of the port.
    final class SampleTextView: TextView {
        var bounds: CGRect { CGRect(origin: .zero, size: viewportSize) }

        override func textViewportLayoutControllerDidLayout(_ controller: TextViewportLayoutController) {
            super.textViewportLayoutControllerDidLayout(controller)
            adjustViewportOffsetIfNeeded()
        }

        private func adjustViewportOffsetIfNeeded() {
            let viewportLayoutController = textLayoutManager.textViewportLayoutController
            let contentOffset = self.contentOffset.y
            if contentOffset < bounds.height &&
                viewportLayoutController.viewportRange!.location.compare(textLayoutManager.documentRange.location) == .orderedDescending {
                // Nearing top, see if we need to adjust and make room above.
                adjustViewportOffset()
            } else if viewportLayoutController.viewportRange!.location.compare(textLayoutManager.documentRange.location) == .orderedSame {
                // At top, see if we need to adjust and reduce space above.
                adjustViewportOffset()
            }
        }

        private func adjustViewportOffset() {
            let viewportLayoutController = textLayoutManager.textViewportLayoutController
            var layoutYPoint: CGFloat = 0
            textLayoutManager.enumerateTextLayoutFragments(from: viewportLayoutController.viewportRange!.location, options: [.reverse, .ensuresLayout]) { layoutFragment in
                layoutYPoint = layoutFragment.layoutFragmentFrame.origin.y
                return true
            }
            if !layoutYPoint.isZero {
                let adjustmentDelta = bounds.minY - layoutYPoint
                viewportLayoutController.adjustViewport(byVerticalOffset: adjustmentDelta)
                contentOffset = CGPoint(x: bounds.minX, y: contentOffset.y + adjustmentDelta)
            }
        }
    }

    private var lines: TextDocument {
        TextDocument(attributedString: NSAttributedString(string: (0..<400).map { "Line \($0) of a plain text, one paragraph a line" }.joined(separator: "\n")))
    }

    func testAdjustingTheViewportAsTextKitCodeDoesKeepsTheContentStill() throws {
        let size = CGSize(width: 420, height: 300)
        let sample = SampleTextView(document: lines, viewportSize: size), plain = TextView(document: lines, viewportSize: size)
        for offset in [0.0, 120, 240, 2000] {
            sample.contentOffset = CGPoint(x: 0, y: offset)
            plain.contentOffset = CGPoint(x: 0, y: offset)
            let a = try sample.renderFrame(), b = try plain.renderFrame()
            XCTAssertEqual(sample.contentOffset.y, plain.contentOffset.y, "offset \(offset): moved once, not twice")
            XCTAssertEqual(a.rgbaPixels(), b.rgbaPixels(), "offset \(offset): the same pixels, no rows left blank")
        }
    }

    func testRelocateViewportReturnsTheOffsetThatShowsItsLocationAtTheTop() throws {
        let view = TextView(document: lines, viewportSize: CGSize(width: 420, height: 300))
        _ = try view.renderFrame()
        let manager = view.textLayoutManager
        let line120 = try XCTUnwrap(manager.location(manager.documentRange.location, offsetBy: (0..<120).reduce(0) { $0 + "Line \($1) of a plain text, one paragraph a line".utf16.count + 1 }))
        XCTAssertEqual(manager.textLayoutFragment(for: line120)?.paragraph.text.hasPrefix("Line 120 "), true)
        view.contentOffset = CGPoint(x: 0, y: manager.textViewportLayoutController.relocateViewport(to: line120))
        _ = try view.renderFrame()
        let top = try XCTUnwrap(manager.textLayoutFragment(for: line120)).layoutFragmentFrame.minY
        XCTAssertEqual(view.contentOffset.y, top, accuracy: 0.5, "line 120 is at the top of the view")
    }
}
