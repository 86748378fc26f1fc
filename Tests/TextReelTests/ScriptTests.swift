import XCTest
@testable import TextReel
@testable import TextReelMarkdown

final class ScriptTests: XCTestCase {

    /// Inserting Markdown that makes no paragraph is an error at its step (it was a silent no-op
    /// whose event named the next paragraph's id; found by a new-user helper).
    func testInsertingNothingIsAnError() throws {
        for markdown in ["", "[r]: /u", "> "] {
            let view = TextView(document: try TextDocument(markdown: "One.\n\nTwo.\n"), viewportSize: CGSize(width: 400, height: 300))
            let script = try ScrollScript(data: Data("{steps: [\n {wait: 0.1},\n {edit: {insertParagraph: \(String(reflecting: markdown)), after: 0}}]}".utf8))
            XCTAssertThrowsError(try ScriptRunner(view: view, script: script).run { _, _, _ in }) { error in
                XCTAssertEqual((error as? TextReelError)?.line, 3, "\(error)")
                XCTAssertTrue("\(error)".contains("makes no paragraph"), "\(error)")
            }
            XCTAssertEqual(view.document.count, 2)
        }
    }

    /// A scroll across most of a long document in a few frames lays out a few viewports a frame,
    /// not everything the next frames will cross (found by the explorer on 20,000 paragraphs:
    /// thousands of paragraphs a frame, a minute for 22 frames).
    func testAFarAnimatedScrollLaysOutAFewViewportsAFrame() throws {
        let view = TextView(document: TextDocument.generated(paragraphs: 3000), viewportSize: CGSize(width: 800, height: 600))
        let far = view.textLayoutManager.documentHeight * 0.9
        let script = try ScrollScript(data: Data("{fps: 30, steps: [{scroll: {to: \(far), duration: 0.7, curve: \"easeInOut\"}}]}".utf8))
        var most = 0
        try ScriptRunner(view: view, script: script).run { _, _, event in most = max(most, event.laidOut.count) }
        XCTAssertLessThan(most, 150, "paragraphs laid out in one frame")
    }
    private func script(_ text: String) throws -> ScrollScript {
        try ScrollScript(data: Data(text.utf8), fileName: "s.json5")
    }

    private func expectError(_ text: String, line: Int, column: Int, mentions needle: String,
                             file: StaticString = #filePath, at: UInt = #line) {
        XCTAssertThrowsError(try script(text), file: file, line: at) { error in
            guard let e = error as? TextReelError else { return XCTFail("\(error)", file: file, line: at) }
            XCTAssertEqual(e.file, "s.json5", file: file, line: at)
            XCTAssertEqual(e.line, line, "\(e)", file: file, line: at)
            XCTAssertEqual(e.column, column, "\(e)", file: file, line: at)
            XCTAssertTrue(e.message.contains(needle), "\(e)", file: file, line: at)
        }
    }

    func testReadsTheIssueExample() throws {
        let s = try script("""
        {
          viewport: {width: 800, height: 600, scale: 1},
          fps: 30,
          overdraw: 0.5,
          steps: [
            {scroll: {to: 1200, duration: 1.0, curve: "easeInOut"}},
            {scroll: {by: -300, duration: 0.5}},
            {scroll: {toParagraph: 40, align: "top"}},
            {scroll: {toHeading: "Installation"}},
            {fling: {velocity: 4000, deceleration: "normal"}},
            {wait: 0.5},
            {edit: {paragraph: 12, insert: "text", at: 5}},
            {edit: {paragraph: 12, delete: {from: 0, length: 4}}},
            {edit: {insertParagraph: "Markdown text", after: 12}},
            {edit: {deleteParagraph: 12}},
            {resize: {width: 600, height: 800}},
            {setNeedsLayout: true},
            {snapshot: "after-edit"},
          ],
        }
        """)
        XCTAssertEqual(s.viewport, ScrollScript.Viewport(width: 800, height: 600, scale: 1))
        XCTAssertEqual(s.steps.count, 13)
        XCTAssertEqual(s.steps[0] as? ScrollStep, ScrollStep(.to(1200), duration: 1, curve: .easeInOut))
        XCTAssertEqual(s.steps[2] as? ScrollStep, ScrollStep(.toParagraph(40, .top)))
        XCTAssertEqual(s.steps[7] as? EditStep, EditStep(.delete(paragraph: 12, from: 0, length: 4)))
        XCTAssertEqual(s.steps.map(\.json5), try script(s.steps.map(\.json5).joined(separator: ",").wrappedAsSteps).steps.map(\.json5),
                       "every step reads back from what it writes")
        XCTAssertEqual(s.stepPositions[1].line, 7)
        let timeline = try Timeline(script: s)
        // 1 initial frame, 30 + 15 scroll frames, fling frames, 15 wait frames, one for the edits.
        let fling = FlingStep.deltas(velocity: 4000, rate: 0.998, fps: 30)
        XCTAssertEqual(timeline.frames.count, 1 + 30 + 15 + fling.count + 15 + 1)
        XCTAssertEqual(timeline.frames.last?.snapshots, ["after-edit"])
        XCTAssertEqual(fling.reduce(0, +), 4000 / 1000 / -log(0.998), accuracy: 10, "a fling covers v/ln(1/rate)")
        XCTAssertTrue(zip(fling, fling.dropFirst()).allSatisfy { $0 >= $1 }, "and decelerates")
    }

