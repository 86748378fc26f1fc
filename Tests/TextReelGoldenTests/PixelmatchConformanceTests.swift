import Foundation
@testable import TextReel
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
            try assertEncodedAsMade(a, b, options, result)
        }
    }

    /// The diff image made piece by piece while it is compressed (what `textreel diff --out`
    /// writes) is `compare`'s image, with the same count and regions: on a large image of
    /// several pieces, in a mask and not.
    func testTheDiffImageEncodedWhileMadeIsTheImage() throws {
        let width = 1100, height = 2000   // scanlines of 8.8 MB: three pieces
        XCTAssertGreaterThan((width * 4 + 1) * height, 2 * PNGWriter.isalPieceBytes)
        var a = RGBAImage(width: width, height: height, pixels: [UInt8](repeating: 255, count: width * height * 4))
        var b = a
        for y in stride(from: 0, to: height, by: 37) {
            for x in 0..<width where (x / 5 + y) % 3 == 0 {
                let i = (y * width + x) * 4
                a.pixels[i] = UInt8(x % 200); b.pixels[i + 1] = UInt8(y % 250)
                if x % 11 == 0 { b.pixels[i + 3] = 128 }
            }
        }
        for mask in [false, true] {
            var options = ImageDiff.Options()
            options.diffMask = mask
            let result = ImageDiff.compare(a, b, options: options)
            XCTAssertGreaterThan(result.mismatch, 1_000)
            try assertEncodedAsMade(a, b, options, result)
        }
    }

    /// A scanline longer than a compression piece (an image over a million pixels wide) is
    /// compressed whole, not cut: the pieces are whole rows.
    func testAnImageWiderThanAPieceIsEncoded() throws {
        let width = PNGWriter.isalPieceBytes / 4 + 3, height = 3
        XCTAssertGreaterThan(width * 4 + 1, PNGWriter.isalPieceBytes)
        var a = RGBAImage(width: width, height: height, pixels: [UInt8](repeating: 255, count: width * height * 4))
        var b = a
        for x in stride(from: 0, to: width, by: 1001) { a.pixels[(width + x) * 4] = 0; b.pixels[(2 * width + x) * 4 + 2] = 9 }
        let result = ImageDiff.compare(a, b)
        XCTAssertGreaterThan(result.mismatch, 0)
        try assertEncodedAsMade(a, b, ImageDiff.Options(), result)
    }

    private func assertEncodedAsMade(_ a: RGBAImage, _ b: RGBAImage, _ options: ImageDiff.Options, _ made: ImageDiff.Result,
                                     file: StaticString = #filePath, line: UInt = #line) throws {
        let (result, png) = try ImageDiff.compareEncodingDiffImage(a, b, options: options)
        XCTAssertEqual(result.mismatch, made.mismatch, file: file, line: line)
        XCTAssertEqual(result.regions, made.regions, file: file, line: line)
        XCTAssertNil(result.image, file: file, line: line)
        XCTAssertEqual(try RGBAImage(pngData: png).pixels, made.image?.pixels, "the PNG's pixels are the image's", file: file, line: line)
        XCTAssertEqual(png, try made.image?.pngData(), "and its bytes the image's own PNG", file: file, line: line)
    }
}
