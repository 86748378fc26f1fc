import XCTest
@testable import TextReel
@testable import TextReelMarkdown

/// A provider from outside the library: its own scheme, view and provider-driven size.
final class BadgeProvider: TextAttachmentViewProvider {
    override class var providerName: String { "badge" }
    override class var defaultSize: CGSize? { CGSize(width: 10, height: 10) }
    override var tracksTextAttachmentViewBounds: Bool { true }
    override func attachmentBounds(proposedWidth: Double) -> CGRect { CGRect(x: 0, y: 0, width: 64, height: 20) }
    override func loadView() -> AttachmentView { BadgeView(attachment: textAttachment) }
}

final class BadgeView: AttachmentView {
    override func draw(in canvas: GraphicsContext) { canvas.fill(canvas.bounds, Color(1, 0, 1)) }
}

final class AttachmentTests: XCTestCase {
    typealias Seen = (frame: Int, id: String, event: AttachmentEvent.Kind, state: [String: StateValue])

    /// Runs a golden case's script over the attachments document and returns every attachment event.
    private func events(case name: String, script file: String) throws -> (events: [Seen], snapshots: [String: Int], summary: RunSummary) {
        let folder = Paths.fixtures.appendingPathComponent("golden/\(name)")
        let view = TextView(document: try TextDocument(contentsOf: Paths.fixtures.appendingPathComponent("documents/attachments.md")),
                            viewportSize: CGSize(width: 480, height: 320))
        let script = try ScrollScript(contentsOf: folder.appendingPathComponent(file))
        if let v = script.viewport { view.resize(to: CGSize(width: v.width, height: v.height)) }
        let runner = try ScriptRunner(view: view, script: script)
        var seen: [Seen] = []
        let summary = try runner.run(drawing: 1...runner.frameCount) { number, _, event in
            seen += event.attachments.map { (number, $0.id, $0.event, $0.state) }
        }
        return (seen, runner.snapshots, summary)
    }

    private func number(_ value: StateValue?) -> Double? { if case .number(let n)? = value { return n }; return nil }

    func testVideoKeepsPlayingWhileScrolledOutWithThePolicy() throws {
        let run = try events(case: "video-policy", script: "scroll.json5")
        let video = run.events.filter { $0.id == "intro" }
        XCTAssertEqual(video.filter { $0.event == .created }.count, 1)
        XCTAssertFalse(video.contains { $0.event == .discarded || $0.event == .recreated })
        let kept = try XCTUnwrap(video.first { $0.event == .kept })
        let reused = try XCTUnwrap(video.first { $0.event == .reused })
        XCTAssertEqual(reused.state["instance"], kept.state["instance"], "the same view object")
        XCTAssertGreaterThan(number(reused.state["position"])!, number(kept.state["position"])!, "it played on while out of view")
        XCTAssertEqual(reused.state["playing"], .bool(true))
        XCTAssertFalse(video.contains { $0.event == .loaded && $0.frame > reused.frame }, "no loading frames on return")
    }

    func testVideoStartsOverWithoutThePolicy() throws {
        let run = try events(case: "video-no-policy", script: "scroll.json5")
        let video = run.events.filter { $0.id == "intro" }
        let discarded = try XCTUnwrap(video.first { $0.event == .discarded })
        XCTAssertEqual(discarded.state["playing"], .bool(true))
        let recreated = try XCTUnwrap(video.first { $0.event == .recreated })
        XCTAssertNotEqual(recreated.state["instance"], discarded.state["instance"])
        XCTAssertEqual(recreated.state["position"], .number(0))
        XCTAssertEqual(recreated.state["playing"], .bool(false))
        let loaded = try XCTUnwrap(video.first { $0.event == .loaded && $0.frame > recreated.frame })
        XCTAssertEqual(loaded.frame - recreated.frame, 2, "two loading frames for a new video view")
    }

    func testFocusedFieldSurvivesEditsOfItsParagraphWithThePolicy() throws {
        let run = try events(case: "field-edit-policy", script: "edit.json5")
        let field = run.events.filter { $0.id == "name" }
        XCTAssertEqual(field.filter { $0.event == .created }.count, 1)
        XCTAssertFalse(field.contains { $0.event == .discarded || $0.event == .recreated })
        let last = try XCTUnwrap(field.last)
        XCTAssertEqual(last.state["value"], .string("Ada"))
        XCTAssertEqual(last.state["focused"], .bool(true))
    }

    func testFocusedFieldIsRecreatedEmptyWithoutThePolicy() throws {
        let run = try events(case: "field-edit-no-policy", script: "edit.json5")
        let field = run.events.filter { $0.id == "name" }
        let edited = run.snapshots["edited"]!
        XCTAssertTrue(field.contains { $0.frame == edited && $0.event == .discarded && $0.state["value"] == .string("Ada") })
        let recreated = try XCTUnwrap(field.first { $0.frame == edited && $0.event == .recreated })
        XCTAssertEqual(recreated.state["value"], .string(""))
        XCTAssertEqual(recreated.state["focused"], .bool(false))
    }

    func testDrawingWithTheScrollingPolicyIsKeptOnScrollAndRecreatedOnEdit() throws {
        let run = try events(case: "drawing-scroll-policy", script: "script.json5")
        let sketch = run.events.filter { $0.id == "sketch" }
        XCTAssertEqual(sketch.map(\.event).filter { $0 != .visible },
                       [.created, .loaded, .kept, .reused, .discarded, .recreated, .loaded])
        let reused = sketch.first { $0.event == .reused }!
        XCTAssertEqual(reused.state["strokes"], .number(1), "the added stroke survived the scroll")
        XCTAssertEqual(sketch.first { $0.event == .recreated }!.state["strokes"], .number(0))
    }

