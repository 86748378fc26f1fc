import Foundation
import TextReelGolden
import XCTest

/// The project's own golden suite (Fixtures/golden): the demo, every attachment policy scenario,
/// scripts of the world at scale 2, and the overlay. A missing golden is recorded (not in CI) and
/// fails, so a person looks at it before it counts.
final class ProjectGoldenTests: XCTestCase {
    func testProjectSuite() throws {
        let folder = GoldenSuiteTests.fixtures.appendingPathComponent("golden")
        let results = try GoldenSuite.run(GoldenSuite.cases(in: [folder]), options: .init(update: try GoldenFrames.recordMode))
        XCTAssertGreaterThanOrEqual(results.count, 9)
        for result in results {
            XCTAssertEqual(result.status, .passed, "\(result.name):\n" + Reports.reasons(result).joined(separator: "\n"))
        }
    }
}
