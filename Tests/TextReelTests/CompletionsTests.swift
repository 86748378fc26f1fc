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

/// A graphics mode the terminal does not say it shows is drawn anyway, with a warning saying so.
final class TerminalImageWarningTests: XCTestCase {
    func testAGraphicsModeTheTerminalLacksIsSaid() throws {
        let dumb = try CLI.run(["preview", "Fixtures/documents/demo.md", "--image=sixels"], environment: ["TERM": "dumb"])
        XCTAssertEqual(dumb.status, 0, dumb.stderr)
        XCTAssertTrue(dumb.stderr.contains("--image=sixels: this terminal (TERM=dumb) does not say it shows sixels"), dumb.stderr)
        let kitty = try CLI.run(["preview", "Fixtures/documents/demo.md", "--image=kitty"], environment: ["TERM": "xterm-kitty"])
        XCTAssertFalse(kitty.stderr.contains("does not say it shows"), kitty.stderr)
        let symbols = try CLI.run(["preview", "Fixtures/documents/demo.md", "--image=symbols"], environment: ["TERM": "dumb"])
        XCTAssertFalse(symbols.stderr.contains("warning"), symbols.stderr)
    }
}
