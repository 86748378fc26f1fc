import XCTest
@testable import TextReel
@testable import TextReelMarkdown

/// The editing surface: carets by affinity, arrows through bidirectional text, the goal column,
/// grapheme clusters deleted whole, typing with the view following, and typing beside a video.
final class SelectionTests: XCTestCase {
    private func view(_ markdown: String, width: Double = 300, height: Double = 200) throws -> TextView {
        TextView(document: try TextDocument(markdown: markdown), viewportSize: CGSize(width: width, height: height))
    }

    func testACaretAtAWrapSitsOnTheLineItsAffinitySays() throws {
        let view = try view("These words wrap onto a second line because the view is narrow enough.")
        let fragment = view.textLayoutManager.ensureLayout(forParagraphAt: 0)
        let lines = fragment.textLineFragments
        XCTAssertGreaterThan(lines.count, 1)
        let wrap = lines[1].utf8Range.lowerBound
        let down = try XCTUnwrap(fragment.caretRect(atOffset: wrap, affinity: .downstream))
        let up = try XCTUnwrap(fragment.caretRect(atOffset: wrap, affinity: .upstream))
        XCTAssertEqual(down.midY, lines[1].typographicBounds.midY, accuracy: 1, "downstream: the next line's start")
        XCTAssertEqual(down.minX, lines[1].typographicBounds.minX, accuracy: 1)
        XCTAssertEqual(up.midY, lines[0].typographicBounds.midY, accuracy: 1, "upstream: the line before's end")
        XCTAssertGreaterThan(up.minX, lines[0].typographicBounds.midX)
    }

    func testRightArrowsWalkMixedLatinAndArabicVisually() throws {
        let view = try view("abc نصوص def", width: 600)
        let manager = view.textLayoutManager
        let id = manager.document.paragraphs[0].id
        var selection = TextSelection(TextLocation(paragraph: id, offset: 0))
        var xs: [Double] = [], offsets: [Int] = []
        for _ in 0..<20 {
            xs.append(try XCTUnwrap(view.caretRect(for: selection.head)).minX)
            offsets.append(selection.head.offset)
            guard let next = manager.textSelectionNavigation.destinationSelection(for: selection, direction: .right, destination: .character,
                                                                                  extending: false, confined: true),
                  next.head != selection.head else { break }
            selection = next
        }
        XCTAssertTrue(zip(xs, xs.dropFirst()).allSatisfy { $0 < $1 }, "every step goes right on screen: \(xs)")
        XCTAssertEqual(Set(offsets).count, offsets.count, "no position twice")
        XCTAssertEqual(offsets.count, 13, "every caret position of 12 characters, once")
        XCTAssertNotEqual(offsets, offsets.sorted(), "the Arabic run is walked against its text order")
    }

    func testUpAndDownKeepTheColumnAcrossShortLines() throws {
        let view = try view("A long first line of words here\n\nShort\n\nAnother long line of words here", width: 600)
        let manager = view.textLayoutManager
        let ids = manager.document.paragraphs.map(\.id)
        let start = TextSelection(TextLocation(paragraph: ids[0], offset: 20))
        let navigation = manager.textSelectionNavigation
        let down1 = try XCTUnwrap(navigation.destinationSelection(for: start, direction: .down, destination: .character, extending: false))
        XCTAssertEqual(down1.head, TextLocation(paragraph: ids[1], offset: 5), "the short line's end")
        let down2 = try XCTUnwrap(navigation.destinationSelection(for: down1, direction: .down, destination: .character, extending: false))
        XCTAssertEqual(down2.head.paragraph, ids[2])
        XCTAssertEqual(try XCTUnwrap(view.caretRect(for: down2.head)).minX, try XCTUnwrap(view.caretRect(for: start.head)).minX, accuracy: 4,
                       "back at the first column")
    }