    func testEvictionUnderACapSparesThePlayingVideo() throws {
        let run = try events(case: "eviction", script: "script.json5")
        XCTAssertFalse(run.events.contains { $0.id == "intro" && ($0.event == .evicted || $0.event == .discarded) },
                       "a playing video is pinned")
        let evicted = run.events.filter { $0.event == .evicted }.map(\.id)
        XCTAssertTrue(evicted.contains("name"))
        XCTAssertTrue(evicted.contains("sketch"))
        let restored = try XCTUnwrap(run.events.first { $0.id == "name" && $0.event == .restored })
        XCTAssertEqual(restored.state["value"], .string("Grace"), "saveState / restoreState")
        let reused = try XCTUnwrap(run.events.last { $0.id == "intro" && $0.event == .reused })
        XCTAssertEqual(reused.state["playing"], .bool(true))
    }

    func testSurfacesAreRedrawnOnlyWhenStateChanges() throws {
        let document = try TextDocument(markdown: "![](video:v?size=200x100&duration=5)")
        let view = TextView(document: document, viewportSize: CGSize(width: 400, height: 300))
        var draws: [Int] = []
        func frame() throws {
            view.time += 0.1
            draws.append(try XCTUnwrap(view.renderFrame().pass).counters.attachmentDraws)
        }
        for _ in 0..<5 { try frame() }          // loading (2 frames), then paused
        try view.perform(.play, onAttachment: "v")
        for _ in 0..<3 { try frame() }          // playing: a new surface each frame
        try view.perform(.pause, onAttachment: "v")
        for _ in 0..<3 { try frame() }
        XCTAssertEqual(draws, [1, 1, 1, 0, 0, 1, 1, 1, 1, 0, 0])
    }

    /// A caller that never drains keeps the newest 4,096 events, in order, and a pass adds its
    /// own without copying those kept (a long render used to copy them all every frame).
    func testUndrainedEventsKeepTheNewest() throws {
        let markdown = (0..<40).map { "Toggle \($0) ![](control:c\($0)?kind=toggle)" }.joined(separator: "\n\n")
        let view = TextView(document: try TextDocument(markdown: markdown), viewportSize: CGSize(width: 400, height: 2000))
        var all: [AttachmentEvent] = []
        while all.count < 10_000 {
            let pass = try view.layoutPass()
            XCTAssertFalse(pass.attachmentEvents.isEmpty, "every attachment is visible each pass")
            all += pass.attachmentEvents
        }
        XCTAssertEqual(view.drainAttachmentEvents(), Array(all.suffix(4096)))
        XCTAssertEqual(view.drainAttachmentEvents(), [], "drained")
        let pass = try view.layoutPass()
        XCTAssertEqual(view.drainAttachmentEvents(), pass.attachmentEvents, "only the passes since")
    }

    func testCustomSchemeProviderAndBounds() throws {
        let providers = AttachmentProviders()
        providers.register(BadgeProvider.self, forScheme: "badge")
        XCTAssertThrowsError(try TextDocument(markdown: "New ![](badge:new) here."), "another registry's scheme is unknown")
        let document = try TextDocument(markdown: "New ![](badge:new) here.", attachments: providers.kinds)
        XCTAssertEqual(document.paragraphs[0].attachments[0].scheme, "badge")
        XCTAssertNil(AttachmentProviders().type(forScheme: "badge"), "a registry is the view's own, not global")
        let view = TextView(document: document, viewportSize: CGSize(width: 400, height: 200), providers: providers)
        let frame = try view.renderFrame()
        let fragment = view.textLayoutManager.ensureLayout(forParagraphAt: 0)
        let box = fragment.attachmentFrames[0].frame
        XCTAssertEqual(box.size, CGSize(width: 64, height: 20), "attachmentBounds(proposedWidth:) sized it")
        let pixel = frame.pixel(x: Int(box.midX), y: Int(fragment.layoutFragmentFrame.minY + box.midY))
        XCTAssertEqual([pixel.red, pixel.green, pixel.blue], [255, 0, 255], "drawn by the custom view")
        XCTAssertEqual(view.drainAttachmentEvents().first?.provider, "badge")
        // A script registers a policy for it when read with the same registry.
        let script = Data("{register: [{provider: \"badge\", policies: [\"onScrollingOutOfViewport\"]}]}".utf8)
        XCTAssertThrowsError(try ScrollScript(data: script))
        XCTAssertNoThrow(try ScriptRunner(view: view, script: ScrollScript(data: script, providers: providers)).run { _, _, _ in })
    }

    func testBadAttachmentStepsNameTheStep() throws {
        XCTAssertThrowsError(try ScrollScript(data: Data("{register: [{provider: \"hologram\", policies: []}]}".utf8))) {
            XCTAssertTrue("\($0)".contains("unknown provider 'hologram'"), "\($0)")
        }
        XCTAssertThrowsError(try ScrollScript(data: Data("{register: [{provider: \"video\", policies: [\"always\"]}]}".utf8))) {
            XCTAssertTrue("\($0)".contains("unknown policy 'always'"), "\($0)")
        }
        let s = try ScrollScript(data: Data("{steps: [\n {wait: 0.1},\n {type: {id: \"name\", text: \"x\"}}]}".utf8))
        let view = TextView(document: try TextDocument(contentsOf: Paths.fixtures.appendingPathComponent("documents/attachments.md")),
                            viewportSize: CGSize(width: 480, height: 320))
        XCTAssertThrowsError(try ScriptRunner(view: view, script: s).run { _, _, _ in }) { error in
            let e = error as? TextReelError
            XCTAssertEqual(e?.line, 3)
            XCTAssertTrue(e?.message.contains("not focused") == true, "\(error)")
        }
    }
}
