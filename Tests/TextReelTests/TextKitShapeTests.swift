import Foundation
import XCTest
import TextReelMarkdown

/// TextKit's type shapes, written as TextKit code writes them (renamed only), and the public API
/// answering bad indexes and ranges without ending the process.
final class TextKitShapeTests: XCTestCase {
    private func view(_ markdown: String = "One\n\nTwo words\n\nThree") throws -> TextView {
        TextView(document: try TextDocument(markdown: markdown), viewportSize: CGSize(width: 400, height: 300))
    }

    func testTypeShapesCompileAsTextKitCodeWritesThem() throws {
        let textView = try view()
        let textLayoutManager = textView.textLayoutManager
        // `guard let textContentManager` (TextKit's is weak and optional), an element provider.
        guard let textContentManager = textLayoutManager.textContentManager else { return XCTFail("no content manager") }
        let provider: TextElementProvider = textContentManager
        let documentRange = provider.documentRange
        XCTAssertEqual(provider.offset(from: documentRange.location, to: documentRange.endLocation), "One\nTwo words\nThree".utf16.count)
        let second = try XCTUnwrap(provider.location(documentRange.location, offsetBy: 4))
        // NSTextLayoutFragment.EnumerationOptions, with every case TextKit has.
        let options: TextLayoutFragment.EnumerationOptions = [.ensuresLayout, .ensuresExtraLineFragment, .estimatesSize]
        var seen: [String] = []
        textLayoutManager.enumerateTextLayoutFragments(from: second, options: options) { fragment in
            seen.append(fragment.paragraph.text)
            return true
        }
        XCTAssertEqual(seen, ["Two words", "Three"])
        // Locations compare; ranges contain, intersect and unite.
        XCTAssertEqual(documentRange.location.compare(second), .orderedAscending)
        XCTAssertEqual(second.compare(documentRange.location), .orderedDescending)
        XCTAssertEqual(second.compare(second), .orderedSame)
        let words = try XCTUnwrap(TextRange(location: second, end: provider.location(second, offsetBy: 3)))
        XCTAssertTrue(documentRange.contains(second))
        XCTAssertFalse(words.contains(documentRange.location))
        XCTAssertTrue(documentRange.contains(words))
        XCTAssertTrue(words.intersects(documentRange))
        XCTAssertEqual(words.union(documentRange), documentRange)
        XCTAssertEqual(words.intersection(documentRange), words)
        // The viewport controller is not optional; the container knows its layout manager.
        let viewportBounds = textLayoutManager.textViewportLayoutController.viewportBounds
        XCTAssertGreaterThanOrEqual(viewportBounds.height, 0)
        XCTAssertTrue(textLayoutManager.textContainer.textLayoutManager === textLayoutManager)
        // Code may make a content manager of its own.
        let own = TextContentManager()
        XCTAssertNil(own.location(documentRange.location, offsetBy: 1))
        XCTAssertTrue(own.textLayoutManagers.isEmpty)
    }

    /// `UITextViewDelegate.textViewDidChangeSelection(_:)`: told once for each change, whether
    /// the selection is set, moved by a key or moved by typing, and not for a setting that
    /// changes nothing.
    func testTheDelegateHearsEverySelectionChange() throws {
        final class Delegate: TextViewDelegate {
            var changes = 0
            func textViewDidChangeSelection(_ textView: TextView) { changes += 1 }
        }
        let textView = try view()
        let delegate = Delegate()
        textView.delegate = delegate
        let start = textView.textLayoutManager.documentRange.location
        textView.selectedTextRange = TextRange(location: start)
        XCTAssertEqual(delegate.changes, 1)
        textView.selectedTextRange = TextRange(location: start)
        XCTAssertEqual(delegate.changes, 1, "the same selection again is no change")
        try textView.insertText("Hi ")
        XCTAssertGreaterThan(delegate.changes, 1, "typing moves the caret")
        let typed = delegate.changes
        textView.selectedTextRange = nil
        XCTAssertEqual(delegate.changes, typed + 1)
    }

    func testBadIndexesAndRangesAreAnsweredNotTrapped() throws {
        let textView = try view()
        let manager = textView.textLayoutManager
        for index in [-1, 3, 999] {
            XCTAssertEqual(manager.ensureLayout(forParagraphAt: index).textLineFragments.count, 0, "\(index)")
            XCTAssertEqual(manager.fragment(forParagraphAt: index).paragraph.text, "")
            XCTAssertThrowsError(try textView.insertText("x", inParagraphAt: index, atCharacter: 0))
            XCTAssertThrowsError(try textView.deleteText(inParagraphAt: index, fromCharacter: 0, length: 1))
            XCTAssertThrowsError(try textView.deleteParagraph(at: index))
            XCTAssertThrowsError(try textView.splitParagraph(at: index, offset: 0))
        }
        manager.ensureLayout(forParagraphsIn: -5...999)
        XCTAssertThrowsError(try textView.insertText("x", inParagraphAt: 0, atCharacter: 99))
        XCTAssertThrowsError(try textView.deleteText(inParagraphAt: 0, fromCharacter: 2, length: 50))
        let nowhere = TextLocation(paragraph: ParagraphID(4242), offset: 3)
        XCTAssertNil(manager.textLayoutFragment(for: nowhere))
        XCTAssertNil(manager.location(nowhere, offsetBy: 1))
        XCTAssertNil(manager.location(manager.documentRange.location, offsetBy: 10_000))
        XCTAssertNil(manager.location(manager.documentRange.location, offsetBy: -1))
        XCTAssertEqual(manager.offset(from: nowhere, to: manager.documentRange.location), 0)
        XCTAssertNil(textView.caretRect(for: nowhere))
        var segments = 0
        manager.enumerateTextSegments(in: TextRange(start: nowhere, end: nowhere), type: .standard) { _, _, _, _ in segments += 1; return true }
        XCTAssertEqual(segments, 0)
        XCTAssertNil(manager.textContentStorage.textStorage?.attribute(.font, at: 10_000, effectiveRange: nil))
        // A text ending in a line break is as long as its string, as TextKit counts it.
        let text = TextDocument(attributedString: NSAttributedString(string: "a\nb\n"))
        let counted = TextView(document: text, viewportSize: CGSize(width: 300, height: 200)).textLayoutManager
        XCTAssertEqual(counted.offset(from: counted.documentRange.location, to: counted.documentRange.endLocation), 4)
    }
}