    func testDeleteBackwardTakesWholeClusters() throws {
        let family = "👨‍👩‍👧", flag = "🇫🇷", combining = "e\u{301}"
        let view = try view("x\(family)\(flag)\(combining)")
        let id = view.document.paragraphs[0].id
        view.selectedTextRange = TextRange(location: TextLocation(paragraph: id, offset: view.document.paragraphs[0].text.utf16.count))
        var texts: [String] = []
        for _ in 0..<3 {
            try view.deleteBackward()
            texts.append(view.document.paragraphs[0].text)
        }
        XCTAssertEqual(texts, ["x\(family)\(flag)", "x\(family)", "x"])
        XCTAssertEqual(view.selectedTextRange?.start.offset, 1)
    }

    func testTypingAtTheEndOfTheDocumentScrollsToFollowTheCaret() throws {
        let markdown = (0..<40).map { "Paragraph \($0) with a few words." }.joined(separator: "\n\n")
        let view = try view(markdown)
        let script = try ScrollScript(data: Data("""
            {fps: 10, steps: [{select: {paragraph: 39, from: 30}}, {type: {text: " And more words typed at the end until the line wraps twice over.", rate: 40}}]}
            """.utf8))
        var caretsVisible = true
        try ScriptRunner(view: view, script: script).run { _, _, _ in
            if let caret = view.selectedTextRange.flatMap({ view.caretRect(for: $0.end) }) {
                caretsVisible = caretsVisible && view.visibleRect.contains(caret)
            }
        }
        XCTAssertTrue(caretsVisible, "the caret stays in the visible rect on every frame")
        XCTAssertTrue(view.document.paragraphs[39].text.hasSuffix("twice over."))
        let caret = try XCTUnwrap(view.caretRect(for: view.selectedTextRange!.end))
        XCTAssertEqual(caret.maxY, view.visibleRect.maxY - 8, accuracy: 0.5, "scrolled as little as keeps it 8 pt inside, as UITextView does")
    }

    /// The seed's case: typing in a playing video's paragraph keeps the video only with
    /// `.onEditingInlineParagraphs`.
    func testTypingBesideAPlayingVideoKeepsItOnlyWithThePolicy() throws {
        for (policies, kept) in [("[]", false), ("[\"onEditingInlineParagraphs\"]", true)] {
            let view = try view("Watch ![](video:clip?size=160x90&duration=20) now.", width: 400, height: 300)
            let script = try ScrollScript(data: Data("""
                {fps: 10, register: [{provider: "video", policies: \(policies)}],
                 steps: [{play: "clip"}, {wait: 1}, {select: {paragraph: 0, from: 5}}, {type: {text: "this", rate: 20}}, {wait: 0.2}]}
                """.utf8))
            try ScriptRunner(view: view, script: script).run { _, _, _ in }
            let position = (view.attachmentView(id: "clip") as? VideoAttachmentView)?.position ?? 0
            XCTAssertEqual(position > 1, kept, "policies \(policies): position \(position)")
            XCTAssertEqual(view.document.paragraphs[0].text, "Watchthis \u{FFFC} now.")
        }
    }

    /// Found by the explorer (shrunk): a caret above the viewport was laid out while drawing, so
    /// drawing only frames 7 to 13 gave other pixels than the full run. Drawing never lays out now.
    func testDrawingTheCaretLaysNothingOut() throws {
        let script = try ScrollScript(data: Data("""
            {viewport: {width: 400, height: 300, scale: 1}, fps: 30, steps: [
              {select: {paragraph: 0, from: 0}}, {scroll: {by: 298.9, duration: 0.001, curve: "linear"}},
              {edit: {paragraph: 0, insert: "Hello ", at: 0}}, {fling: {velocity: -28.856, deceleration: "normal"}}]}
            """.utf8))
        func digests(drawing range: ClosedRange<Int>?) throws -> [Int: Int] {
            let view = TextView(document: try TextDocument(contentsOf: Paths.demo), viewportSize: CGSize(width: 400, height: 300))
            var out: [Int: Int] = [:]
            try ScriptRunner(view: view, script: script).run(drawing: range) { number, frame, _ in out[number] = frame?.pixelDigest }
            return out
        }
        let full = try digests(drawing: nil), part = try digests(drawing: 7...13)
        for number in 7...13 { XCTAssertEqual(part[number], full[number], "frame \(number)") }
    }

