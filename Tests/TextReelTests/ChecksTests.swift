import XCTest
@testable import TextReel
import TextReelExplorer
@testable import TextReelMarkdown

/// The per-frame checks, budgets and the explorer (issue: invariants on every frame).
final class ChecksTests: XCTestCase {
    private func run(_ script: String, on document: TextDocument, size: CGSize = CGSize(width: 480, height: 320)) throws -> [FrameEvent] {
        let view = TextView(document: document, viewportSize: size)
        var events: [FrameEvent] = []
        try ScriptRunner(view: view, script: ScrollScript(data: Data(script.utf8))).run(drawing: 0...0) { _, _, event in events.append(event) }
        return events
    }

    /// Found by hand and by the explorer: an edit before the first pass read a lazily estimated
    /// height leaf from the already-spliced document and trapped.
    func testParagraphEditsBeforeTheFirstPass() throws {
        let document = try TextDocument(contentsOf: Paths.demo)
        for script in ["{steps: [{edit: {deleteParagraph: 0}}]}",
                       "{steps: [{edit: {deleteParagraph: \(document.count - 1)}}]}",
                       "{steps: [{edit: {insertParagraph: \"New\", after: -1}}]}",
                       "{steps: [{edit: {insertParagraph: \"New\", after: \(document.count - 1)}}]}"] {
            let events = try run(script, on: document)
            XCTAssertEqual(events.count, 1)
            XCTAssertEqual(events[0].checks.errors, [], script)
        }
        let generated = TextDocument.generated(paragraphs: 3000, format: MarkdownFormat())
        let events = try run("{steps: [{edit: {deleteParagraph: 0}}, {edit: {insertParagraph: \"x\", after: 2998}}, {scroll: {toParagraph: 2990}}]}", on: generated)
        XCTAssertEqual(events.last?.checks.errors, [])
    }

    func testGeometryInvariantsCatchGapsOverlapsAndDisorder() {
        func fragment(_ index: Int, _ y: Double, _ height: Double) -> LayoutPass.Fragment {
            LayoutPass.Fragment(paragraph: index, index: index, kind: "paragraph", frame: LayoutRect(x: 0, y: y, width: 100, height: height),
                                surfaceBounds: LayoutRect(x: 0, y: y, width: 100, height: height), state: .layoutAvailable,
                                lines: [], attachments: [], text: "")
        }
        let visible = LayoutRect(x: 0, y: 20, width: 100, height: 100)
        func errors(_ fragments: [LayoutPass.Fragment]) -> [String] {
            PassChecks.geometryErrors(fragments: fragments, visible: visible, paragraphCount: 10, contentTop: 10, contentBottom: 500) { i in
                fragments.first { $0.index == i }?.frame.y ?? 0
            }
        }
        XCTAssertEqual(errors([fragment(0, 10, 50), fragment(1, 60, 70)]), [])
        XCTAssertEqual(errors([fragment(0, 10, 50), fragment(1, 62, 70)]), ["gap of 2 pt between paragraphs 0 and 1"])
        XCTAssertEqual(errors([fragment(0, 10, 50), fragment(1, 55, 70)]), ["paragraphs 0 and 1 overlap by 5 pt"])
        XCTAssertEqual(errors([fragment(0, 10, 50), fragment(2, 60, 70)]), ["paragraph 2 follows paragraph 0 (expected 1)"])
        XCTAssertTrue(errors([fragment(0, 10, 50)]).first?.contains("has no fragment") == true)
        XCTAssertTrue(errors([]).first?.contains("viewport range is empty") == true)
        XCTAssertTrue(errors([fragment(0, 0, 60), fragment(1, 60, 70)]).contains { $0.contains("above the top") })
    }

    func testEveryFrameOfTheDemoKeepsTheInvariantsAndNoJump() throws {
        let document = try TextDocument(contentsOf: Paths.demo)
        let script = try String(contentsOf: Paths.fixtures.appendingPathComponent("scripts/demo.json5"), encoding: .utf8)
        let events = try run(script, on: document, size: CGSize(width: 800, height: 600))
        XCTAssertGreaterThan(events.count, 100)
        for event in events {
            XCTAssertEqual(event.checks.errors, [], "frame \(event.frame)")
            XCTAssertEqual(event.checks.jump, 0, "frame \(event.frame)")
            XCTAssertEqual(event.checks.flicker, [], "frame \(event.frame)")
        }
    }

