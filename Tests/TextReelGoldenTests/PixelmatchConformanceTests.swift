import Foundation
@testable import TextReel
@testable import TextReelMarkdown
@testable import TextReelGolden
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
        var streamed = 0
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
            // The files themselves, decoded as they are compared (those of the kind that can be).
            let files = try [c.a, c.b].map { try Data(contentsOf: Self.folder.appendingPathComponent($0)) }
            if let found = try ImageDiff.compare(png: files[0], files[1], options: options, diffImage: true) {
                streamed += 1
                XCTAssertEqual(found.result.mismatch, result.mismatch, "\(c.a) vs \(c.b) decoded as compared")
                XCTAssertEqual(found.result.regions, result.regions)
                XCTAssertEqual(try RGBAImage(pngData: XCTUnwrap(found.png)).pixels, result.image?.pixels)
            }
        }
        XCTAssertGreaterThan(streamed, 4, "most of pixelmatch's files are 8-bit RGBA")
    }

    /// The diff image made piece by piece while it is compressed (what `textreel diff --out`
    /// writes) is `compare`'s image, with the same count and regions: on a large image of
    /// several pieces, in a mask and not.
    func testTheDiffImageEncodedWhileMadeIsTheImage() throws {
        let width = 1100, height = 2000   // scanlines of 8.8 MB: nine pieces
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
        // The same from the images' PNG files, decoded a band at a time as they are compared.
        let files = try [a, b].map { try $0.pngData() }
        for diffImage in [true, false] {
            let compared = try ImageDiff.compare(png: files[0], files[1], options: options, diffImage: diffImage)
            guard a.width * 4 <= 1 << 20 else {
                XCTAssertNil(compared, "rows wider than a megabyte are decoded whole", file: file, line: line)
                continue
            }
            let streamed = try XCTUnwrap(compared, file: file, line: line)
            XCTAssertEqual(streamed.result.mismatch, made.mismatch, "decoded as compared, diff image \(diffImage)", file: file, line: line)
            XCTAssertEqual(streamed.result.regions, made.regions, file: file, line: line)
            XCTAssertEqual(streamed.png, diffImage ? png : nil, "the same diff image's bytes", file: file, line: line)
        }
    }

    /// A file that cannot be decoded as it is compared (damaged, another kind, another size)
    /// gives nil, so both are decoded whole and libpng says what is wrong; a sound pair does not.
    func testDamagedFilesAreLeftToTheWholeDecoder() throws {
        let width = 300, height = 200
        var pixels = [UInt8](repeating: 200, count: width * height * 4)
        for i in stride(from: 0, to: pixels.count, by: 28) { pixels[i] = UInt8(i % 256) }
        let sound = try PNGWriter.encodeRGBA(pixels, width: width, height: height)
        XCTAssertNotNil(try ImageDiff.compare(png: sound, sound, diffImage: false))
        // The sound file's stream, and files made of other streams in one IDAT chunk.
        let stream = Array(sound[(33 + 8)..<(sound.count - 12 - 4)])
        func file(_ idat: [UInt8]) -> Data {
            var png = Data(sound[..<33])
            png.append(contentsOf: [UInt8(idat.count >> 24 & 0xFF), UInt8(idat.count >> 16 & 0xFF), UInt8(idat.count >> 8 & 0xFF), UInt8(idat.count & 0xFF)])
            png.append(contentsOf: Array("IDAT".utf8) + idat + [0, 0, 0, 0])
            png.append(sound[(sound.count - 12)...])
            return png
        }
        XCTAssertNotNil(try ImageDiff.compare(png: sound, file(stream), diffImage: false), "the file rebuilt is sound")
        var checksum = stream; checksum[checksum.count - 1] ^= 0x5A
        let smaller = try PNGWriter.encodeRGBA(Array(pixels[..<(width * (height - 1) * 4)]), width: width, height: height - 1)
        var grey = sound; grey[25] = 0
        let damaged = [("checksum", file(checksum)), ("cut", file(Array(stream.dropLast(40)))), ("trailing bytes", file(stream + [1, 2, 3])),
                       ("rows short", file(Array(smaller[(33 + 8)..<(smaller.count - 12 - 4)]))), ("another size", smaller),
                       ("a grey file", grey)]
        for (name, other) in damaged {
            XCTAssertNil(try ImageDiff.compare(png: sound, other, diffImage: true), name)
            XCTAssertNil(try ImageDiff.compare(png: other, sound, diffImage: false), name)
        }
    }
}