    /// Edits move the selection with the text; deleting the caret's paragraph moves the caret to
    /// the one taking its place. (Without it the explorer found carets left in deleted paragraphs.)
    func testTheSelectionFollowsEdits() throws {
        let view = try view("first paragraph\n\nsecond one\n\nthird")
        let ids = view.document.paragraphs.map(\.id)
        view.selectedTextRange = TextRange(location: TextLocation(paragraph: ids[1], offset: 7))
        try view.insertText("my ", inParagraphAt: 1, atCharacter: 0)
        XCTAssertEqual(view.selectedTextRange?.start, TextLocation(paragraph: ids[1], offset: 10))
        try view.deleteText(inParagraphAt: 1, fromCharacter: 3, length: 7)
        XCTAssertEqual(view.selectedTextRange?.start, TextLocation(paragraph: ids[1], offset: 3))
        try view.deleteParagraph(at: 1)
        XCTAssertEqual(view.selectedTextRange?.start, TextLocation(paragraph: ids[2], offset: 0))
        try view.deleteParagraph(at: 1)
        XCTAssertEqual(view.selectedTextRange?.start, TextLocation(paragraph: ids[0], offset: 15), "the last one: the end of the one before")
        XCTAssertTrue(try view.renderFrame().pass!.checks.errors.isEmpty)
    }

    /// Found by the explorer (shrunk): a scroll after a reveal, in the same frame, takes over; the
    /// caret need not stay visible then, and no invariant breaks.
    func testAScrollAfterARevealTakesOver() throws {
        let script = try ScrollScript(data: Data("""
            {viewport: {width: 400, height: 300, scale: 1}, fps: 10, steps: [
              {edit: {insertParagraph: "## New heading", after: -1}}, {select: {paragraph: 3, from: 0}},
              {move: {direction: "forward", destination: "line"}}, {scroll: {toHeading: "Heading three", align: "bottom"}}]}
            """.utf8))
        let view = TextView(document: try TextDocument(contentsOf: Paths.demo), viewportSize: CGSize(width: 400, height: 300))
        try ScriptRunner(view: view, script: script).run { number, _, event in
            XCTAssertEqual(event.checks.errors, [], "frame \(number)")
        }
    }

    /// One tap places a caret, two select the word, three the paragraph; forward delete takes the
    /// cluster after the caret; reveal brings the selection back into view.
    func testTapsDeleteForwardAndReveal() throws {
        let view = try view("Tap the middle word here.\n\n" + (0..<30).map { "Filler \($0)." }.joined(separator: "\n\n"))
        _ = try view.renderFrame()
        let fragment = view.textLayoutManager.ensureLayout(forParagraphAt: 0)
        let line = fragment.textLineFragments[0].typographicBounds.offsetBy(dx: 0, dy: fragment.layoutFragmentFrame.minY)
        let tapX = try XCTUnwrap(view.caretRect(for: TextLocation(paragraph: fragment.paragraph.id, offset: 10))).midX
        func tap(_ count: Int) throws -> (String, String) {
            let script = try ScrollScript(data: Data("{steps: [{tap: {x: \(tapX), y: \(line.midY), count: \(count)}}]}".utf8))
            try ScriptRunner(view: view, script: script).run { _, _, _ in }
            let range = try XCTUnwrap(view.selectedTextRange)
            let text = Array(view.document.paragraphs[0].text.utf16)
            return (String(decoding: text[range.start.offset..<range.end.offset], as: UTF16.self), range.isEmpty ? "caret" : "range")
        }
        XCTAssertEqual(try tap(1).1, "caret")
        XCTAssertEqual(try tap(2).0, "middle")
        XCTAssertEqual(try tap(3).0, "Tap the middle word here.")
        view.selectedTextRange = TextRange(location: TextLocation(paragraph: fragment.paragraph.id, offset: 0))
        try view.deleteForward()
        XCTAssertEqual(view.document.paragraphs[0].text, "ap the middle word here.")
        let script = try ScrollScript(data: Data("{steps: [{scroll: {to: 600}}, {reveal: true}]}".utf8))
        try ScriptRunner(view: view, script: script).run { _, _, event in XCTAssertEqual(event.checks.errors, []) }
        XCTAssertTrue(view.visibleRect.contains(try XCTUnwrap(view.caretRect(for: view.selectedTextRange!.start))), "revealed")
    }

