import XCTest
@testable import TextReel
@testable import TextReelMarkdown

/// The TextKit conveniences STTextView- and Runestone-style code calls, and the attachment view
/// lifecycle.
final class ConveniencesTests: XCTestCase {
    private let size = CGSize(width: 400, height: 300)

    func testFragmentsByPointRangesAndTheController() throws {
        let view = TextView(document: .generated(paragraphs: 200), viewportSize: size)
        _ = try view.renderFrame()
        let manager = view.textLayoutManager
        XCTAssertTrue(manager.textViewportLayoutController === view.textViewportLayoutController)
        let third = manager.ensureLayout(forParagraphAt: 3)
        let hit = manager.textLayoutFragment(for: CGPoint(x: 50, y: third.layoutFragmentFrame.midY))
        XCTAssertEqual(hit?.paragraph.id, third.paragraph.id)
        XCTAssertNil(manager.textLayoutFragment(for: CGPoint(x: 50, y: -10)))
        let range = try XCTUnwrap(TextRange(location: TextLocation(paragraph: manager.document.paragraphs[150].id),
                                            end: TextLocation(paragraph: manager.document.paragraphs[152].id)))
        XCTAssertFalse(manager.isMeasured(paragraphAt: 151))
        manager.ensureLayout(for: range)
        XCTAssertTrue((150...152).allSatisfy(manager.isMeasured(paragraphAt:)))
        XCTAssertEqual(range.location, range.start)
        XCTAssertEqual(range.endLocation, range.end)
        XCTAssertTrue(TextRange(location: range.location).isEmpty)
    }

    /// relocateViewport returns TextKit's origin; the view clamps it at the end, as UIScrollView
    /// clamps contentOffset, and says so in its documentation.
    func testRelocateViewportReturnsTheOriginAndTheViewClampsIt() throws {
        let view = TextView(document: .generated(paragraphs: 60), viewportSize: size)
        _ = try view.renderFrame()
        let last = view.textLayoutManager.document.paragraphs.last!.id
        let origin = view.textViewportLayoutController.relocateViewport(to: TextLocation(paragraph: last))
        _ = try view.renderFrame()
        XCTAssertGreaterThan(origin, view.maximumContentOffset, "the last paragraph's top is past the largest offset")
        XCTAssertEqual(view.contentOffset.y, view.maximumContentOffset, accuracy: 0.5, "the view sits at the end")
        XCTAssertEqual(view.contentOffset.y, min(origin, view.maximumContentOffset), accuracy: 0.5)
    }

    final class Recorder: AttachmentView {
        nonisolated(unsafe) static var log: [String] = []
        override func viewDidEnterViewport() { Self.log.append("enter \(instance)") }
        override func viewDidLeaveViewport() { Self.log.append("leave \(instance)") }
        override func viewWillBeDiscarded() { Self.log.append("discard \(instance)") }
    }

    final class RecorderProvider: TextAttachmentViewProvider {
        override class var providerName: String { "recorder" }
        override class var defaultSize: CGSize? { CGSize(width: 100, height: 40) }
        override func loadView() -> AttachmentView { Recorder(attachment: textAttachment) }
    }

    func testAttachmentViewsHearTheirLifecycle() throws {
        let providers = AttachmentProviders()
        providers.register(RecorderProvider.self, forScheme: "recorder")
        let markdown = "![](recorder:r)\n\n" + (0..<80).map { "Filler paragraph \($0) with some words." }.joined(separator: "\n\n")
        let document = try TextDocument(markdown: markdown, attachments: providers.kinds)
        for policy: ReusePolicy in [[], .onScrollingOutOfViewport] {
            Recorder.log = []
            let view = TextView(document: document, viewportSize: size, providers: providers)
            view.register(policy, forTextAttachmentViewProviderType: RecorderProvider.self)
            _ = try view.renderFrame()
            view.contentOffset = CGPoint(x: 0, y: 1500)
            _ = try view.renderFrame()
            view.contentOffset = .zero
            _ = try view.renderFrame()
            XCTAssertEqual(Recorder.log, policy.isEmpty ? ["enter 1", "discard 1", "enter 2"] : ["enter 1", "leave 1", "enter 1"], "\(policy)")
        }
    }
}
