import XCTest
@testable import TextReel
import TextReelExplorer
@testable import TextReelMarkdown

/// Frames in which nothing can have changed reuse the last pass and pixels: a whole run gives the
/// same events, byte for byte, and the same pixels with the reuse on and off, on generated
/// scripts of every step kind over documents with attachments.
final class QuietFrameTests: XCTestCase {
    private func run(_ document: TextDocument, _ generated: ExploreScript, reusing: Bool) throws -> (events: [Data], digests: [Int], reused: Int) {
        let view = TextView(document: document, viewportSize: CGSize(width: generated.width, height: generated.height))
        view.reusesQuietFrames = reusing
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var events: [Data] = [], digests: [Int] = [], reused = 0
        try ScriptRunner(view: view, script: ScrollScript(data: Data(generated.json5.utf8))).run { _, frame, event in
            events.append(try encoder.encode(event))
            digests.append(frame?.pixelDigest ?? 0)
            if event.pass.isEmpty == false, frame?.isRepeat == true { reused += 1 }
        }
        return (events, digests, reused)
    }

    func testRunsAreTheSameWithAndWithoutReuse() throws {
        let documents = try ["demo.md", "attachments.md", "editing.md", "emoji.md", "comments.md", "typing-video.md"].map {
            try TextDocument(contentsOf: Paths.fixtures.appendingPathComponent("documents/\($0)"))
        }
        var repeats = 0
        for (d, document) in documents.enumerated() {
            for seed in UInt64(0)..<8 {
                var generator = ScriptGenerator(document: document, seed: seed)
                let generated = generator.script(steps: 10)
                let plain = try run(document, generated, reusing: false), quick = try run(document, generated, reusing: true)
                XCTAssertEqual(plain.events.count, quick.events.count)
                for (k, (a, b)) in zip(plain.events, quick.events).enumerated() where a != b {
                    XCTFail("document \(d), seed \(seed), frame \(k + 1):\n\(String(decoding: a, as: UTF8.self))\n\(String(decoding: b, as: UTF8.self))\n\(generated.json5)")
                    break
                }
                XCTAssertEqual(plain.digests, quick.digests, "document \(d), seed \(seed): pixels")
                repeats += quick.reused
            }
        }
        XCTAssertGreaterThan(repeats, 0, "some frames were quiet")
    }

    /// The explorer's find, shrunk: a video played after a wait was given the wait's time (the
    /// quiet frames had no pass to move its clock), so its position, and its pixels, depended on
    /// whether the frames before were drawn. Full runs with and without reuse and a run drawing
    /// only frames 5–9 now agree.
    func testAVideoPlayedAfterAWaitStartsWhenPlayed() throws {
        let document = try TextDocument(contentsOf: Paths.fixtures.appendingPathComponent("documents/attachments.md"))
        let script = try ScrollScript(data: Data("""
        {viewport: {width: 400, height: 300, scale: 1}, fps: 30,
         steps: [{wait: 0.2}, {play: "intro"}, {scroll: {by: 0, duration: 0.2, curve: "linear"}}]}
        """.utf8))
        func run(reusing: Bool, drawing: ClosedRange<Int>) throws -> [Int: (digest: Int, position: Double)] {
            let view = TextView(document: document, viewportSize: CGSize(width: 400, height: 300))
            view.reusesQuietFrames = reusing
            var frames: [Int: (Int, Double)] = [:]
            try ScriptRunner(view: view, script: script).run(drawingWhere: { drawing.contains($0) }) { number, frame, _ in
                guard let frame else { return }
                let video = try XCTUnwrap(view.attachmentView(id: "intro") as? VideoAttachmentView)
                frames[number] = (frame.pixelDigest, video.position)
            }
            return frames
        }
        let full = try run(reusing: true, drawing: 1...13), plain = try run(reusing: false, drawing: 1...13)
        let part = try run(reusing: true, drawing: 5...9)
        for number in 5...9 {
            XCTAssertEqual(full[number]!.position, plain[number]!.position, "frame \(number): reuse changes no clock")
            XCTAssertEqual(full[number]!.position, part[number]!.position, "frame \(number): drawing fewer frames changes no clock")
            XCTAssertEqual(full[number]!.digest, part[number]!.digest, "frame \(number): pixels")
        }
        XCTAssertGreaterThan(full[9]!.position, 0, "it plays")
    }

    /// A wait after a scroll is quiet; a playing video is not, and neither is a blinking caret.
    func testAWaitIsQuietUnlessSomethingAnimates() throws {
        let document = try TextDocument(markdown: "# Quiet\n\nA video ![](video:v?size=120x60&duration=9) here.\n\nText.")
        func quietFrames(_ script: String) throws -> Int {
            let view = TextView(document: document, viewportSize: CGSize(width: 400, height: 300))
            var count = 0
            try ScriptRunner(view: view, script: ScrollScript(data: Data(script.utf8))).run { _, _, _ in
                if view.repeatablePass() != nil { count += 1 }
            }
            return count
        }
        XCTAssertGreaterThan(try quietFrames("{fps: 10, steps: [{wait: 1}]}"), 5, "a wait once loaded")
        XCTAssertEqual(try quietFrames("{fps: 10, steps: [{play: \"v\"}, {wait: 1}]}"), 0, "a playing video changes every frame")
        XCTAssertEqual(try quietFrames("{fps: 10, caretBlink: 0.5, steps: [{select: {paragraph: 2, from: 1}}, {wait: 1}]}"), 0, "a blinking caret")
    }

    /// A repeated frame written with its frame's bytes already in a file gets a hard link to it,
    /// not a new file; written again over the same names, every file still holds its own frame's
    /// bytes and nothing is left beside them. Durable files are written as files.
    func testRepeatedFramesAreLinksToTheFileOfTheirFrame() throws {
        let folder = Paths.temporaryFolder()
        let view = TextView(document: try TextDocument(markdown: "# Still\n\nNothing moves here."), viewportSize: CGSize(width: 300, height: 200))
        var frames: [RenderedFrame] = []
        try ScriptRunner(view: view, script: ScrollScript(data: Data("{fps: 10, steps: [{wait: 1}]}".utf8))).run { _, frame, _ in
            if let frame { frames.append(frame) }
        }
        XCTAssertEqual(frames.count, 11)
        XCTAssertEqual(frames.filter(\.isRepeat).count, 10)
        let url = { (k: Int) in folder.appendingPathComponent("frame-\(k).png") }
        func links(_ k: Int) -> Int { var status = stat(); return stat(url(k).path, &status) == 0 ? Int(status.st_nlink) : 0 }
        for round in 0..<2 {
            let writer = FrameWriter(parallel: false)
            for (k, frame) in frames.enumerated() { try writer.write(frame, to: url(k)) }
            try writer.finish()
            XCTAssertEqual(links(0), 11, "round \(round): every repeat is a name of the first frame's file")
            for (k, frame) in frames.enumerated() { XCTAssertEqual(try Data(contentsOf: url(k)), try frame.pngData(), "frame \(k)") }
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).count, 11, "no temporary left")
        }
        let durable = folder.appendingPathComponent("durable.png")
        try frames[5].write(to: durable)
        XCTAssertEqual(links(0), 11)
        XCTAssertEqual(try Data(contentsOf: durable), try frames[5].pngData())
    }
}
