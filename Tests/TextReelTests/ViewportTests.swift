import XCTest
@testable import TextReel
@testable import TextReelMarkdown

/// Records the delegate calls it sees, calling super each time.
final class RecordingTextView: TextView {
    var calls: [String] = []
    var rangeInDidLayout: TextRange?

    override func textViewportLayoutControllerWillLayout(_ controller: TextViewportLayoutController) {
        super.textViewportLayoutControllerWillLayout(controller)
        calls.append("willLayout")
    }
    override func textViewportLayoutController(_ controller: TextViewportLayoutController,
                                               configureRenderingSurfaceFor fragment: TextLayoutFragment) {
        super.textViewportLayoutController(controller, configureRenderingSurfaceFor: fragment)
        calls.append("configure:\(fragment.paragraph.id.rawValue)")
    }
    override func textViewportLayoutControllerDidLayout(_ controller: TextViewportLayoutController) {
        super.textViewportLayoutControllerDidLayout(controller)
        calls.append("didLayout")
        rangeInDidLayout = controller.viewportRange
    }
}

/// Paints a red band over every heading's fragment.
final class HighlightingTextView: TextView {
    override func textViewportLayoutController(_ controller: TextViewportLayoutController,
                                               configureRenderingSurfaceFor fragment: TextLayoutFragment) {
        super.textViewportLayoutController(controller, configureRenderingSurfaceFor: fragment)
        if case .heading = fragment.paragraph.kind {
            decorate(fragment, with: .fill(CGRect(x: 0, y: 0, width: 8, height: fragment.layoutFragmentFrame.height),
                                           Color(1, 0, 0)))
        }
    }
}

final class ForgetfulWillLayout: TextView {
    override func textViewportLayoutControllerWillLayout(_ controller: TextViewportLayoutController) {}
}

final class ForgetfulConfigure: TextView {
    override func textViewportLayoutController(_ controller: TextViewportLayoutController,
                                               configureRenderingSurfaceFor fragment: TextLayoutFragment) {}
}

final class ForgetfulDidLayout: TextView {
    override func textViewportLayoutControllerDidLayout(_ controller: TextViewportLayoutController) {}
}

final class EagerReader: TextView {
    var readInWillLayout = true
    override func textViewportLayoutControllerWillLayout(_ controller: TextViewportLayoutController) {
        super.textViewportLayoutControllerWillLayout(controller)
        if readInWillLayout { _ = controller.viewportRange }
    }
    override func textViewportLayoutController(_ controller: TextViewportLayoutController,
                                               configureRenderingSurfaceFor fragment: TextLayoutFragment) {
        super.textViewportLayoutController(controller, configureRenderingSurfaceFor: fragment)
        if !readInWillLayout { _ = controller.viewportBounds }
    }
}

final class ViewportTests: XCTestCase {
    let size = CGSize(width: 800, height: 600)

    func testCallOrderAndConfigureOncePerFragmentInTheViewport() throws {
        let view = RecordingTextView(document: .generated(paragraphs: 3000), viewportSize: size)
        view.contentOffset = CGPoint(x: 0, y: 5000)
        _ = try view.renderFrame()
        XCTAssertEqual(view.calls.first, "willLayout")
        XCTAssertEqual(view.calls.last, "didLayout")
        XCTAssertEqual(view.calls, view.lastPassLog)
        let configured = view.calls.dropFirst().dropLast().map { Int($0.dropFirst("configure:".count))! }
        XCTAssertEqual(Set(configured).count, configured.count, "once per fragment")

        // Exactly the fragments intersecting the viewport bounds, top to bottom.
        let controller = view.textViewportLayoutController
        let bounds = controller.viewportBounds
        let manager = view.textLayoutManager
        var expected: [Int] = []
        for index in 0..<manager.paragraphCount {
            let frame = manager.fragment(forParagraphAt: index).layoutFragmentFrame
            if frame.maxY > bounds.minY && frame.minY < bounds.maxY { expected.append(manager.document.paragraphs[index].id.rawValue) }
        }
        XCTAssertEqual(configured, expected)
        XCTAssertTrue(bounds.contains(view.visibleRect))
        XCTAssertEqual(bounds.height, 600 * 2, accuracy: 0.001, "half the visible height above and below")
        XCTAssertEqual(view.rangeInDidLayout?.start.paragraph.rawValue, configured.first)
        XCTAssertEqual(view.rangeInDidLayout?.end.paragraph.rawValue, configured.last)
    }

    func testOnlyTheViewportIsShaped() throws {
        let view = TextView(document: .generated(paragraphs: 20000), viewportSize: size)
        _ = try view.renderFrame()
        let shaped = view.textLayoutManager.measuredParagraphCount
        XCTAssertGreaterThan(shaped, 5)
        XCTAssertLessThan(shaped, 60)
    }

