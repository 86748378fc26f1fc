import Foundation
@testable import TextReel
@testable import TextReelMarkdown
@testable import TextReelGolden
import XCTest

/// `layout.json` is written by `JSONText`, not by Foundation's encoder: every golden the project
/// keeps, and snapshots with what the goldens lack, must come out as the encoder's bytes exactly
/// (a golden whose bytes match is not decoded when its case is tested).
final class LayoutJSONTests: XCTestCase {
    func testEveryProjectLayoutIsTheEncodersBytes() throws {
        let golden = GoldenSuiteTests.fixtures.appendingPathComponent("golden")
        let files = (FileManager.default.enumerator(atPath: golden.path)?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix("layout.json") && $0.contains("expected/") }   // variants' too
        var frames = 0
        for file in files.sorted() {
            let stored = try Data(contentsOf: golden.appendingPathComponent(file))
            let snapshot = try JSONDecoder().decode(LayoutSnapshot.self, from: stored)
            XCTAssertEqual(String(decoding: try snapshot.json(), as: UTF8.self), String(decoding: stored, as: UTF8.self), file)
            XCTAssertEqual(try snapshot.json(), try LayoutSnapshot.encoder.encode(snapshot), file)
            frames += snapshot.frames.count
        }
        XCTAssertGreaterThan(files.count, 20, "the project's goldens were found")
        XCTAssertGreaterThan(frames, 100)
    }

    /// Empty frames, fragments and lists; selections and none; ids and events with everything
    /// JSON escapes; numbers of every form (random bit patterns, fixed seed); frame numbers whose
    /// text order is not their numeric order.
    func testSnapshotsTheGoldensLackAreTheEncodersBytes() throws {
        XCTAssertEqual(try LayoutSnapshot().json(), try LayoutSnapshot.encoder.encode(LayoutSnapshot()))
        var random = SplitMix(seed: 35)
        func number() -> Double {
            switch random.next() % 4 {
            case 0: return Double(Int32(truncatingIfNeeded: random.next()))
            case 1: return -0.0
            default:
                let value = Double(bitPattern: random.next())
                return value.isFinite ? value : 1e16
            }
        }
        let names = ["a/b", "q\"uote", "back\\slash", "tab\t\u{1}", "é 😀", ""]
        for _ in 0..<200 {
            var snapshot = LayoutSnapshot()
            for _ in 0..<Int(random.next() % 4) {
                let fragments = (0..<Int(random.next() % 3)).map { _ in
                    LayoutSnapshot.Fragment(
                        paragraph: Int(random.next() % 1000), index: Int(random.next() % 1000), y: number(), height: number(),
                        lines: (0..<Int(random.next() % 3)).map { _ in Int(random.next() % 500) },
                        lineBounds: (0..<Int(random.next() % 3)).map { _ in [number(), number()] },
                        attachments: (0..<Int(random.next() % 3)).map { _ in
                            LayoutSnapshot.Attachment(id: names[Int(random.next() % 6)], frame: LayoutRect(x: number(), y: number(), width: number(), height: number()))
                        })
                }
                let selection = random.next() % 2 == 0 ? nil : [[Int(random.next() % 9), Int(random.next() % 99)], [1, 2]]
                snapshot.frames[Int(random.next() % 120)] = LayoutSnapshot.Frame(
                    viewportY: number(), scale: number(), fragments: fragments,
                    events: (0..<Int(random.next() % 3)).map { _ in "\(names[Int(random.next() % 6)]): kept" }, selection: selection)
            }
            XCTAssertEqual(String(decoding: try snapshot.json(), as: UTF8.self), String(decoding: try LayoutSnapshot.encoder.encode(snapshot), as: UTF8.self))
        }
    }

    /// A number JSON cannot say fails as the encoder fails, not as `null`.
    func testANonFiniteNumberThrowsAsTheEncoderDoes() {
        var snapshot = LayoutSnapshot()
        snapshot.frames[1] = LayoutSnapshot.Frame(viewportY: .nan, scale: 1, fragments: [], events: [], selection: nil)
        XCTAssertThrowsError(try snapshot.json())
    }
}
