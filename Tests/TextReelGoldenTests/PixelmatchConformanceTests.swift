import Foundation
import TextReelGolden
import XCTest

/// pixelmatch 7.2's own test fixtures: every case must give the same mismatch count and the same
/// diff image, pixel for pixel.
final class PixelmatchConformanceTests: XCTestCase {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/conformance/pixelmatch-7.2.0")

    struct Suite: Decodable { var cases: [Case] }
    struct Case: Decodable {
        var a, b, diff: String
        var mismatch: Int
        var options: Options
    }
    struct Options: Decodable {
        var threshold: Double?
        var includeAA: Bool?
        var diffMask: Bool?
    }

    func testEveryCaseMatchesExactly() throws {
        let suite = try JSONDecoder().decode(Suite.self, from: Data(contentsOf: Self.folder.appendingPathComponent("cases.json")))
        XCTAssertEqual(suite.cases.count, 9)
        for c in suite.cases {
            let a = try RGBAImage(contentsOf: Self.folder.appendingPathComponent(c.a))
            let b = try RGBAImage(contentsOf: Self.folder.appendingPathComponent(c.b))
            var options = ImageDiff.Options()
            if let t = c.options.threshold { options.threshold = t }
            if let aa = c.options.includeAA { options.includeAA = aa }
            if let mask = c.options.diffMask { options.diffMask = mask }
            let result = ImageDiff.compare(a, b, options: options)
            XCTAssertEqual(result.mismatch, c.mismatch, "\(c.a) vs \(c.b) \(c.options)")
            let expected = try RGBAImage(contentsOf: Self.folder.appendingPathComponent(c.diff))
            let got = try XCTUnwrap(result.image)
            let differing = zip(got.pixels, expected.pixels).filter { $0 != $1 }.count
            XCTAssertEqual(differing, 0, "diff image of \(c.a) vs \(c.b) differs from \(c.diff) in \(differing) bytes")
        }
    }
}
