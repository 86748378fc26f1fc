import XCTest
@testable import TextReel
@testable import TextReelMarkdown

final class HeightIndexTests: XCTestCase {
    func testAgreesWithAnArrayUnderRandomOperations() {
        let heights = (0..<3000).map { Double(10 + ($0 * 7919) % 50) }
        check(HeightIndex(heights: heights), model: heights)
    }

    /// Lazy leaves whose estimate equals the uniform height must behave exactly like eager ones.
    func testLazyIndexAgreesWithAnArrayUnderRandomOperations() {
        check(HeightIndex(count: 3000, uniform: 30) { _ in 30 }, model: Array(repeating: 30, count: 3000))
    }

    /// Random operations against a plain array: every query must agree.
    private func check(_ start: HeightIndex, model start2: [Double]) {
        var random = SplitMix(seed: 7)
        var model = start2
        var index = start
        for step in 0..<4000 {
            let r = Int(random.next() % 100)
            let i = Int(random.next() % UInt64(model.count))
            switch r {
            case 0..<40:
                let h = Double(random.next() % 200)
                index.setHeight(h, at: i, measured: true)
                model[i] = h
            case 40..<50:
                let h = Double(1 + random.next() % 90)
                index.insert(h, at: i)
                model.insert(h, at: i)
            case 50..<60 where model.count > 1:
                index.remove(at: i)
                model.remove(at: i)
            case 60..<80:
                let prefix = model[..<i].reduce(0, +)
                XCTAssertEqual(index.offset(of: i), prefix, accuracy: 1e-6, "offset at step \(step)")
            default:
                let y = Double(random.next() % UInt64(model.reduce(0, +)))
                var rest = y, found = 0
                while found < model.count - 1 && rest >= model[found] { rest -= model[found]; found += 1 }
                let got = index.index(containing: y)
                XCTAssertEqual(got.index, found, "index at step \(step)")
                XCTAssertEqual(got.offset, rest, accuracy: 1e-6)
            }
            XCTAssertEqual(index.count, model.count)
        }
        // Touch everything so lazy leaves are expanded, then compare totals.
        for i in 0..<model.count { XCTAssertEqual(index.height(at: i), model[i]) }
        XCTAssertEqual(index.totalHeight, model.reduce(0, +), accuracy: 1e-6)
    }

    func testLazyLeavesAreEstimatedOnlyWhenTouched() {
        var asked = Set<Int>()
        let index = HeightIndex(count: 100_000, uniform: 20) { asked.insert($0); return 40 }
        XCTAssertEqual(index.totalHeight, 2_000_000)
        XCTAssertTrue(asked.isEmpty)
        XCTAssertEqual(index.height(at: 50_000), 40)
        XCTAssertEqual(asked.count, HeightIndex.leafCapacity, "one leaf estimated")
        XCTAssertEqual(index.totalHeight, 2_000_000 + 20 * Double(HeightIndex.leafCapacity))
    }

    /// The uniform height is asked for only by a total that needs a lazy leaf's: the first
    /// screen (paragraphs of the first leaf, from y = 0) needs none, so it can be sampled on
    /// another thread meanwhile. Totals are then the same, to the bit, as when it was given.
    func testUniformHeightIsAskedOnlyForTotals() {
        var asked = 0
        var deferred = HeightIndex(count: 100_000, uniform: { asked += 1; return 20.7 }) { 30 + Double($0 % 7) * 0.1 }
        var given = HeightIndex(count: 100_000, uniform: 20.7) { 30 + Double($0 % 7) * 0.1 }
        for i in 0..<40 {
            XCTAssertEqual(deferred.offset(of: i), given.offset(of: i))
            deferred.setHeight(41.3, at: i, measured: true)
            given.setHeight(41.3, at: i, measured: true)
        }
        XCTAssertEqual(deferred.index(containing: 0).index, 0)
        XCTAssertEqual(asked, 0, "laying out the first screen")
        XCTAssertEqual(deferred.totalHeight.bitPattern, given.totalHeight.bitPattern)
        let leaves = asked
        XCTAssertEqual(leaves, 100_000 / HeightIndex.leafCapacity, "once for each lazy leaf")
        XCTAssertEqual(deferred.totalHeight.bitPattern, given.totalHeight.bitPattern)
        XCTAssertEqual(asked, leaves, "totals are kept until something below them changes")
        XCTAssertEqual(deferred.index(containing: 1_234_567).index, given.index(containing: 1_234_567).index)
        deferred.setHeight(12, at: 99_999, measured: true)
        given.setHeight(12, at: 99_999, measured: true)
        XCTAssertEqual(deferred.totalHeight.bitPattern, given.totalHeight.bitPattern)
    }
}
