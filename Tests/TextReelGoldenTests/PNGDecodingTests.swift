import XCTest
@testable import TextReelGolden

/// `textreel diff` decodes every PNG colour type and depth exactly: 16-bit samples rounded to 8
/// bits as libpng's png_set_scale_16 does, no gamma curve (a 16-bit gray of 128·257 is 128, not
/// the 186 an sRGB conversion made of it).
final class PNGDecodingTests: XCTestCase {
    private func image(_ name: String) throws -> RGBAImage {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return try RGBAImage(contentsOf: root.appendingPathComponent("Fixtures/conformance/png-depths/\(name)"))
    }

    func testDepthsAndTypesDecodeExactly() throws {
        XCTAssertEqual(try image("gray16.png").pixels, [128, 128, 128, 255, 128, 128, 128, 255])
        XCTAssertEqual(try image("rgb16.png").pixels, [255, 0, 200, 255])
        XCTAssertEqual(try image("graya16.png").pixels, [10, 10, 10, 128])
        XCTAssertEqual(try image("palette4.png").pixels, [255, 0, 0, 128, 0, 255, 0, 255])
        XCTAssertEqual(try image("gamma8.png").pixels, [100, 150, 200, 255], "gAMA is not applied")
    }

    func testDamagedPNGsSayWhatIsWrong() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/conformance/png-depths/rgb16.png"))
        XCTAssertThrowsError(try RGBAImage(pngData: data.prefix(40))) { XCTAssertTrue("\($0)".contains("data ends at byte 40"), "\($0)") }
        XCTAssertThrowsError(try RGBAImage(pngData: Data("not a png".utf8))) { XCTAssertTrue("\($0)".contains("not a readable PNG"), "\($0)") }
    }
}
