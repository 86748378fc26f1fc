import Foundation
import Testing
import TextReelTesting
import XCTest

/// How the Swift API records: scoped modes, frames left alone when unchanged, recordings that
/// say which frames they wrote, no folder left behind, names that survive a second run, and
/// scripts read with the view's own providers. One import (`TextReelTesting`) is all it takes.
final class RecordingTests: XCTestCase {
    private let testFile: StaticString = "/tmp/textreel-recording-tests/RecordingFake.swift"

    override func setUp() { try? FileManager.default.removeItem(atPath: "/tmp/textreel-recording-tests") }

    private func view(_ text: String) throws -> TextView {
        TextView(document: try TextDocument(markdown: text), viewportSize: CGSize(width: 300, height: 160))
    }

    private func compare(_ view: TextView, _ mode: GoldenSuite.UpdateMode, named name: String = "case",
                         script: String = "{fps: 10, steps: [{scroll: {by: 40}}, {wait: 0.1}, {scroll: {by: 40}}]}") throws -> CaseResult {
        try GoldenFrames.compare(view, script: ScrollScript(data: Data(script.utf8)), frames: .all, name: name,
                                 folder: GoldenFrames.folder(named: name, testFile: "\(testFile)"), tolerance: .init(), mode: mode)
    }

    func testScopesSetTheModeAndNest() throws {
        try withGoldenRecording(.never) {
            XCTAssertEqual(try GoldenFrames.recordMode, .never)
            try withGoldenRecording(.all) { XCTAssertEqual(try GoldenFrames.recordMode, .all) }
            try withGoldenRecording(.automatic) { XCTAssertEqual(try GoldenFrames.recordMode, .never, ".automatic keeps the scope's") }
            XCTAssertEqual(try GoldenRecording.automatic.resolved(), .never)
            XCTAssertEqual(try GoldenRecording.changed.resolved(), .changed, "an assertion's own mode wins")
        }
        XCTAssertEqual(try GoldenSuite.UpdateMode(parsing: "never", from: "TEXTREEL_RECORD"), .never, "never and none are one mode")
        XCTAssertEqual(try GoldenSuite.UpdateMode(parsing: "none", from: "--update"), .never)
        XCTAssertThrowsError(try GoldenSuite.UpdateMode(parsing: "off", from: "TEXTREEL_RECORD")) {
            XCTAssertTrue("\($0)".contains("expects missing, changed, all or never"), "\($0)")
        }
        // Messages spell modes as Swift does, and say when CI is why recording is off.
        XCTAssertEqual(GoldenSuite.UpdateMode.never.swiftName, ".never")
        let ci = ProcessInfo.processInfo.environment["CI"] != nil && ProcessInfo.processInfo.environment["TEXTREEL_RECORD"] == nil
        XCTAssertEqual(GoldenSuite.UpdateMode.explained(.never), ci ? "record: .never, because CI is set" : "record: .never")
        withGoldenRecording(.never) { XCTAssertEqual(GoldenSuite.UpdateMode.explained(.never), "record: .never", "a scope, not CI") }
    }

    func testRecordingAllLeavesUnchangedFramesAloneAndSaysWhatItWrote() throws {
        let text = "# Title\n\n" + (1...12).map { "Paragraph \($0) of the case." }.joined(separator: "\n\n")
        let first = try compare(view(text), .missing)
        XCTAssertEqual(first.status, .recorded)
        XCTAssertEqual(first.recordedFrames, [1, 2, 3], "frame 2 repeats frame 1: one file for both")
        let expected = GoldenFrames.folder(named: "case", testFile: "\(testFile)").appendingPathComponent("expected")
        let frame = expected.appendingPathComponent("frame-00001.png").path
        let before = try FileManager.default.attributesOfItem(atPath: frame)[.systemFileNumber] as? Int
        let again = try compare(view(text), .all)
        XCTAssertEqual(again.status, .passed)
        XCTAssertEqual(again.recordedFrames, [], "unchanged frames are not rewritten")
        XCTAssertFalse(again.written)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: frame)[.systemFileNumber] as? Int, before, "the same file")
        // A deleted golden frame is recorded again, by name.
        try FileManager.default.removeItem(at: expected.appendingPathComponent("frame-00003.png"))
        let restored = try compare(view(text), .missing)
        XCTAssertEqual(restored.status, .recorded)
        XCTAssertEqual(restored.recordedFrames, [3])
        XCTAssertEqual(Reports.framesWritten(restored), "frame 3 (frame-00003.png)")
        XCTAssertThrowsError(try withGoldenRecording(.missing) {
            try FileManager.default.removeItem(at: expected.appendingPathComponent("frame-00003.png"))
            try GoldenFrames.verify(view(text), script: ScrollScript(data: Data("{fps: 10, steps: [{scroll: {by: 40}}, {wait: 0.1}, {scroll: {by: 40}}]}".utf8)),
                                    named: "case", file: testFile)
        }) { XCTAssertTrue("\($0)".contains("recorded frame 3 (frame-00003.png) of 'case'"), "\($0)") }
    }

    func testNeverRecordingLeavesNoFolderBehind() throws {
        let result = try compare(view("Nothing recorded"), .never, named: "absent")
        XCTAssertEqual(result.status, .failed)
        XCTAssertFalse(FileManager.default.fileExists(atPath: GoldenFrames.folder(named: "absent", testFile: "\(testFile)").path))
    }
}

/// The trait sets the mode for a whole test; names and providers of `assertGoldenFrames` calls
/// (whose recordings fail on purpose: "look at them").
@Suite struct RecordingTraitTests {
    @Test(.goldenRecording(.never)) func traitSetsTheMode() throws {
        #expect(try GoldenFrames.recordMode == .never)
    }

    private func view(_ text: String) throws -> TextView {
        TextView(document: try TextDocument(markdown: text), viewportSize: CGSize(width: 300, height: 160))
    }

    /// The same call site run again (a loop here, `--repetitions` too) keeps its name, where a
    /// per-process counter once made `name-2` and called the name used.
    @Test func aCallSiteKeepsItsNameWhenItRunsAgain() throws {
        let folder = GoldenFrames.folder(named: "aCallSiteKeepsItsNameWhenItRunsAgain", testFile: #filePath)
        try? FileManager.default.removeItem(at: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        let view = try view("The same call, twice")
        for _ in 0..<2 {
            withKnownIssue(isIntermittent: true) { withGoldenRecording(.missing) { assertGoldenFrames(view) } }
        }
        #expect(FileManager.default.fileExists(atPath: folder.path), "one name for both runs")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "-2"))
    }

    @Test func aScriptStringIsReadWithTheViewsProviders() throws {
        let view = try view("A chart: done")
        view.providers.register(VideoAttachmentViewProvider.self, forScheme: "chart")
        let script = "{register: [{provider: \"chart\", policies: [\"onScrollingOutOfViewport\"]}], steps: [{wait: 0}]}"
        let folder = GoldenFrames.folder(named: "providers", testFile: #filePath)
        defer { try? FileManager.default.removeItem(at: folder) }
        withKnownIssue { withGoldenRecording(.missing) { assertGoldenFrames(view, script: script, named: "providers") } } matching: { issue in
            "\(issue)".contains("recorded frame 1")
        }
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("expected").path),
                "the script was read (a registry of its own would not know 'chart')")
    }
}
