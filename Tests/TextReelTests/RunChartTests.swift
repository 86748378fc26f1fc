import XCTest
@testable import TextReel
@testable import TextReelMarkdown

/// The run as a chart: one row per measure with a point per frame, failing frames marked, from
/// `render --chart` and in each report case.
final class RunChartTests: XCTestCase {
    func testEveryMeasureIsARowWithAPointPerFrameAndFailingFramesAreMarked() throws {
        var chart = RunChart()
        for frame in 1...5 {
            chart.points.append(.init(frame: frame, y: Double(frame * 100), correction: frame == 3 ? -20 : 0, shaped: frame == 1 ? 9 : 1,
                                      created: frame == 2 ? 1 : 0, discarded: 0, broken: frame == 4 ? 1 : 0))
        }
        let svg = chart.svg(failing: [4])
        XCTAssertTrue(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        let lines = svg.components(separatedBy: "<polyline").dropFirst()
        XCTAssertEqual(lines.count, 6, "viewport y, correction, shaped, made, discarded, broken")
        for line in lines {
            let points = line.components(separatedBy: "points=\"")[1].prefix { $0 != "\"" }.split(separator: " ")
            XCTAssertEqual(points.count, 5)
        }
        XCTAssertTrue(svg.contains("<title>frame 4 fails</title>"))
        XCTAssertFalse(svg.contains("frame 3 fails"))
        XCTAssertTrue(svg.contains(">-20<"), "a negative correction has its low mark")
    }

    func testRenderWritesTheChartOfItsRun() throws {
        let out = Paths.temporaryFolder()
        let chart = out.appendingPathComponent("run.svg")
        let result = try CLI.run(["render", "Fixtures/documents/attachments.md", "--script", "Fixtures/golden/video-policy/scroll.json5",
                                  "--out", out.appendingPathComponent("frames").path, "--quiet", "--chart", chart.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let svg = try String(contentsOf: chart, encoding: .utf8)
        let frames = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("frames").path).filter { $0.hasPrefix("frame-") }.count
        XCTAssertTrue(svg.contains("frame \(frames)</text>"), "the last frame's number on the axis")
    }
}