    func testBudgetsNameTheFrameAndAmount() throws {
        // Scrolling far into estimated heights measures paragraphs above the anchor: a correction
        // (paragraphs of wide letters, which the estimate's average letter underrates).
        let wide = (0..<2000).map { "W\($0) " + String(repeating: "MW ", count: 60) }.joined(separator: "\n\n")
        let events = try run("{steps: [{scroll: {by: 20000}}]}", on: TextDocument(markdown: wide))
        let budget = try Budget(parsing: "maxCorrection=0")
        let violations = events.flatMap(budget.violations(of:))
        let first = try XCTUnwrap(violations.first)
        XCTAssertEqual(first.check, "maxCorrection")
        XCTAssertTrue(first.description.hasPrefix("frame \(first.frame): a correction of"), first.description)
        XCTAssertEqual(events.flatMap(Budget().violations(of:)), [], "no budget, no invariant broken")
        XCTAssertThrowsError(try Budget(parsing: "maxJump=-1"))
        XCTAssertThrowsError(try Budget(parsing: "wobble=3")) { XCTAssertTrue("\($0)".contains("unknown budget 'wobble'")) }
    }

    func testEditWithoutPolicyFlickersAndPolicyKeepsItStill() throws {
        let markdown = "Clip ![](video:clip?size=120x60) here.\n\nMore text.\n"
        let edit = "{wait: 0.2}, {edit: {paragraph: 0, insert: \"x\", at: 0}}, {wait: 0.2}"
        let without = try run("{steps: [\(edit)]}", on: TextDocument(markdown: markdown))
        XCTAssertTrue(without.contains { $0.checks.flicker == ["clip"] }, "recreated in view: drawn loading again")
        let with = try run("{register: [{provider: \"video\", policies: [\"onEditingInlineParagraphs\"]}], steps: [\(edit)]}",
                           on: TextDocument(markdown: markdown))
        XCTAssertFalse(with.contains { !$0.checks.flicker.isEmpty })
        XCTAssertEqual(with.reduce(0) { $0 + $1.checks.recreated }, 0)
    }

    func testShrinkSimplificationsOnlyGetSmaller() {
        let step = ScrollStep(.by(1200), duration: 0.5, curve: .easeIn)
        let simpler = step.simplifications.map { $0 as! ScrollStep }
        XCTAssertEqual(simpler.count, 4, "duration to 0 and halved, distance to 0 and halved")
        for s in simpler {
            guard case .by(let dy) = s.target else { return XCTFail("a scroll by stays one") }
            XCTAssertTrue(abs(dy) <= 1200 && s.duration <= 0.5 && (dy != 1200 || s.duration != 0.5), s.json5)
        }
        XCTAssertTrue(ResizeStep(width: 100, height: 100).simplifications.isEmpty, "a viewport keeps a size")
        XCTAssertEqual(ResizeStep(width: 300, height: 100).simplifications.map(\.json5), ["{resize: {width: 100, height: 100}}", "{resize: {width: 200, height: 100}}"])
        XCTAssertEqual(ScrollStep(.by(300)).json5, "{scroll: {by: 300}}")
        XCTAssertEqual(EditStep(.deleteParagraph(7)).simplifications.map(\.json5), ["{edit: {deleteParagraph: 0}}", "{edit: {deleteParagraph: 3}}"])
    }

    func testGeneratedScriptsAreValidAndDeterministic() throws {
        let document = try TextDocument(contentsOf: Paths.fixtures.appendingPathComponent("documents/attachments.md"))
        var a = ScriptGenerator(document: document, seed: 42), b = ScriptGenerator(document: document, seed: 42)
        let script = a.script(steps: 12)
        XCTAssertEqual(script, b.script(steps: 12))
        XCTAssertNoThrow(try ScrollScript(data: Data(script.json5.utf8)), script.json5)
    }

