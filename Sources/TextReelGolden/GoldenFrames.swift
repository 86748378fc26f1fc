import Foundation
import TextReelMarkdown

/// Golden frames from Swift tests (XCTest or Swift Testing), in the spirit of
/// swift-snapshot-testing: render a `TextView` along a script and compare its frames with goldens
/// stored beside the test file, in `__Goldens__/<test file>/<name>/expected/` (the folders
/// `assertGoldenFrames` of `TextReelTesting` uses too).
///
/// ```swift
/// let view = MyTextView(document: doc, viewportSize: CGSize(width: 400, height: 300))
/// XCTAssertNoThrow(try GoldenFrames.verify(view, named: "my-view"))   // or #expect(throws: Never.self)
/// ```
///
/// `TEXTREEL_RECORD` sets the record mode: `missing` (the default; `none` when `CI` is set),
/// `changed`, `all` or `none`. Recording fails the check, so that a person looks at the new goldens.
public enum GoldenFrames {
    /// A mismatch, or goldens just recorded; the message points at the images.
    public struct Failure: Error, CustomStringConvertible {
        /// The case's result: its status, reasons and images.
        public let result: CaseResult
        public var description: String {
            if result.status == .recorded {
                return "recorded \(Reports.framesWritten(result)) of '\(result.name)' in \(result.folder)/expected; look at them, then run again"
            }
            var lines = ["golden frames of '\(result.name)' \(result.status == .drift ? "differ, with environment drift" : "differ"):"]
            lines += Reports.reasons(result).map { "  " + $0 }
            if let first = result.diffs.first(where: { $0.diff != nil }) {
                lines.append("  diff image: \(first.diff!)  actual: \(first.actual ?? "-")  expected: \(first.expected ?? "-")")
            }
            return lines.joined(separator: "\n")
        }
    }

    /// The `withGoldenRecording` scope's mode, else `TEXTREEL_RECORD`'s (an unknown one is an
    /// error), else `missing` (`never` under CI).
    public static var recordMode: GoldenSuite.UpdateMode {
        get throws { try GoldenSuite.UpdateMode.fromEnvironment() }
    }

    /// Where the goldens named `name` of the tests in `testFile` live.
    public static func folder(named name: String, testFile: String) -> URL {
        let file = URL(fileURLWithPath: testFile)
        return file.deletingLastPathComponent().appendingPathComponent("__Goldens__")
            .appendingPathComponent(file.deletingPathExtension().lastPathComponent).appendingPathComponent(name)
    }

    /// Renders `view` along `script` and compares its frames with the goldens in `folder`,
    /// writing them as `mode` says; the result says what happened (the assertion of
    /// `TextReelTesting` turns it into a failure at the caller).
    public static func compare(_ view: TextView, script: ScrollScript, frames: GoldenCase.Frames, name: String, folder: URL,
                               tolerance: GoldenCase.Tolerance, mode: GoldenSuite.UpdateMode) throws -> CaseResult {
        // No folder is made here: one that records nothing (`never`, CI) leaves nothing behind.
        let rendered = try GoldenCase.render(view, script: script, frames: frames, fontSet: .standard)
        return try GoldenSuite.compare(rendered, name: name, folder: folder, tolerance: tolerance, update: mode)
    }

    /// Renders `view` along `script` (one frame when there is none) and compares the frames.
    public static func verify(_ view: TextView, script: ScrollScript = .still, frames: GoldenCase.Frames = .all,
                              named name: String, tolerance: GoldenCase.Tolerance = .init(),
                              file: StaticString = #filePath) throws {
        let result = try compare(view, script: script, frames: frames, name: name, folder: folder(named: name, testFile: "\(file)"),
                                 tolerance: tolerance, mode: try recordMode)
        if result.isFailure || result.status == .recorded || result.status == .updated { throw Failure(result: result) }
    }
}
