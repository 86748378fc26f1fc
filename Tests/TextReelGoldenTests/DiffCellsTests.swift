import Foundation
@testable import TextReel
@testable import TextReelMarkdown
@testable import TextReelGolden
import XCTest

/// The regions of a comparison are found band by band: whatever rows the bands cut at, they are
/// the groups of 8-connected 16-pixel cells holding a difference, each group's pixels' bounding box.
final class DiffCellsTests: XCTestCase {
    func testBandsCutAnywhereGiveTheRegionsOfThePixels() {
        let width = 300, height = 200
        var generator = SplitMix(seed: 7)
        for round in 0..<40 {
            let points = (0..<Int(generator.next() % 60)).map { _ in
                (x: Int(generator.next() % UInt64(width)), y: Int(generator.next() % UInt64(height)))
            }
            // Bands cut at random rows, none a multiple of the cell's 16 when it can be helped.
            var cuts = Set((0..<Int(generator.next() % 6)).map { _ in Int(generator.next() % UInt64(height - 1)) + 1 })
            cuts.formUnion([0, height])
            let bounds = cuts.sorted()
            let bands = zip(bounds, bounds.dropFirst()).map { lower, upper in
                var cells = DiffCells(width: width, rows: lower..<upper)
                for p in points where (lower..<upper).contains(p.y) { cells.add(x: p.x, y: p.y) }
                return cells.occupied
            }
            XCTAssertEqual(DiffCells.regions(bands, width: width), Self.reference(points, width: width), "round \(round), cuts \(bounds)")
            XCTAssertEqual(DiffCells.regions(bands.reversed(), width: width), Self.reference(points, width: width), "bands in any order")
        }
    }

    /// The groups found the slow way: cells joined while any two of two groups touch.
    static func reference(_ points: [(x: Int, y: Int)], width: Int) -> [CGRect] {
        var groups: [[(x: Int, y: Int)]] = []
        for p in points.sorted(by: { ($0.y / 16, $0.x / 16) < ($1.y / 16, $1.x / 16) }) {
            let touching = groups.indices.filter { k in
                groups[k].contains { abs($0.x / 16 - p.x / 16) <= 1 && abs($0.y / 16 - p.y / 16) <= 1 }
            }
            var merged = [p]
            for k in touching.reversed() { merged += groups.remove(at: k) }
            groups.insert(merged, at: touching.first ?? groups.count)
        }
        // In the order of each group's first cell, row by row.
        return groups.map { group -> (key: (Int, Int), box: CGRect) in
            let xs = group.map(\.x), ys = group.map(\.y)
            let first = group.map { ($0.y / 16, $0.x / 16) }.min { $0 < $1 }!
            return (first, CGRect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()! + 1, height: ys.max()! - ys.min()! + 1))
        }.sorted { $0.key < $1.key }.map(\.box)
    }
}
