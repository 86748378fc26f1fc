import XCTest
@testable import TextReel
@testable import TextReelMarkdown

/// Frames are compressed band by band, and a band made of the same surfaces at the same places
/// is a copy of its bytes: the PNG must decode to the frame's pixels, and its bytes must not
/// depend on what the cache held.
final class FrameBandsTests: XCTestCase {
    private func demoView(scale: Double = 1) throws -> TextView {
        TextView(document: try TextDocument(contentsOf: Paths.demo), viewportSize: CGSize(width: 800, height: 600), scale: scale)
    }

    private func assertDecodesToItsPixels(_ frame: RenderedFrame, _ what: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let decoded = try PNGDecoder.decode(try frame.pngData(), maximumPixels: 1 << 26)
        XCTAssertEqual(decoded.width, frame.width, what, file: file, line: line)
        XCTAssertTrue(decoded.rgba == frame.rgbaPixels(), "\(what): the PNG's pixels are the frame's", file: file, line: line)
    }

    /// A scroll drawn whole and one drawing only its last frames (`--frames`, a shard) give the
    /// same bytes, though the second's band cache starts cold.
    func testAScrolledFrameIsTheSameBytesColdAndWarm() throws {
        let script = try ScrollScript(data: Data(#"{fps: 60, steps: [{scroll: {by: 1200, duration: 0.5, curve: "linear"}}]}"#.utf8))
        for scale in [1.0, 2.0] {
            let warm = try demoView(scale: scale)
            var frames: [Int: RenderedFrame] = [:]
            try ScriptRunner(view: warm, script: script).run { number, frame, _ in
                frames[number] = frame
                _ = try frame?.pngData()   // in frame order, as a render writes them
            }
            for (number, frame) in frames.sorted(by: { $0.key < $1.key }) where number % 4 == 0 {
                try assertDecodesToItsPixels(frame, "scale \(scale), frame \(number)")
            }
            XCTAssertGreaterThan(warm.renderer.bands.hits, frames.count, "bands of paragraphs wholly on screen are reused while scrolling")
            let last = frames.keys.max()!
            let cold = try demoView(scale: scale)
            try ScriptRunner(view: cold, script: script).run(drawing: last - 1...last) { number, frame, _ in
                guard let frame else { return }
                XCTAssertEqual(frame.pixelDigest, frames[number]!.pixelDigest)
                XCTAssertEqual(try frame.pngData(), try frames[number]!.pngData(), "scale \(scale), frame \(number): the bytes are the same whatever the cache held")
            }
            XCTAssertLessThan(cold.renderer.bands.hits, cold.renderer.bands.misses, "the second run compressed most of its bands itself")
        }
    }

    /// The bands cost little size: within 1.3× of zlib at level 6 with libpng's adaptive filters.
    func testBandsCostLittleSize() throws {
        let view = try demoView()
        view.scroll(by: 400)
        let frame = try view.renderFrame()
        XCTAssertGreaterThan(frame.bands.bands.count, 3, "the frame is cut into several bands")
        let banded = try frame.pngData().count, zlib6 = try frame.libpngData().count
        XCTAssertLessThan(Double(banded), 1.3 * Double(zlib6), "banded \(banded) bytes against zlib-6 \(zlib6)")
    }

    /// The caret and the selection have no identity of their own: their bands are compressed
    /// every time, so a moved caret is never a stale band.
    func testBandsUnderTheCaretAreNeverReused() throws {
        let view = try demoView()
        view.isFocused = true
        let id = view.document.paragraphs[2].id
        var digests = Set<Int>()
        for offset in 0..<6 {
            view.selectedTextRange = TextRange(location: TextLocation(paragraph: id, offset: offset))
            let frame = try view.renderFrame()
            digests.insert(frame.pixelDigest)
            try assertDecodesToItsPixels(frame, "caret at \(offset)")
            XCTAssertTrue(frame.bands.bands.contains { $0.key == nil }, "the caret's band has no key")
        }
        XCTAssertEqual(digests.count, 6, "each frame shows the caret somewhere else")
    }

    /// Found while re-recording the goldens: the frame was composited under a clip where bands
    /// were kept, and Cairo antialiased the caret's edge otherwise than without one, so a typing
    /// session's PNGs depended on what the cache held. Cached, uncached and partial runs of the
    /// session give the same pixels and the same bytes.
    func testATypingSessionGivesTheSameFramesWhateverTheCacheHeld() throws {
        let document = try TextDocument(contentsOf: Paths.fixtures.appendingPathComponent("documents/editing.md"))
        let script = try ScrollScript(contentsOf: Paths.fixtures.appendingPathComponent("golden/typing-follow/script.json5"))
        let failure = try ScriptCheck.run(document: document, script: script, budget: Budget(), frames: 12...20)
        XCTAssertNil(failure, failure.map { "\($0.check) at frame \($0.frame ?? 0): \($0.message)" } ?? "")
    }

    /// Found by the explorer (shrunk): bands were cut at the first fragment of each 32 px of the
    /// document, and an estimate corrected in one run but not the other shifted document y
    /// without changing a pixel, so a second run wrote other bytes for the same frame. Cuts now
    /// follow the fragments' places in the frame.
    func testCutsFollowTheFrameNotTheDocumentsY() throws {
        let script = try ScrollScript(data: Data("""
            {viewport: {width: 400, height: 300, scale: 1}, fps: 30, steps: [{scroll: {toParagraph: 20, align: "top"}},
             {scroll: {by: -491.3}}, {wait: 0.2}, {fling: {velocity: -2345.15, deceleration: "fast"}}]}
            """.utf8))
        let failure = try ScriptCheck.run(document: try TextDocument(contentsOf: Paths.demo), script: script, budget: Budget(), frames: nil)
        XCTAssertNil(failure, failure.map { "\($0.check) at frame \($0.frame ?? 0): \($0.message)" } ?? "")
    }
}


extension FrameBandsTests {
    /// A fragment's rows are cut every `chunkRows` from its top, so in a scroll a fragment cut by
    /// an edge of the frame costs the one chunk the edge cuts, not all its rows on screen: per
    /// frame, about two half chunks and the rows scrolled in are compressed: 53 rows here, where
    /// bands cut at fragment tops only compressed 126.
    func testAFragmentAtAnEdgeCostsOnlyTheChunkItCuts() throws {
        let view = TextView(document: TextDocument.generated(paragraphs: 400), viewportSize: CGSize(width: 800, height: 600))
        let script = try ScrollScript(data: Data(#"{fps: 60, steps: [{scroll: {by: 2400, duration: 1.65, curve: "linear"}}]}"#.utf8))
        var compressed: [Int] = []
        try ScriptRunner(view: view, script: script).run { number, frame, _ in
            guard let frame else { return }
            let fresh = frame.bands.bands.filter { $0.kept == nil }
            _ = try frame.pngData()
            if number > 10 { compressed.append(fresh.reduce(0) { $0 + $1.rows.count }) }
        }
        let mean = Double(compressed.reduce(0, +)) / Double(compressed.count)
        XCTAssertGreaterThan(compressed.count, 80)
        XCTAssertLessThan(mean, 80, "rows compressed a frame")
    }
}