    func testBadScriptsNameLineAndColumn() {
        expectError("{\n  fps: 30,\n  zoom: 2,\n}", line: 3, column: 3, mentions: "unknown key 'zoom'")
        expectError("{steps: [\n  {wait: 1},\n  {scroll: {to: 10, speed: 3}},\n]}", line: 3, column: 21, mentions: "unknown key 'speed'")
        expectError("{steps: [{scroll: {to: 10, by: 3}}]}", line: 1, column: 32, mentions: "exactly one of")
        expectError("{fps: -3}", line: 1, column: 7, mentions: "-3 is too small; expected 1 to 240")
        expectError("{steps: [\n {scroll: {by: 10, curve: \"bouncy\"}}]}", line: 2, column: 27, mentions: "'bouncy' is not allowed")
        expectError("{steps: [{edit: {paragraph: 1.5, insert: \"x\"}}]}", line: 1, column: 29, mentions: "1.5 is not a whole number; expected a paragraph number")
        expectError("{viewport: {width: \"wide\", height: 3}}", line: 1, column: 20, mentions: "a string where a number was expected")
        expectError("{steps: [{jump: 3}]}", line: 1, column: 11, mentions: "unknown key 'jump'")
        XCTAssertThrowsError(try script("{steps: [}")) { error in
            XCTAssertTrue("\(error)".contains("1:10: error: unexpected '}'; expected a value"), "\(error)")
        }
    }

    /// The one JSON5 reader: JSON5's own forms, repeated keys reported, what Foundation refused
    /// or garbled handled with a position.
    func testJSON5ReaderAcceptsJSON5AndSaysWhereItIsWrong() throws {
        let s = try script("// a comment\n{fps: +30., overdraw: .5, 'steps': [{wait: 0x1}, /* ok */ {snapshot: 'it\\'s\\u0041\\x42'},],}")
        XCTAssertEqual(s.fps, 30)
        XCTAssertEqual(s.overdraw, 0.5)
        XCTAssertEqual(s.steps.map(\.json5), ["{wait: 1}", "{snapshot: \"it'sAB\"}"])
        XCTAssertEqual(s.stepPositions.map(\.line), [2, 2])
        let twice = try script("{fps: 30,\n fps: 60}")
        XCTAssertEqual(twice.fps, 60)
        XCTAssertEqual(twice.warnings, ["s.json5:2:2: warning: key 'fps' is given twice; the last one counts"])
        XCTAssertNoThrow(try script("{steps: [{snapshot: \"\\u0000\"}]}"), "NUL in a string is valid JSON5")
        expectError("{steps: " + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "}", line: 1, column: 264, mentions: "nested more than 256 deep")
        expectError("{fps: Infinity}", line: 1, column: 7, mentions: "Infinity is not a usable number")
        expectError("{fps: 030}", line: 1, column: 7, mentions: "no octal")
        expectError("{steps: [{snapshot: \"open}]}", line: 1, column: 21, mentions: "never closed")
        expectError("", line: 1, column: 1, mentions: "the file is empty")
        expectError("{wait 3}", line: 1, column: 7, mentions: "expected :")
    }

