import XCTest
@testable import TextReel

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
}
