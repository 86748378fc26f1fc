import XCTest
@testable import TextReel
@testable import TextReelMarkdown

/// Segment geometry as TextKit 2 code asks for it, line fragments' hit testing, what a delete
/// removes, and deletes that join paragraphs.
final class SegmentTests: XCTestCase {
    private func view(_ markdown: String, width: Double = 300, height: Double = 400) throws -> TextView {
        TextView(document: try TextDocument(markdown: markdown), viewportSize: CGSize(width: width, height: height))
    }

    private let wrapping = "These words wrap onto a second and a third line because the view is narrow enough to make them."

    /// The selection-drawing loop of TextKit 2 editors, ported by renaming only.
    private func selectionFrames(_ textLayoutManager: TextLayoutManager, _ textRange: TextRange,
                                 options: TextLayoutManager.SegmentOptions = .rangeNotRequired) -> [CGRect] {
        var highlightFrames: [CGRect] = []
        textLayoutManager.enumerateTextSegments(in: textRange, type: .selection, options: options) { _, segmentFrame, _, _ in
            highlightFrames.append(segmentFrame)
            return true
        }
        return highlightFrames
    }

    func testSelectionSegmentsFillTheLinesARangeGoesOnFrom() throws {
        let view = try view(wrapping)
        let manager = view.textLayoutManager
        let fragment = manager.ensureLayout(forParagraphAt: 0)
        let lines = fragment.textLineFragments
        XCTAssertGreaterThanOrEqual(lines.count, 3)
        let id = fragment.paragraph.id
        let range = TextRange(start: TextLocation(paragraph: id, offset: 8), end: TextLocation(paragraph: id, offset: lines[2].utf8Range.lowerBound + 4))
        let frames = selectionFrames(manager, range)
        XCTAssertEqual(frames.count, 3, "one segment per line")
        // The text column: the fragment's frame inside the theme's insets.
        let insets = view.theme.insets
        let frame = fragment.layoutFragmentFrame.inset(by: insets)
        XCTAssertGreaterThan(frames[0].minX, frame.minX + 10, "the head starts where the range does")
        XCTAssertEqual(frames[0].maxX, frame.maxX, accuracy: 0.01, "a line the range goes on from is filled to the column's edge")
        XCTAssertEqual(frames[1].minX, frame.minX, accuracy: 0.01)
        XCTAssertEqual(frames[1].maxX, frame.maxX, accuracy: 0.01)
        XCTAssertEqual(frames[2].minX, frame.minX, accuracy: 0.01)
        XCTAssertLessThan(frames[2].maxX, frame.midX, "the tail ends where the range does")
        XCTAssertEqual(frames[0].maxY, frames[1].minY, accuracy: 0.01, "no gap between lines")
        // Highlight segments are the text's own extents, no wider.
        var highlights: [CGRect] = []
        manager.enumerateTextSegments(in: range, type: .highlight) { segmentRange, rect, _, _ in
            XCTAssertNotNil(segmentRange, "a range unless .rangeNotRequired")
            highlights.append(rect)
            return true
        }
        XCTAssertEqual(highlights.count, 3)
        XCTAssertLessThan(highlights[0].maxX, frame.maxX - 0.5)
        XCTAssertEqual(selectionFrames(manager, range, options: [.rangeNotRequired, .middleFragmentsExcluded]).count, 2, "head and tail only")
        let extended = selectionFrames(manager, range, options: [.headSegmentExtended, .tailSegmentExtended])
        XCTAssertEqual(extended.first?.minX ?? 0, frame.minX, accuracy: 0.01)
        XCTAssertEqual(extended.last?.maxX ?? 0, frame.maxX, accuracy: 0.01)
        var stoppedAfter = 0
        manager.enumerateTextSegments(in: range, type: .selection) { _, _, _, _ in stoppedAfter += 1; return false }
        XCTAssertEqual(stoppedAfter, 1, "false stops the enumeration")
    }

    func testAnEmptyRangeIsACaretSegmentOnTheLineItsAffinitySays() throws {
        let view = try view(wrapping)
        let manager = view.textLayoutManager
        let fragment = manager.ensureLayout(forParagraphAt: 0)
        let wrap = fragment.textLineFragments[1].utf8Range.lowerBound
        let caret = TextRange(location: TextLocation(paragraph: fragment.paragraph.id, offset: wrap))
        var down: [CGRect] = [], up: [CGRect] = [], baseline: CGFloat = 0
        manager.enumerateTextSegments(in: caret, type: .standard) { _, rect, b, _ in down.append(rect); baseline = b; return true }
        manager.enumerateTextSegments(in: caret, type: .standard, options: .upstreamAffinity) { _, rect, _, _ in up.append(rect); return true }
        XCTAssertEqual(down.count, 1)
        XCTAssertEqual(down[0].width, 0)
        XCTAssertGreaterThan(down[0].minY, up[0].minY, "downstream: the next line")
        XCTAssertGreaterThan(up[0].minX, down[0].minX, "upstream: the end of the line before")
        XCTAssertGreaterThan(baseline, 0)
        XCTAssertLessThanOrEqual(baseline, down[0].height)
    }

