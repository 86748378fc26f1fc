import Foundation
import Testing
import TextReelTesting
import XCTest

/// `assertGoldenFrames` under Swift Testing: goldens in `__Goldens__/SwiftAPITests/<test name>`.
@Suite struct SwiftAPITests {
    @Test func quoteAndList() throws {
        let document = try TextDocument(markdown: "> A quote\n\n- one\n- two\n")
        let view = TextView(document: document, viewportSize: CGSize(width: 320, height: 200))
        assertGoldenFrames(view)
        let dark = TextView(document: document, viewportSize: CGSize(width: 320, height: 200), theme: .dark)
        assertGoldenFrames(dark, script: "{steps: [{scroll: {by: 20}}]}")   // the second call: quoteAndList-2
    }

    /// The same variants a case.json5 can list, from Swift: goldens per look.
    @Test func variantsFromSwift() throws {
        let document = try TextDocument(markdown: "# Looks\n\n> quoted, with a ![](control:t?kind=toggle) toggle\n")
        assertGoldenFrames(themes: ["light", "dark"], textSizes: [.M, .XXXL], widths: [280]) { theme, width in
            TextView(document: document, viewportSize: CGSize(width: width ?? 400, height: 200), theme: theme)
        }
    }

    /// Cases of a parameterised test must name their goldens (they run in parallel).
    @Test(arguments: [1, 2]) func parameterisedCasesNeedNames(number: Int) throws {
        let view = TextView(document: try TextDocument(markdown: "Case \(number)"), viewportSize: CGSize(width: 200, height: 100))
        withKnownIssue { assertGoldenFrames(view, record: .never) }
    }

    /// Fails on purpose, only when the test below runs it in a child process.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["TEXTREEL_FAIL_ON_PURPOSE"] != nil))
    func failsOnPurpose() throws {
        let view = TextView(document: try TextDocument(markdown: "> Not the quote the golden shows\n"),
                            viewportSize: CGSize(width: 320, height: 200))
        assertGoldenFrames(view, named: "quoteAndList", record: .never)
    }
}

/// The same assertion under XCTest, and the failure of the Swift Testing one checked from outside.
final class SwiftAPIXCTests: XCTestCase {
    func testAssertionUnderXCTest() throws {
        let view = TextView(document: try TextDocument(markdown: "# XCTest\n\nThe same assertion."),
                            viewportSize: CGSize(width: 320, height: 160))
        assertGoldenFrames(view, named: "xctest-heading")
    }

    /// The failing Swift Testing test runs in a child process: its issue points at the call's
    /// line and column, and expected, actual and diff PNGs are attached.
    func testFailuresAreRecordedAtTheCallerWithAttachments() throws {
        let attachments = FileManager.default.temporaryDirectory.appendingPathComponent("textreel-attachments-\(getpid())")
        try? FileManager.default.removeItem(at: attachments)
        try FileManager.default.createDirectory(at: attachments, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["--testing-library", "swift-testing", "--filter", "failsOnPurpose", "--attachments-path", attachments.path]
        process.environment = ProcessInfo.processInfo.environment.merging(["TEXTREEL_FAIL_ON_PURPOSE": "1"]) { _, new in new }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertNotEqual(process.terminationStatus, 0, text)
        // The issue is at the line of the call in failsOnPurpose.
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let callLine = try XCTUnwrap(source.firstIndex { $0.contains("named: \"quoteAndList\", record:") }) + 1
        let column = try XCTUnwrap(source[callLine - 1].range(of: "assertGoldenFrames")).lowerBound.utf16Offset(in: source[callLine - 1]) + 1
        XCTAssertTrue(text.contains("recorded an issue at SwiftAPITests.swift:\(callLine):\(column)"),
                      "the issue is at the call's start (line \(callLine), column \(column)): \(text)")
        XCTAssertTrue(text.contains("golden frames of 'quoteAndList' differ"), text)
        let files = Set((try? FileManager.default.contentsOfDirectory(atPath: attachments.path)) ?? [])
        for name in ["quoteAndList-frame-00001-expected.png", "quoteAndList-frame-00001-actual.png", "quoteAndList-frame-00001-diff.png"] {
            XCTAssertTrue(files.contains(name), "\(name) attached: \(files)")
        }
    }
}
