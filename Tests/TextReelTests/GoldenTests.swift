import XCTest
@testable import TextReel

/// The project's golden frames: each folder under Fixtures/golden is a case (`case.json5`) whose
/// `expected/` frames must match a fresh render pixel for pixel. A missing golden is recorded from
/// the render (and the test fails, so a person looks at it) unless CI is set.
final class GoldenTests: XCTestCase {
    struct Case: Decodable {
        var document: String
        var script: String?
        var frames: String?
        var overlay: Bool?
    }

    func testGoldenFrames() throws {
        let root = Paths.fixtures.appendingPathComponent("golden")
        let names = try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
        XCTAssertFalse(names.isEmpty)
        for name in names {
            let folder = root.appendingPathComponent(name)
            let decoder = JSONDecoder()
            decoder.allowsJSON5 = true
            let spec = try decoder.decode(Case.self, from: Data(contentsOf: folder.appendingPathComponent("case.json5")))
            let document = try TextDocument(contentsOf: folder.appendingPathComponent(spec.document))
            let script = try spec.script.map { try ScrollScript(contentsOf: folder.appendingPathComponent($0)) } ?? .still
            let viewport = script.viewport ?? .init(width: 800, height: 600, scale: 1)
            let view = TextView(document: document, viewportSize: CGSize(width: viewport.width, height: viewport.height),
                                scale: viewport.scale)
            view.showsOverlay = spec.overlay ?? false
            let runner = try ScriptRunner(view: view, script: script)
            let wanted = spec.frames == "snapshots" ? Set(runner.snapshots.values) : Set(1...runner.frameCount)
            let expected = folder.appendingPathComponent("expected")
            try runner.run { number, frame, _ in
                guard wanted.contains(number), let frame else { return }
                let file = expected.appendingPathComponent(String(format: "frame-%05d.png", number))
                guard FileManager.default.fileExists(atPath: file.path) else {
                    if ProcessInfo.processInfo.environment["CI"] == nil {
                        try FileManager.default.createDirectory(at: expected, withIntermediateDirectories: true)
                        try frame.write(to: file)
                        XCTFail("\(name): recorded missing golden \(file.lastPathComponent); look at it, then run again")
                    } else {
                        XCTFail("\(name): golden \(file.lastPathComponent) is missing")
                    }
                    return
                }
                let golden = try RenderedFrame(contentsOfPNG: file)
                XCTAssertEqual(golden.width, frame.width, "\(name) \(number)")
                XCTAssertEqual(golden.height, frame.height, "\(name) \(number)")
                if golden.width == frame.width && golden.height == frame.height {
                    XCTAssertTrue(golden.rgbRows(0..<golden.height) == frame.rgbRows(0..<frame.height),
                                  "\(name): frame \(number) differs from its golden \(file.path)")
                }
            }
        }
    }
}