    func testSegmentsAcrossParagraphsCoverTheBreakAndRightToLeftFillsFromTheRight() throws {
        let view = try view("First paragraph here.\n\nنص عربي قصير\n\nThird.", width: 400)
        let manager = view.textLayoutManager
        manager.ensureLayout(forParagraphsIn: 0...2)
        let ids = manager.document.paragraphs.map(\.id)
        let range = TextRange(start: TextLocation(paragraph: ids[0], offset: 6), end: TextLocation(paragraph: ids[2], offset: 3))
        let frames = selectionFrames(manager, range)
        XCTAssertEqual(frames.count, 3)
        let insets = view.theme.insets
        let arabic = manager.ensureLayout(forParagraphAt: 1).layoutFragmentFrame.inset(by: insets)
        XCTAssertEqual(frames[0].maxX, manager.ensureLayout(forParagraphAt: 0).layoutFragmentFrame.inset(by: insets).maxX, accuracy: 0.01)
        XCTAssertEqual(frames[1].minX, arabic.minX, accuracy: 0.01, "a paragraph gone through is filled")
        XCTAssertEqual(frames[1].maxX, arabic.maxX, accuracy: 0.01)
        XCTAssertTrue(zip(frames, frames.dropFirst()).allSatisfy { $0.maxY <= $1.minY + 0.01 }, "in order, not overlapping")
    }

    func testLineFragmentsHitTestAndLocateTheirCharacters() throws {
        let view = try view(wrapping)
        let fragment = view.textLayoutManager.ensureLayout(forParagraphAt: 0)
        for line in fragment.textLineFragments {
            let middle = line.characterRange.lowerBound + 3
            let point = line.locationForCharacter(at: middle)
            XCTAssertEqual(line.characterIndex(for: point), middle, "the caret position at a character's location is that character")
            XCTAssertEqual(point.y, line.glyphOrigin.y - line.typographicBounds.minY, accuracy: 0.01, "on the baseline")
            XCTAssertEqual(line.characterIndex(for: CGPoint(x: -50, y: 0)), line.characterRange.lowerBound, "left of the line: its start")
            XCTAssertLessThanOrEqual(line.characterIndex(for: CGPoint(x: 5_000, y: 0)), line.characterRange.upperBound, "confined to the line")
        }
    }

    func testDeletionRangesTakeClustersAndDecomposeMarksOnlyWhenAllowed() throws {
        let text = "ae\u{301}👨‍👩‍👧"
        let view = try view(text)
        let manager = view.textLayoutManager
        let id = manager.document.paragraphs[0].id
        let navigation = manager.textSelectionNavigation
        let afterAccent = TextSelection(TextLocation(paragraph: id, offset: "ae\u{301}".utf16.count))
        let whole = navigation.deletionRanges(for: afterAccent, direction: .backward, destination: .character, allowsDecomposition: false)
        XCTAssertEqual(whole, [TextRange(start: TextLocation(paragraph: id, offset: 1), end: afterAccent.head)], "e and its accent")
        let mark = navigation.deletionRanges(for: afterAccent, direction: .backward, destination: .character, allowsDecomposition: true)
        XCTAssertEqual(mark, [TextRange(start: TextLocation(paragraph: id, offset: 2), end: afterAccent.head)], "the accent alone")
        let end = TextSelection(TextLocation(paragraph: id, offset: text.utf16.count))
        XCTAssertEqual(navigation.deletionRanges(for: end, direction: .backward, destination: .character, allowsDecomposition: true).first?.start.offset,
                       afterAccent.head.offset, "a ZWJ sequence never decomposes")
        XCTAssertEqual(navigation.deletionRanges(for: end, direction: .backward, destination: .word).first?.start.offset, 0)
        XCTAssertEqual(navigation.deletionRanges(for: end, direction: .forward, destination: .character), [], "nothing after the end")
    }