    /// Marked text replaces itself while composing, is underlined, and stays when committed.
    func testMarkedTextComposesThenCommits() throws {
        let view = try view("Write here: .")
        let id = view.document.paragraphs[0].id
        let script = try ScrollScript(data: Data("""
            {steps: [{select: {paragraph: 0, from: 12}}, {setMarkedText: "に"}, {setMarkedText: "日本語"}, {snapshot: "marked"}, {unmarkText: true}]}
            """.utf8))
        var marked: [LayoutRect]?
        try ScriptRunner(view: view, script: script).run { _, _, event in
            if event.snapshots == ["marked"] { marked = event.selection?.marked }
        }
        XCTAssertEqual(view.document.paragraphs[0].text, "Write here: 日本語.")
        XCTAssertEqual(marked?.count, 1, "one underline under the composed text")
        XCTAssertNil(view.textLayoutManager.textSelections.first?.markedTextRange, "committed")
        XCTAssertEqual(view.selectedTextRange?.start, TextLocation(paragraph: id, offset: 12 + "日本語".utf16.count))
    }

    /// Found by the typing benchmark: every typed version of a paragraph stayed in the surface
    /// cache as near the viewport as the live one, filled its budget, and pushed live surfaces
    /// out, so a caret moving after typing redrew two fragments a frame.
    func testTypingLeavesNoStaleSurfacesToPushLiveOnesOut() throws {
        let view = try view("# Title\n\nFirst paragraph.\n\nSecond paragraph.\n\nThird paragraph.", width: 400, height: 300)
        view.renderer.cache.budget = 1_000_000
        view.selectedTextRange = TextRange(location: TextLocation(paragraph: view.document.paragraphs[2].id))
        for _ in 0..<60 {
            try view.insertText("typed ")
            _ = try view.renderFrame()
        }
        for _ in 0..<3 {
            let moved = try XCTUnwrap(view.textLayoutManager.textSelectionNavigation.destinationSelection(
                for: view.textLayoutManager.textSelections[0], direction: .left, destination: .character, extending: false))
            view.textLayoutManager.textSelections = [moved]
            XCTAssertEqual(try view.renderFrame().pass?.counters.surfaceDraws, 0, "a caret move redraws no fragment")
        }
    }
}

extension SelectionTests {
    /// Found by the explorer (shrunk; reproduced here on the generated document, whose paragraph
    /// 24 is a block drawing taller than the resized view): a selection, then a resize, left the
    /// caret outside the visible rect. A resize keeps a visible caret visible, as UITextView keeps
    /// the selection in view when its bounds change, with or without a wait between; a caret
    /// taller than the view counts as shown from its top.
    func testAResizeKeepsTheCaretInView() throws {
        let document = try TextDocument(markdown: TextDocument.generatedMarkdown(paragraphs: 100))
        for between in ["", "{wait: 0.1}, "] {
            for size in ["width: 321.5, height: 100", "width: 400, height: 100"] {
                let view = TextView(document: document, viewportSize: CGSize(width: 400, height: 300))
                let script = try ScrollScript(data: Data("{steps: [{select: {paragraph: 24, from: 0}}, \(between){resize: {\(size)}}]}".utf8))
                var last: FrameEvent?
                try ScriptRunner(view: view, script: script).run { _, _, event in
                    XCTAssertFalse(event.checks.caretHidden, "frame \(event.frame) of \(between)\(size)")
                    last = event
                }
                let caret = try XCTUnwrap(last?.selection?.caret), visible = try XCTUnwrap(last?.viewport)
                XCTAssertTrue(caret.y >= visible.y - 0.5 && caret.y < visible.y + visible.height, "the caret's top is in view: \(caret) in \(visible)")
            }
        }
    }
}
