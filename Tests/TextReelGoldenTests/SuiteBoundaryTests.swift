import Foundation
import XCTest
import TextReelMarkdown
@testable import TextReelGolden

/// Pruning and bad cases stay inside what the user named: prune removes only files TextReel
/// wrote, never through a link; a case that cannot be read fails alone.
final class SuiteBoundaryTests: XCTestCase {
    private func folder(_ name: String = #function) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("textreel-boundary-\(getpid())-\(name.filter(\.isLetter))")
        try? FileManager.default.removeItem(at: url)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private func write(_ text: String, _ url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    /// A suite with one case, recorded.
    private func recordedSuite(in root: URL) throws -> URL {
        let suite = root.appendingPathComponent("suite")
        try write("# Hello\n\nText.\n", suite.appendingPathComponent("doc.md"))
        try write("{document: \"../doc.md\", viewport: {width: 200, height: 100}}", suite.appendingPathComponent("kept/case.json5"))
        let options = GoldenSuite.Options(update: .all)
        for testCase in try GoldenSuite.cases(in: [suite]) { XCTAssertEqual(GoldenSuite.run(testCase, options: options).status, .recorded) }
        return suite
    }

    func testPruneRemovesOnlyWhatTextReelWroteAndFollowsNoLink() throws {
        let root = try folder()
        let suite = try recordedSuite(in: root)
        let fm = FileManager.default
        let recorded = suite.appendingPathComponent("kept/expected")
        // A case whose case.json5 is gone: its goldens are TextReel's, a note beside them is not.
        try fm.createDirectory(at: suite.appendingPathComponent("gone"), withIntermediateDirectories: true)
        try fm.copyItem(at: recorded, to: suite.appendingPathComponent("gone/expected"))
        try write("keep me", suite.appendingPathComponent("gone/expected/notes.txt"))
        // A folder named expected that TextReel never wrote (no index.json).
        try write("important", suite.appendingPathComponent("other/expected/important.txt"))
        // A link out of the suite to goldens elsewhere.
        let elsewhere = root.appendingPathComponent("elsewhere")
        try fm.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try fm.copyItem(at: recorded, to: elsewhere.appendingPathComponent("expected"))
        try fm.createSymbolicLink(at: suite.appendingPathComponent("linked"), withDestinationURL: elsewhere)

        let orphans = GoldenSuite.orphans(in: [suite], cases: try GoldenSuite.cases(in: [suite]))
        XCTAssertEqual(orphans.map(\.path), [suite.appendingPathComponent("gone/expected").path])
        let removed = try GoldenSuite.prune(orphans.map(\.path))
        XCTAssertEqual(Set(removed.map { URL(fileURLWithPath: $0).lastPathComponent }),
                       Set(try fm.contentsOfDirectory(atPath: recorded.path)))
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: suite.appendingPathComponent("gone/expected").path), ["notes.txt"])
        XCTAssertTrue(fm.fileExists(atPath: suite.appendingPathComponent("other/expected/important.txt").path))
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: elsewhere.appendingPathComponent("expected").path).sorted(),
                       try fm.contentsOfDirectory(atPath: recorded.path).sorted())
        // Without the note, the emptied folder goes too.
        try fm.copyItem(at: recorded, to: suite.appendingPathComponent("gone2/expected"))
        try GoldenSuite.prune([suite.appendingPathComponent("gone2/expected").path])
        XCTAssertFalse(fm.fileExists(atPath: suite.appendingPathComponent("gone2/expected").path))
    }

    func testACaseThatCannotBeReadFailsAlone() throws {
        let root = try folder()
        let suite = try recordedSuite(in: root)
        try write("{document: \"../missing.md\"}", suite.appendingPathComponent("broken/case.json5"))
        let cases = try GoldenSuite.cases(in: [suite])
        XCTAssertEqual(cases.map(\.name), ["broken", "kept"])
        let results = cases.map { GoldenSuite.run($0, options: GoldenSuite.Options(update: .never)) }
        XCTAssertEqual(results.map(\.status), [.failed, .passed])
        XCTAssertTrue(results[0].error?.contains("missing.md") == true, results[0].error ?? "no error")
    }
}