    func testRuntimeErrorsNameTheStep() throws {
        let s = try script("{steps: [\n  {wait: 0.1},\n  {edit: {paragraph: 99, insert: \"x\"}},\n]}")
        let view = TextView(document: try TextDocument(markdown: "one\n\ntwo"), viewportSize: CGSize(width: 300, height: 200))
        let runner = try ScriptRunner(view: view, script: s)
        XCTAssertThrowsError(try runner.run { _, _, _ in }) { error in
            let e = error as? TextReelError
            XCTAssertEqual(e?.line, 3)
            XCTAssertEqual(e?.column, 3)
            XCTAssertTrue(e?.message.contains("paragraph 99 does not exist") == true, "\(error)")
        }
        let heading = try ScrollScript(data: Data("{steps: [{scroll: {toHeading: \"Nowhere\"}}]}".utf8))
        XCTAssertThrowsError(try ScriptRunner(view: view, script: heading).run { _, _, _ in })
    }

    /// A named action with arguments reaches the view's own handler; one it does not know is an
    /// error at its step's line and column.
    func testPerformSendsNamedActionsToTheView() throws {
        let document = try TextDocument(markdown: "![](video:clip?duration=20)")
        let s = try script("""
            {fps: 10, steps: [{seek: {id: "clip", to: 9}},
              {perform: {attachment: "clip", action: "rewind", arguments: {seconds: 2.5}}},
              {wait: 0.1}]}
            """)
        XCTAssertEqual(s.steps[1].json5, #"{perform: {attachment: "clip", action: "rewind", arguments: {"seconds": 2.5}}}"#)
        XCTAssertEqual(try script("{steps: [\(s.steps[1].json5)]}").steps[0] as? PerformStep, s.steps[1] as? PerformStep)
        let view = TextView(document: document, viewportSize: CGSize(width: 400, height: 300))
        try ScriptRunner(view: view, script: s).run(drawing: 0...0) { _, _, _ in }
        XCTAssertEqual((view.attachmentView(id: "clip") as? VideoAttachmentView)?.position, 6.5)
        let unknown = try script("{steps: [\n  {wait: 0.1},\n  {perform: {attachment: \"clip\", action: \"zoom\"}},\n]}")
        XCTAssertThrowsError(try ScriptRunner(view: view, script: unknown).run { _, _, _ in }) { error in
            let e = error as? TextReelError
            XCTAssertEqual(e.map { [$0.line, $0.column] }, [3, 3])
            XCTAssertTrue(e?.message.contains("does not support zoom") == true, "\(error)")
        }
        expectError("{steps: [{perform: {attachment: \"clip\", action: \"rewind\", arguments: {seconds: [1]}}}]}", line: 1, column: 80,
                    mentions: "expected a number, true, false or a string")
    }

    /// Every step written back as JSON5 reads back as the same step: the scripts in the fixtures
    /// and the fuzzer's seeds (among them a finding: control characters in strings were written raw).
    func testStepsWrittenBackReadTheSame() throws {
        let seeds = try FileManager.default.contentsOfDirectory(at: Paths.fixtures.appendingPathComponent("fuzz/FuzzScript"), includingPropertiesForKeys: nil)
        for file in seeds + [Paths.fixtures.appendingPathComponent("scripts/demo.json5")] {
            let written = try ScrollScript(contentsOf: file).steps.map(\.json5)
            XCTAssertFalse(written.isEmpty, file.lastPathComponent)
            XCTAssertEqual(try script("{steps: [\(written.joined(separator: ",\n"))]}").steps.map(\.json5), written, file.lastPathComponent)
        }
    }

    func testTooManyFramesIsRefused() throws {
        let s = try script("{fps: 240, steps: [{wait: 3600}]}")
        XCTAssertThrowsError(try Timeline(script: s)) { error in
            XCTAssertTrue("\(error)".contains("more than"))
        }
    }

    func testScrollsArriveWhereAsked() throws {
        let document = try TextDocument(contentsOf: Paths.demo)
        let view = TextView(document: document, viewportSize: CGSize(width: 800, height: 600))
        let s = try script("""
        {steps: [{scroll: {to: 700, duration: 0.5}}, {snapshot: "a"},
                 {scroll: {by: -250, duration: 0.3, curve: "linear"}}, {snapshot: "b"},
                 {scroll: {toHeading: "Tables", duration: 0.2}}, {snapshot: "c"}]}
        """)
        let runner = try ScriptRunner(view: view, script: s)
        var offsets: [Int: Double] = [:]
        try runner.run { number, _, event in offsets[number] = event.viewport.y }
        let snapshots = runner.snapshots
        XCTAssertEqual(offsets[snapshots["a"]!], 700)
        XCTAssertEqual(offsets[snapshots["b"]!]!, 450, accuracy: 1e-9)
        let tables = document.paragraphs.firstIndex { $0.text == "Tables" }!
        XCTAssertEqual(offsets[snapshots["c"]!], view.textLayoutManager.y(ofParagraphAt: tables))
    }

    /// An animated absolute scroll measures the paragraphs above its target when it starts; the
    /// correction that causes must be absorbed then, not show up as a jump on the last frame.
    func testAnimatedAbsoluteScrollHasNoJumpAtTheEnd() throws {
        let view = TextView(document: .generated(paragraphs: 3000), viewportSize: CGSize(width: 800, height: 600))
        view.exactScrollLayoutLimit = 0
        view.contentOffset = CGPoint(x: 0, y: 200_000)
        view.exactScrollLayoutLimit = 4000
        let s = try script("{steps: [{scroll: {toParagraph: 1500, duration: 0.5}}]}")
        var visible: [Double] = []
        var last: Double?
        var corrections = 0.0
        try ScriptRunner(view: view, script: s).run { _, _, event in
            if let last { visible.append(event.viewport.y - last - event.correction) }
            corrections += abs(event.correction)
            last = event.viewport.y
        }
        XCTAssertGreaterThan(corrections, 0, "measuring above the target corrected the offset")
        XCTAssertTrue(visible.allSatisfy { $0 <= 1e-6 }, "content only moves one way (up): \(visible)")
        XCTAssertLessThan(abs(visible.last!), abs(visible.min()!) * 0.2, "ease-out ends slowly, without a jump: \(visible)")
        XCTAssertEqual(view.contentOffset.y, view.textLayoutManager.y(ofParagraphAt: 1500))
    }

    /// Encoding on a second thread while the next frame is drawn changes no byte.
    func testParallelAndSerialWritingGiveTheSameBytes() throws {
        let parallel = Paths.temporaryFolder("parallel"), serial = Paths.temporaryFolder("serial")
        let base = ["render", "Fixtures/documents/attachments.md", "--script", "Fixtures/golden/video-policy/scroll.json5", "--quiet"]
        XCTAssertEqual(try CLI.run(base + ["--out", parallel.path]).status, 0)
        XCTAssertEqual(try CLI.run(base + ["--out", serial.path, "--serial"]).status, 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: serial.path).sorted()
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: parallel.path).sorted(), names)
        XCTAssertGreaterThan(names.count, 20)
        for name in names {
            XCTAssertEqual(try Data(contentsOf: parallel.appendingPathComponent(name)), try Data(contentsOf: serial.appendingPathComponent(name)), name)
        }
    }

    func testFramesSubrangeGivesTheSamePixelsAsAFullRun() throws {
        let full = Paths.temporaryFolder("full"), part = Paths.temporaryFolder("part")
        let base = ["render", "Fixtures/documents/demo.md", "--script", "Fixtures/scripts/demo.json5", "--quiet"]
        XCTAssertEqual(try CLI.run(base + ["--out", full.path]).status, 0)
        let result = try CLI.run(base + ["--out", part.path, "--frames", "60-64"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let written = try FileManager.default.contentsOfDirectory(atPath: part.path).filter { $0.hasPrefix("frame-") }.sorted()
        XCTAssertEqual(written, (60...64).map { String(format: "frame-%05d.png", $0) })
        for name in written {
            XCTAssertEqual(try Data(contentsOf: full.appendingPathComponent(name)), try Data(contentsOf: part.appendingPathComponent(name)), name)
        }
        let events = try String(contentsOf: full.appendingPathComponent("events.jsonl"), encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(events.count, try String(contentsOf: part.appendingPathComponent("events.jsonl"), encoding: .utf8).split(separator: "\n").count)
        let first = try JSONSerialization.jsonObject(with: Data(events[0].utf8)) as! [String: Any]
        for key in ["frame", "time", "viewport", "scale", "viewportBounds", "pass", "fragments", "edits", "correction", "laidOut", "attachments"] {
            XCTAssertNotNil(first[key], key)
        }
        let bad = try CLI.run(base + ["--out", part.path, "--frames", "90-9999"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("past the last frame"), bad.stderr)
    }
}

private extension String {
    /// Steps written one after another, as a script.
    var wrappedAsSteps: String { "{steps: [\(self)]}" }
}