    /// An empty document has no paragraph to edit or go to: the generator must not index one
    /// (it crashed every seed), and the scripts it writes still run.
    func testGeneratedScriptsForAnEmptyDocumentRun() throws {
        for markdown in ["", "\n\n  \n"] {
            let document = try TextDocument(markdown: markdown)
            for seed in UInt64(0)..<40 {
                var generator = ScriptGenerator(document: document, seed: seed)
                let script = try ScrollScript(data: Data(generator.script(steps: 10).json5.utf8))
                let view = TextView(document: try TextDocument(markdown: markdown), viewportSize: CGSize(width: 400, height: 300))
                _ = try ScriptRunner(view: view, script: script).run(drawing: 0...0) { number, _, event in
                    XCTAssertEqual(event.checks.errors, [], "seed \(seed), frame \(number)")
                }
            }
        }
    }

    /// A key names one step kind: `focus` is a text field's action, so the view's focus step
    /// is `firstResponder`; a second kind claiming a key would never be read.
    func testEveryStepKeyBelongsToOneKind() {
        let keys = ScriptSteps.kinds.flatMap { $0.keys }
        XCTAssertEqual(keys.count, Set(keys).count, "keys used twice: \(Dictionary(grouping: keys, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted())")
    }

    /// A few hundred generated scripts hold every step kind (a `case 5, 10, 11 where …` once kept
    /// paragraph jumps and text insertion out of every exploration), and every one of them runs:
    /// a script the engine refuses is a generator bug (a jump to a heading or an attachment its
    /// own earlier edits removed, a seek past a video's end), not a skipped run.
    func testGeneratedScriptsHoldEveryKindAndAllRun() throws {
        let documents = try ["demo.md", "attachments.md", "emoji.md"].map {
            try TextDocument(contentsOf: Paths.fixtures.appendingPathComponent("documents/\($0)"))
        } + [TextDocument.generated(paragraphs: 300)]
        /// A step's form: its kind, and which target, edit or action it is.
        func form(_ step: any ScriptStep) -> String {
            func name(_ value: Any) -> String { String(String(describing: value).prefix { $0 != "(" }) }
            switch step {
            case let scroll as ScrollStep: return "scroll." + name(scroll.target)
            case let edit as EditStep: return "edit." + name(edit.edit)
            case let attachment as AttachmentStep: return attachment.action.name
            default: return "\(type(of: step))"
            }
        }
        var kinds = Set<String>(), types = Set<ObjectIdentifier>()
        for (d, document) in documents.enumerated() {
            for seed in UInt64(0)..<60 {
                var generator = ScriptGenerator(document: document, seed: seed)
                let generated = generator.script(steps: 12)
                kinds.formUnion(generated.steps.map(form))
                types.formUnion(generated.steps.map { ObjectIdentifier(type(of: $0)) })
                let script = try ScrollScript(data: Data(generated.json5.utf8))
                let view = TextView(document: document, viewportSize: CGSize(width: generated.width, height: generated.height))
                XCTAssertNoThrow(try ScriptRunner(view: view, script: script).run(drawing: 0...0) { _, _, _ in },
                                 "document \(d), seed \(seed):\n\(generated.json5)")
            }
        }
        let every: Set = ["scroll.to", "scroll.by", "scroll.toParagraph", "scroll.toHeading", "scroll.toAttachment", "FlingStep",
                          "WaitStep", "edit.insert", "edit.delete", "edit.insertParagraph", "edit.deleteParagraph", "ResizeStep",
                          "SetNeedsLayoutStep", "RegisterStep", "PerformStep", "play", "pause", "seek", "focus", "type", "toggle", "slide"]
        XCTAssertEqual(every.subtracting(kinds), [], "step forms never generated")
        let drawn = ScriptSteps.kinds.compactMap { $0 as? any ExplorableStep.Type }.filter { $0.generatorWeight > 0 }.map { ObjectIdentifier($0) }
        XCTAssertEqual(Set(drawn).subtracting(types), [], "a kind with a weight is generated")
    }
}