    func testSubclassDrawsExtraInConfigure() throws {
        let view = HighlightingTextView(document: try TextDocument(contentsOf: Paths.demo), viewportSize: size)
        let frame = try view.renderFrame()
        let heading = view.textLayoutManager.fragment(forParagraphAt: 0).layoutFragmentFrame
        let red = frame.pixel(x: 3, y: Int(heading.midY))
        XCTAssertEqual(red.red, 255)
        XCTAssertEqual(red.green, 0)
        let plain = try TextView(document: try TextDocument(contentsOf: Paths.demo), viewportSize: size).renderFrame()
        XCTAssertEqual(plain.pixel(x: 3, y: Int(heading.midY)).green, 255, "nothing there without the override")
    }

    func testForgettingSuperIsAClearError() {
        let document = try! TextDocument(markdown: "Hello")
        let cases: [(TextView, String)] = [
            (ForgetfulWillLayout(document: document, viewportSize: size), "textViewportLayoutControllerWillLayout(_:)"),
            (ForgetfulConfigure(document: document, viewportSize: size), "textViewportLayoutController(_:configureRenderingSurfaceFor:)"),
            (ForgetfulDidLayout(document: document, viewportSize: size), "textViewportLayoutControllerDidLayout(_:)"),
        ]
        for (view, method) in cases {
            XCTAssertThrowsError(try view.renderFrame()) { error in
                XCTAssertEqual(error as? TextViewError, .missingSuperCall(method: method))
                XCTAssertTrue("\(error)".contains("super"))
            }
        }
    }

    func testReadingStateBeforeDidLayoutIsAClearError() throws {
        let document = try TextDocument(markdown: "Hello")
        let early = EagerReader(document: document, viewportSize: size)
        XCTAssertThrowsError(try early.renderFrame()) { error in
            XCTAssertEqual(error as? TextViewError, .stateReadBeforeDidLayout(
                property: "viewportRange", method: "textViewportLayoutControllerWillLayout(_:)"))
        }
        let configuring = EagerReader(document: document, viewportSize: size)
        configuring.readInWillLayout = false
        XCTAssertThrowsError(try configuring.renderFrame()) { error in
            XCTAssertEqual(error as? TextViewError, .stateReadBeforeDidLayout(
                property: "viewportBounds", method: "textViewportLayoutController(_:configureRenderingSurfaceFor:)"))
        }
        // In didLayout (RecordingTextView) and after the pass, reading is fine.
        let fine = RecordingTextView(document: document, viewportSize: size)
        XCTAssertNoThrow(try fine.renderFrame())
        XCTAssertNotNil(fine.rangeInDidLayout)
        XCTAssertNotNil(fine.textViewportLayoutController.viewportRange)
    }

    func testAbsoluteScrollsLandExactlyInALargeDocument() throws {
        let view = TextView(document: .generated(paragraphs: 6000), viewportSize: size)
        _ = try view.renderFrame()
        view.textViewportLayoutController.relocateViewport(to: TextLocation(paragraph: ParagraphID(3500)))
        _ = try view.renderFrame()
        let fragment = view.textLayoutManager.fragment(forParagraphAt: 3500)
        XCTAssertEqual(view.contentOffset.y, fragment.layoutFragmentFrame.minY)
        XCTAssertEqual(view.textViewportLayoutController.textLayoutFragments.first { $0.layoutFragmentFrame.maxY > view.contentOffset.y }?.paragraph.id,
                       ParagraphID(3500))
        view.contentOffset = CGPoint(x: 0, y: 123_456)
        _ = try view.renderFrame()
        XCTAssertEqual(view.contentOffset.y, 123_456)
    }

    /// Scrolling up from the middle of a document measures paragraphs above the anchor, which
    /// corrects estimates; consecutive frames must still show the same content shifted by exactly
    /// the scroll delta.
    func testCorrectionsDoNotMoveVisibleContent() throws {
        // Without attachments: loading views would change between frames on their own.
        let view = TextView(document: .generated(paragraphs: 4000, attachments: false), viewportSize: size)
        view.overdraw = 0.25
        view.exactScrollLayoutLimit = 0
        view.contentOffset = CGPoint(x: 0, y: 60_000)
        var previous = try view.renderFrame()
        var corrections = 0.0
        let delta = 41
        for _ in 0..<30 {
            view.scroll(by: Double(-delta))
            let frame = try view.renderFrame()
            corrections += abs(view.lastCorrection)
            XCTAssertEqual(frame.rgbRows(delta..<600), previous.rgbRows(0..<(600 - delta)),
                           "the content moved by something other than the scroll delta")
            previous = frame
        }
        XCTAssertGreaterThan(corrections, 0, "the test must see estimates being corrected")
    }

