import XCTest
@testable import TextReel
import TextReelExplorer

/// The audio kind (`AudioAttachment.swift`, from outside the library) reaches every room through
/// its one descriptor: the reader (default size, keys, checks, the index's trust), the views and
/// their reuse, the placeholder's look, scripts and the explorer.
final class AudioAttachmentTests: XCTestCase {
    private func providers() -> AttachmentProviders {
        let providers = AttachmentProviders()
        providers.register(.audio)
        return providers
    }

    private let markdown = "# Songs\n\nThe theme ![](audio:theme?duration=30) plays here.\n\n![](audio:outro)\n"

    func testTheReaderKnowsItsSizeKeysAndChecks() throws {
        let kinds = providers().kinds
        XCTAssertThrowsError(try TextDocument(markdown: markdown), "another registry does not know audio")
        let document = try TextDocument(markdown: markdown, attachments: kinds)
        let theme = try XCTUnwrap(document.paragraphs[1].attachments.first)
        XCTAssertEqual(theme.scheme, "audio")
        XCTAssertEqual(theme.size, CGSize(width: 280, height: 44), "the descriptor's default size")
        XCTAssertEqual(theme.parameters["duration"], "30")
        let warned = try TextDocument(markdown: "![](audio:a?volume=3)", attachments: kinds)
        XCTAssertTrue(warned.warnings.contains { $0.contains("unknown query key 'volume' is ignored; audio reads duration, size, id") }, "\(warned.warnings)")
        XCTAssertThrowsError(try TextDocument(markdown: "![](audio:a?duration=-1)", attachments: kinds)) { error in
            XCTAssertTrue("\(error)".contains("malformed duration '-1'"), "\(error)")
        }
        // The index trusts what the descriptor trusts: a lazily read document has the same paragraphs.
        let many = (0..<3000).map { "Track \($0) ![](audio:t\($0)?duration=\($0 % 50 + 1)) ends." }.joined(separator: "\n\n")
        let lazy = try TextDocument(markdownData: Data(many.utf8), attachments: kinds, sectionBytes: 4096)
        let whole = try TextDocument(markdownData: Data(many.utf8), attachments: kinds, sectionBytes: 0)
        XCTAssertEqual(lazy.paragraphs.map(\.attachments), whole.paragraphs.map(\.attachments))
    }

    func testItsViewPlaysFromAScriptAndItsPlaceholderHasItsLook() throws {
        let providers = providers()
        let document = try TextDocument(markdown: markdown, attachments: providers.kinds)
        let view = TextView(document: document, viewportSize: CGSize(width: 420, height: 260), providers: providers)
        let script = try ScrollScript(data: Data("""
            {fps: 10, register: [{provider: "audio", policies: ["onScrollingOutOfViewport"]}],
             steps: [{play: "theme"}, {wait: 1}, {pause: "theme"}, {wait: 0.2}]}
            """.utf8), providers: providers)
        var states: [StateValue?] = []
        var last: RenderedFrame?
        try ScriptRunner(view: view, script: script).run { _, frame, event in
            states.append(event.attachments.last { $0.id == "theme" }?.state["position"])
            last = frame
        }
        let position = try XCTUnwrap(view.attachmentView(id: "theme") as? AudioAttachmentView).position
        XCTAssertEqual(position, 1, accuracy: 0.11, "it played for the wait's second, then paused")
        let frame = try XCTUnwrap(last)
        let fragment = view.textLayoutManager.ensureLayout(forParagraphAt: 1)
        let box = fragment.frameForTextAttachment(id: "theme")!.offsetBy(dx: fragment.layoutFragmentFrame.minX, dy: fragment.layoutFragmentFrame.minY)
        let button = frame.pixel(x: Int(box.minX + box.height / 2), y: Int(box.minY + 10))
        let accent = view.theme.attachments.accent
        XCTAssertEqual([button.red, button.green, button.blue].map(Int.init),
                       [accent.red, accent.green, accent.blue].map { Int(($0 * 255).rounded()) }, "its view drew the button")
        // With no view (a frame drawn before any pass made one) the placeholder has the kind's colours.
        let painter = AttachmentPainter(fonts: FontSystem.forCurrentThread(.standard), theme: view.theme, providers: providers)
        let surface = CairoSurface(width: 280, height: 44, opaque: true)
        surface.draw { painter.drawPlaceholder(document.paragraphs[1].attachments[0], box: CGRect(x: 0, y: 0, width: 280, height: 44), in: $0) }
        let fill = RenderedFrame(surface: surface).pixel(x: 140, y: 40)
        let code = view.theme.codeBackground
        XCTAssertEqual([fill.red, fill.green, fill.blue].map(Int.init), [code.red, code.green, code.blue].map { Int(($0 * 255).rounded()) })
    }

    func testTheExplorerSendsItsActions() throws {
        let providers = providers()
        let document = try TextDocument(markdown: markdown, attachments: providers.kinds)
        var sent = Set<String>()
        for seed in UInt64(0)..<40 {
            var generator = ScriptGenerator(document: document, seed: seed, providers: providers,
                                            actions: ["audio": { _, random in [[.play, .pause][random.below(2)]] }])
            let script = generator.script(steps: 10)
            sent.formUnion(script.steps.compactMap { ($0 as? AttachmentStep)?.action.name })
            let view = TextView(document: document, viewportSize: CGSize(width: script.width, height: script.height), providers: providers)
            XCTAssertNoThrow(try ScriptRunner(view: view, script: ScrollScript(data: Data(script.json5.utf8), providers: providers))
                .run(drawing: 0...0) { _, _, _ in }, script.json5)
        }
        XCTAssertEqual(sent, ["play", "pause"])
    }
}