    /// Found by the explorer (shrunk): backspace at the end of an Arabic paragraph joined it to
    /// the next, as if backward were visual. Forward and backward are logical in every script.
    func testBackspaceAtTheEndOfARightToLeftParagraphDeletesItsLastCharacter() throws {
        let view = try view("نص عربي قصير.\n\nNext paragraph.")
        let manager = view.textLayoutManager
        let id = manager.document.paragraphs[0].id
        view.selectedTextRange = TextRange(location: TextLocation(paragraph: id, offset: manager.document.paragraphs[0].text.utf16.count))
        try view.deleteBackward()
        XCTAssertEqual(manager.document.paragraphs.map(\.text), ["نص عربي قصير", "Next paragraph."])
        let start = TextSelection(TextLocation(paragraph: id, offset: 0))
        XCTAssertEqual(manager.textSelectionNavigation.destinationSelection(for: start, direction: .forward, destination: .character, extending: false)?.head.offset,
                       "ن".utf16.count, "forward is the text's order")
        XCTAssertEqual(manager.textSelectionNavigation.destinationSelection(for: start, direction: .left, destination: .character, extending: false,
                                                                             confined: true)?.head.offset, "ن".utf16.count, "left goes forward in right-to-left text")
    }

    func testSentencesAreADestination() throws {
        let view = try view("One sentence here. Another one follows. And a third.", width: 800)
        let manager = view.textLayoutManager
        let id = manager.document.paragraphs[0].id
        let start = TextSelection(TextLocation(paragraph: id, offset: 3))
        let next = try XCTUnwrap(manager.textSelectionNavigation.destinationSelection(for: start, direction: .forward, destination: .sentence, extending: true))
        XCTAssertEqual(next.textRanges[0].end.offset, "One sentence here.".utf8.count, "to the sentence's end")
        let back = try XCTUnwrap(manager.textSelectionNavigation.destinationSelection(for: TextSelection(TextLocation(paragraph: id, offset: 30)),
                                                                                      direction: .backward, destination: .sentence, extending: false))
        XCTAssertEqual(back.head.offset, "One sentence here. ".utf8.count, "to its start")
    }

    func testDeletesAtAParagraphsEdgeAndAcrossParagraphsJoinThem() throws {
        let view = try view("# Title\n\nFirst *part*.\n\nMiddle.\n\nLast part.")
        let manager = view.textLayoutManager
        var ids = manager.document.paragraphs.map(\.id)
        view.selectedTextRange = TextRange(location: TextLocation(paragraph: ids[2]))
        try view.deleteBackward()
        XCTAssertEqual(manager.paragraphCount, 3)
        XCTAssertEqual(manager.document.paragraphs[1].text, "First part.Middle.", "backspace at a paragraph's start joins it to the one before")
        XCTAssertEqual(view.selectedTextRange, TextRange(location: TextLocation(paragraph: ids[1], offset: "First part.".utf8.count)))
        XCTAssertEqual(manager.document.paragraphs[1].runs.first { $0.style.contains(.emphasis) }?.range, 6..<10, "runs keep their place")
        ids = manager.document.paragraphs.map(\.id)
        view.selectedTextRange = TextRange(location: TextLocation(paragraph: ids[1], offset: manager.document.paragraphs[1].text.utf8.count))
        try view.deleteForward()
        XCTAssertEqual(manager.document.paragraphs.map(\.text), ["Title", "First part.Middle.Last part."], "forward delete at the end joins the next")
        view.selectedTextRange = TextRange(start: TextLocation(paragraph: ids[0], offset: 2), end: TextLocation(paragraph: ids[1], offset: 6))
        try view.insertText("X")
        XCTAssertEqual(manager.document.paragraphs.map(\.text), ["TiXpart.Middle.Last part."], "typing over a selection across paragraphs")
        XCTAssertEqual(view.selectedTextRange, TextRange(location: TextLocation(paragraph: ids[0], offset: 3)))
        XCTAssertEqual(try view.layoutPass().checks.errors, [])
        // A selection set from Swift past a paragraph's end is clamped, not a crash.
        try view.insertText("\nTail")
        let now = manager.document.paragraphs.map(\.id)
        view.selectedTextRange = TextRange(start: TextLocation(paragraph: now[0], offset: 500), end: TextLocation(paragraph: now[1], offset: 2))
        try view.deleteBackward()
        XCTAssertEqual(manager.paragraphCount, 1)
    }

