import Foundation
import XCTest

/// Completions offer what the commands take, in the words their help uses.
final class CompletionsTests: XCTestCase {
    func testCompletionsOfferPreviewsImageAndTheUpdateModesByTheirNames() throws {
        for shell in ["bash", "zsh", "fish"] {
            let result = try CLI.run(["completions", shell])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertTrue(result.stdout.contains("image"), "\(shell): preview's --image")
            XCTAssertTrue(result.stdout.contains("watch"), "\(shell): preview's --watch")
            XCTAssertTrue(result.stdout.contains("none"), "\(shell): --update none, as help says")
            XCTAssertFalse(result.stdout.contains("never"), "\(shell): help says none, not never")
        }
    }
}