    func testEditsAboveTheViewportKeepVisibleContentStill() throws {
        // Without attachments: loading views would change between frames on their own.
        let view = TextView(document: .generated(paragraphs: 400, attachments: false, format: MarkdownFormat()), viewportSize: size)
        view.contentOffset = CGPoint(x: 0, y: 8000)
        let before = try view.renderFrame()
        let firstVisible = view.textViewportLayoutController.textLayoutFragments.first!
        let index = view.textLayoutManager.index(of: firstVisible.paragraph.id)!
        let offset = view.contentOffset.y

        try view.insertText(String(repeating: "inserted words that wrap onto more lines ", count: 8),
                            inParagraphAt: index - 3, atCharacter: 0)
        try view.insertParagraphs(markdown: "# A new heading\n\nAnd a new paragraph.", after: index - 6)
        try view.deleteParagraph(at: index - 10)
        let after = try view.renderFrame()
        XCTAssertNotEqual(view.contentOffset.y, offset, "the offset absorbed the change")
        XCTAssertEqual(after.rgbRows(0..<600), before.rgbRows(0..<600))
    }

    func testEnumerationOptions() throws {
        let view = TextView(document: .generated(paragraphs: 100), viewportSize: size)
        let manager = view.textLayoutManager
        var states: [TextLayoutFragment.State] = []
        manager.enumerateTextLayoutFragments(from: nil, options: .estimatesSize) { states.append($0.state); return states.count < 5 }
        XCTAssertEqual(states, Array(repeating: .estimatedUsageBounds, count: 5))

        var reverse: [Int] = []
        let stop = manager.enumerateTextLayoutFragments(from: TextLocation(paragraph: ParagraphID(50)), options: [.reverse, .ensuresLayout]) {
            reverse.append($0.paragraph.id.rawValue)
            XCTAssertEqual($0.state, .layoutAvailable)
            return reverse.count < 3
        }
        XCTAssertEqual(reverse, [49, 48, 47], "reverse starts before the location")
        XCTAssertEqual(stop, TextLocation(paragraph: ParagraphID(47)))
        XCTAssertEqual(manager.measuredParagraphCount, 3)

        let height = manager.usageBoundsForTextContainer.height
        manager.ensureLayout(forParagraphsIn: 0...99)
        XCTAssertEqual(manager.measuredParagraphCount, 100)
        XCTAssertNotEqual(manager.usageBoundsForTextContainer.height, height, "estimates replaced by measurements")
        manager.invalidateLayout(for: TextRange(start: TextLocation(paragraph: ParagraphID(10)), end: TextLocation(paragraph: ParagraphID(12))))
        XCTAssertEqual(manager.fragment(forParagraphAt: 11).state, .estimatedUsageBounds)
    }
}

final class FarJumpTests: XCTestCase {
    /// A far jump anchors to its target: it shapes one viewport (plus overdraw), whatever the
    /// distance, and the next frames scroll on from there with no jump.
    func testFarJumpsLayOutOneViewport() throws {
        let document = TextDocument.generated(paragraphs: 20_000)
        let view = TextView(document: document, viewportSize: CGSize(width: 800, height: 600))
        let script = try ScrollScript(data: Data("{fps: 30, steps: [{scroll: {toParagraph: 15000}}, {scroll: {by: 900, duration: 1}}]}".utf8))
        var events: [FrameEvent] = []
        try ScriptRunner(view: view, script: script).run(drawing: 0...0) { _, _, event in events.append(event) }
        XCTAssertLessThan(events[0].laidOut.count, 60, "the landing frame shapes what it shows, not 15,000 paragraphs")
        XCTAssertEqual(events[0].fragments.first { $0.frame.y + $0.frame.height > events[0].viewport.y }?.index, 15000)
        XCTAssertEqual(events[0].fragments.first { $0.index == 15000 }?.frame.y, events[0].viewport.y, "paragraph 15000 at the top")
        for event in events {
            XCTAssertEqual(event.checks.errors, [])
            XCTAssertEqual(event.checks.jump, 0, "frame \(event.frame)")
        }
    }

    /// Measuring (heights only, the fragments not kept) gives the heights laying out does.
    func testExactScrollsMeasureWhatLayoutGives() throws {
        let document = TextDocument.generated(paragraphs: 5000)
        let measured = TextView(document: document, viewportSize: CGSize(width: 640, height: 480))
        measured.textLayoutManager.measure(paragraphsIn: 0...3999)
        let serial = TextView(document: document, viewportSize: CGSize(width: 640, height: 480))
        serial.textLayoutManager.ensureLayout(forParagraphsIn: 0...3999)
        for index in stride(from: 0, through: 4000, by: 97) {
            XCTAssertEqual(measured.textLayoutManager.y(ofParagraphAt: index), serial.textLayoutManager.y(ofParagraphAt: index), "paragraph \(index)")
        }
        XCTAssertEqual(measured.textLayoutManager.measuredParagraphCount, 4000)
    }
}
