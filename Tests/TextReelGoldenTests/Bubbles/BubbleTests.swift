import XCTest
import TextReelMarkdown
import TextReelExplorer
import TextReelGolden

/// The WWDC21 bubble sample, ported by renaming only (`BubbleLayoutFragment.swift`,
/// `BubbleDelegates.swift`), on a menu with comments at three depths.
final class BubbleTests: XCTestCase {
    static let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/documents/comments.md")

    /// The view as the sample sets it up: its layout-manager delegate, and the controller's
    /// content-storage delegate (held by the caller: delegates are weak).
    private func view(theme: Theme = .light, controller: TextDocumentViewController) throws -> TextDocumentView {
        let view = TextDocumentView(document: try TextDocument(contentsOf: Self.document),
                                    viewportSize: CGSize(width: 420, height: 560), theme: theme)
        view.textLayoutManager.delegate = view
        view.textContentStorage!.delegate = controller
        return view
    }

    private let script = try! ScrollScript(data: Data("""
        {fps: 10, steps: [
          {snapshot: "top"},
          {scroll: {by: 360, duration: 0.4}},
          {snapshot: "scrolled"},
          {edit: {paragraph: 5, insert: " Twice!", at: 75}},
          {snapshot: "edited"},
        ]}
        """.utf8))

    func testBubblesAreDrawnBehindCommentsAtEachDepth() throws {
        let controller = TextDocumentViewController()
        let view = try view(controller: controller)
        let frame = try view.renderFrame()
        let manager = view.textLayoutManager
        var depths: [UInt] = []
        for index in 0..<manager.paragraphCount {
            let fragment = manager.ensureLayout(forParagraphAt: index)
            guard let bubble = fragment as? BubbleLayoutFragment else { continue }
            depths.append(bubble.commentDepth)
            // Paddings narrow the lines; margins add space above and below, inside the frame.
            let lines = fragment.textLineFragments
            XCTAssertGreaterThanOrEqual(lines.map(\.typographicBounds.minX).min()!, view.theme.insets.left + 20 * CGFloat(bubble.commentDepth) - 0.5)
            XCTAssertEqual(lines.first!.typographicBounds.minY, 6, accuracy: 0.01, "the top margin")
            XCTAssertTrue(fragment.renderingSurfaceBounds.contains(lines.first!.typographicBounds.insetBy(dx: -3, dy: -3)))
        }
        XCTAssertEqual(depths, [1, 2, 3, 1, 2, 1])
        // The first comment's bubble is indigo behind white text, and the text is the comment font.
        let first = manager.ensureLayout(forParagraphAt: 5)
        let line = first.textLineFragments[0].typographicBounds.offsetBy(dx: 0, dy: first.layoutFragmentFrame.minY)
        let inside = frame.pixel(x: Int(line.minX) + 1, y: Int(line.midY))
        XCTAssertEqual([inside.red, inside.green, inside.blue], [88, 86, 214], "systemIndigo (light)")
        XCTAssertGreaterThan(line.height, 24, "title3 (20 pt) comments are taller than body lines")
        XCTAssertTrue(frame.pass!.checks.errors.isEmpty, "\(frame.pass!.checks.errors)")
    }

    func testGoldenFramesLightAndDarkScrolledAndEdited() throws {
        for (name, theme) in [("bubbles-light", Theme.light), ("bubbles-dark", Theme.dark)] {
            let controller = TextDocumentViewController()
            let view = try view(theme: theme, controller: controller)
            XCTAssertNoThrow(try GoldenFrames.verify(view, script: script, frames: .snapshots, named: name))
        }
    }

    /// Every invariant holds on every frame of generated scripts over the bubbles: scrolls of every
    /// kind, edits (of comments too), resizes.
    func testGeneratedScriptsKeepEveryInvariantWithCustomFragments() throws {
        let document = try TextDocument(contentsOf: Self.document)
        for seed in UInt64(1)...40 {
            var generator = ScriptGenerator(document: document, seed: seed)
            let generated = generator.script(steps: 10)
            let controller = TextDocumentViewController()
            let view = try view(controller: controller)
            view.resize(to: CGSize(width: generated.width, height: generated.height))
            let script = try ScrollScript(data: Data(generated.json5.utf8))
            try ScriptRunner(view: view, script: script).run { number, _, event in
                XCTAssertEqual(event.checks.errors, [], "seed \(seed), frame \(number):\n\(generated.json5)")
            }
        }
    }
}
