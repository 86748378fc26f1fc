import XCTest
@testable import TextReel
@testable import TextReelMarkdown

/// `render --animation`: an animated PNG by TextReel's writer and a lossless animated WebP by
/// libwebp, byte-identical across runs, with the script's delays and repeats merged.
final class AnimationTests: XCTestCase {
    /// The chunks of a PNG file: type and body.
    private func chunks(_ data: Data) -> [(type: String, body: Data)] {
        var out: [(String, Data)] = [], at = 8
        let bytes = [UInt8](data)
        while at + 8 <= bytes.count {
            let length = u32(Data(bytes[at..<at + 4]), 0)
            out.append((String(decoding: bytes[at + 4..<at + 8], as: UTF8.self), Data(bytes[at + 8..<at + 8 + length])))
            at += 12 + length
        }
        return out
    }

    private func u32(_ d: Data, _ i: Int) -> Int {
        let b = [UInt8](d)
        var value = 0
        for k in 0..<4 { value = value << 8 | Int(b[i + k]) }
        return value
    }

    private func little(_ b: [UInt8], _ i: Int, _ count: Int) -> Int {
        var value = 0
        for k in (0..<count).reversed() { value = value << 8 | Int(b[i + k]) }
        return value
    }

    func testAnimatedPNGAndWebPOfAScriptWithWaits() throws {
        let root = Paths.temporaryFolder()
        let script = root.appendingPathComponent("s.json5")
        try Data("{fps: 10, viewport: {width: 320, height: 200}, steps: [{scroll: {by: 90, duration: 0.3}}, {wait: 0.5}, {scroll: {by: -40, duration: 0.2}}]}".utf8).write(to: script)
        var files: [String: [Data]] = [:]
        for run in 0..<2 {
            for ext in ["png", "webp"] {
                let animation = root.appendingPathComponent("a\(run).\(ext)")
                let result = try CLI.run(["render", "Fixtures/documents/demo.md", "--script", script.path, "--out", root.appendingPathComponent("f\(run)\(ext)").path,
                                          "--quiet", "--animation", animation.path])
                XCTAssertEqual(result.status, 0, result.stderr)
                files[ext, default: []].append(try Data(contentsOf: animation))
            }
        }
        XCTAssertEqual(files["png"]![0], files["png"]![1], "the same bytes on every run")
        XCTAssertEqual(files["webp"]![0], files["webp"]![1])
        let frames = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("f0png").path).filter { $0.hasPrefix("frame-") }.sorted()
        let distinct = Set(try frames.map { try Data(contentsOf: root.appendingPathComponent("f0png").appendingPathComponent($0)) }).count
        XCTAssertLessThan(distinct, frames.count, "the wait repeats frames")

        let apng = chunks(files["png"]![0])
        XCTAssertEqual(apng.first?.type, "IHDR")
        let control = try XCTUnwrap(apng.first { $0.type == "acTL" })
        let fcTL = apng.filter { $0.type == "fcTL" }
        XCTAssertEqual(u32(control.body, 0), fcTL.count)
        XCTAssertEqual(fcTL.count, distinct, "repeated frames merged into longer ones")
        let sequence = apng.filter { $0.type == "fcTL" || $0.type == "fdAT" }.map { u32($0.body, 0) }
        XCTAssertEqual(sequence, Array(0..<sequence.count), "sequence numbers run on")
        let seconds = fcTL.reduce(0.0) { total, chunk in
            let b = [UInt8](chunk.body)
            let numerator = Double(Int(b[20]) << 8 | Int(b[21])), denominator = Double(Int(b[22]) << 8 | Int(b[23]))
            return total + numerator / denominator
        }
        XCTAssertEqual(seconds, Double(frames.count) / 10, accuracy: 0.001, "delays add up to the script's frames at its fps")
        // The first frame is what a plain PNG reader shows: frame 1's pixels.
        let first = try PNGDecoder.decode(files["png"]![0], maximumPixels: 1 << 24)
        let frame1 = try PNGDecoder.decode(try Data(contentsOf: root.appendingPathComponent("f0png/frame-00001.png")), maximumPixels: 1 << 24)
        XCTAssertEqual(first.rgba, frame1.rgba)

        let webp = [UInt8](files["webp"]![0])
        XCTAssertEqual(String(decoding: webp[0..<4], as: UTF8.self), "RIFF")
        XCTAssertEqual(String(decoding: webp[8..<16], as: UTF8.self), "WEBPVP8X")
        var at = 12, anmf: [Int] = []
        while at + 8 <= webp.count {
            let type = String(decoding: webp[at..<at + 4], as: UTF8.self)
            let size = little(webp, at + 4, 4)
            if type == "ANMF" { anmf.append(little(webp, at + 20, 3)) }
            at += 8 + size + (size & 1)
        }
        XCTAssertEqual(anmf.reduce(0, +), frames.count * 100, "durations in ms add up")
        XCTAssertLessThanOrEqual(anmf.count, distinct)
        XCTAssertEqual(try CLI.run(["render", "Fixtures/documents/demo.md", "--out", root.appendingPathComponent("x").path, "--animation", "a.gif"]).status, 2)
    }
}