    func testReturnBreaksTheParagraphAndItsAttachmentGoesWithTheText() throws {
        let view = try view("# Head\n\nWatch ![](video:clip?size=80x45&duration=5) *now* please.")
        let manager = view.textLayoutManager
        let id = manager.document.paragraphs[1].id
        view.selectedTextRange = TextRange(location: TextLocation(paragraph: id, offset: "Watch".utf8.count))
        try view.insertText("!\nThen")
        XCTAssertEqual(manager.document.paragraphs.map(\.text), ["Head", "Watch!", "Then \u{FFFC} now please."])
        let tail = manager.document.paragraphs[2]
        XCTAssertEqual(tail.attachments.map(\.id), ["clip"], "the attachment goes with the text after the break")
        XCTAssertEqual(tail.attachments.first?.utf8Offset, "Then ".utf8.count)
        XCTAssertEqual(tail.runs.first { $0.style.contains(.emphasis) }.map { String(tail.text.utf8.dropFirst($0.range.lowerBound).prefix($0.range.count)) }, "now")
        XCTAssertEqual(view.selectedTextRange, TextRange(location: TextLocation(paragraph: tail.id, offset: 4)), "the caret after what was typed")
        XCTAssertEqual(tail.kind, .body)
        view.selectedTextRange = TextRange(location: TextLocation(paragraph: manager.document.paragraphs[0].id, offset: 4))
        try view.insertText("\n")
        XCTAssertEqual(manager.document.paragraphs[1].kind, .body, "Return at a heading's end starts body text")
        try view.deleteBackward()
        XCTAssertEqual(manager.document.paragraphs.map(\.text), ["Head", "Watch!", "Then \u{FFFC} now please."], "and backspace joins them again")
        XCTAssertEqual(try view.layoutPass().checks.errors, [])
    }

    func testTheCaretBlinksOnlyWhenAskedAndNotWithoutFocus() throws {
        let view = try view("Some text to put a caret in.")
        let id = view.document.paragraphs[0].id
        let bare = try view.renderFrame().pixelDigest
        view.selectedTextRange = TextRange(location: TextLocation(paragraph: id, offset: 4))
        let steady = try view.renderFrame().pixelDigest
        XCTAssertNotEqual(steady, bare, "the caret is drawn")
        view.caretBlinkInterval = 0.4
        var digests: [Int] = []
        for time in [0.1, 0.25, 0.45, 0.65] {
            view.time = time
            digests.append(try view.renderFrame().pixelDigest)
        }
        XCTAssertEqual(digests, [steady, bare, steady, bare], "on for the first half of each 0.4 s, from when the caret stopped moving")
        view.time = 0.85
        view.isFocused = false
        XCTAssertEqual(try view.renderFrame().pixelDigest, bare, "no caret without the focus")
        view.selectedTextRange = TextRange(start: TextLocation(paragraph: id, offset: 0), end: TextLocation(paragraph: id, offset: 4))
        let unfocused = try view.renderFrame()
        view.isFocused = true
        let focused = try view.renderFrame()
        let inside = (x: Int(view.caretRect(for: TextLocation(paragraph: id, offset: 2))!.minX), y: Int(view.caretRect(for: TextLocation(paragraph: id, offset: 2))!.midY))
        XCTAssertNotEqual(unfocused.pixel(x: inside.x, y: inside.y - 6).blue, focused.pixel(x: inside.x, y: inside.y - 6).blue,
                          "the highlight's colour follows the focus")
    }

    /// Found by the explorer (shrunk): in a view 100 pt wide a word overflows the column, and
    /// the highlight went past the fragment. It keeps to the fragment, as far as the view shows.
    func testTheHighlightKeepsToItsFragmentWhenTextOverflowsANarrowView() throws {
        let view = TextView(document: try TextDocument(contentsOf: Paths.root.appendingPathComponent("Fixtures/documents/demo.md")),
                            viewportSize: CGSize(width: 400, height: 300))
        let script = try ScrollScript(data: Data("{fps: 10, steps: [{resize: {width: 100, height: 100}}, {select: {paragraph: 21, from: 0, to: 20}}]}".utf8))
        var errors: [String] = []
        try ScriptRunner(view: view, script: script).run { _, _, event in errors += event.checks.errors }
        XCTAssertEqual(errors, [])
        XCTAssertFalse(try XCTUnwrap(view.lastPass?.selection).highlight.isEmpty, "still highlighted")
    }

    func testACaretHiddenAfterARevealBreaksItsBudget() throws {
        var event = FrameEvent(frame: 4, time: 0, pass: try view("Some text.").layoutPass(), edits: [], snapshots: [])
        event.checks.caretHidden = true
        event.selection = LayoutPass.Selection(start: [2, 5], end: [2, 5], affinity: "downstream", caret: nil, highlight: [], marked: nil)
        XCTAssertEqual(Budget().violations(of: event).map(\.check), ["caretHidden"])
        XCTAssertEqual(try Budget(parsing: "caretHidden=true").violations(of: event), [], "allowed when the budget says so")
        event.checks.caretHidden = false
        XCTAssertEqual(Budget().violations(of: event), [])
    }
}

private extension CGRect {
    /// The rect inside `insets`' left and right.
    func inset(by insets: Theme.Insets) -> CGRect {
        CGRect(x: minX + insets.left, y: minY, width: width - insets.left - insets.right, height: height)
    }
}
