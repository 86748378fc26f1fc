import Foundation
import TextReelMarkdown
@testable import TextReelGolden
import XCTest

final class GoldenSuiteTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = root.appendingPathComponent("Fixtures")

    /// A suite in a temporary folder: one case over a copy of a small document.
    private func makeSuite(_ markdown: String, script: String = "{steps: [{scroll: {by: 40, duration: 0.1}}, {wait: 0.1}]}", name suffix: String = "") throws -> (URL, URL) {
        let suite = FileManager.default.temporaryDirectory.appendingPathComponent("textreel-golden-\(getpid())-\(name.filter(\.isLetter))\(suffix)")
        try? FileManager.default.removeItem(at: suite)
        let folder = suite.appendingPathComponent("case")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(markdown.utf8).write(to: folder.appendingPathComponent("doc.md"))
        try Data(script.utf8).write(to: folder.appendingPathComponent("scroll.json5"))
        try Data(#"{document: "doc.md", script: "scroll.json5", viewport: {width: 320, height: 360, scale: 1}}"#.utf8)
            .write(to: folder.appendingPathComponent("case.json5"))
        return (suite, folder)
    }

    private let text = (0..<12).map { "Paragraph \($0) has some words that wrap across the narrow column of this case." }.joined(separator: "\n\n")

    private func run(_ suite: URL, _ update: GoldenSuite.UpdateMode) throws -> CaseResult {
        try GoldenSuite.run(GoldenSuite.cases(in: [suite]), options: .init(update: update, shard: nil))[0]
    }

    func testRecordsThenPassesThenReportsAChangeByNameThenUpdates() throws {
        let (suite, folder) = try makeSuite(text)
        XCTAssertEqual(try run(suite, .never).status, .failed, "no goldens and no recording")
        XCTAssertEqual(try run(suite, .missing).status, .recorded)
        XCTAssertEqual(try run(suite, .missing).status, .passed)

        try Data(text.replacingOccurrences(of: "Paragraph 2 has some", with: "Paragraph 2 has a good many more").utf8)
            .write(to: folder.appendingPathComponent("doc.md"))
        let failed = try run(suite, .never)
        XCTAssertEqual(failed.status, .failed)
        XCTAssertTrue(failed.structure.contains { $0.hasPrefix("frame 1: paragraph 2 ") && $0.contains("line") }, "\(failed.structure)")
        XCTAssertEqual(failed.firstDivergingFrame, 1)
        let diff = try XCTUnwrap(failed.diffs.first)
        XCTAssertTrue(diff.regions.contains { $0.what.contains("paragraph 2") }, "\(diff.regions)")
        XCTAssertTrue(FileManager.default.fileExists(atPath: try XCTUnwrap(diff.diff)))
        XCTAssertTrue(FileManager.default.fileExists(atPath: try XCTUnwrap(diff.actual)))
        // The diff image marks changed pixels in red.
        let image = try RGBAImage(contentsOf: URL(fileURLWithPath: diff.diff!))
        XCTAssertTrue(stride(from: 0, to: image.pixels.count, by: 4).contains { image.pixels[$0] == 255 && image.pixels[$0 + 1] == 0 })
        let expected = try RGBAImage(contentsOf: URL(fileURLWithPath: try XCTUnwrap(diff.expected)))
        let actual = try RGBAImage(contentsOf: URL(fileURLWithPath: diff.actual!))
        XCTAssertEqual(image.pixels, ImageDiff.compare(expected, actual).image?.pixels, "the image is the comparison's, pixel for pixel")

        let reports = suite.appendingPathComponent("reports")
        try Reports.writeHTML([failed], scope: GoldenWriteScope(suites: [suite.path]), to: reports)
        try Reports.writeJUnit([failed], to: reports.appendingPathComponent("junit.xml"))
        try Reports.writeJSON([failed], to: reports.appendingPathComponent("summary.json"))
        let html = try String(contentsOf: reports.appendingPathComponent("index.html"), encoding: .utf8)
        XCTAssertFalse(html.contains("data:image/png;base64,"), "images are files, not inlined")
        let shown = try XCTUnwrap(html.range(of: #"images/0-[0-9]{5}-actual\.png"#, options: .regularExpression).map { String(html[$0]) })
        XCTAssertEqual(FileManager.default.contents(atPath: reports.appendingPathComponent(shown).path),
                       FileManager.default.contents(atPath: try XCTUnwrap(diff.actual)), "beside the page, the same bytes")
        let flip = try XCTUnwrap(html.range(of: #"images/0-[0-9]{5}-flip\.png"#, options: .regularExpression).map { String(html[$0]) })
        let animation = try XCTUnwrap(FileManager.default.contents(atPath: reports.appendingPathComponent(flip).path))
        XCTAssertNotNil(animation.range(of: Data("acTL".utf8)), "expected and actual as one animated PNG")
        XCTAssertTrue(html.contains("type=\"range\""), "a slider")
        let junit = try String(contentsOf: reports.appendingPathComponent("junit.xml"), encoding: .utf8)
        XCTAssertTrue(junit.contains("failures=\"1\"") && junit.contains("[[ATTACHMENT|"))

        XCTAssertEqual(try run(suite, .changed).status, .updated)
        XCTAssertEqual(try run(suite, .never).status, .passed)
    }

    /// Accepting each failing frame (the review and the served report do) takes its structure
    /// with its image: the next run passes instead of failing on "breaks differently".
    func testAcceptingEveryFailingFramePassesTheNextRun() throws {
        let (suite, folder) = try makeSuite(text)
        XCTAssertEqual(try run(suite, .missing).status, .recorded)
        try Data(text.replacingOccurrences(of: "Paragraph 2 has some", with: "Paragraph 2 has a good many more").utf8)
            .write(to: folder.appendingPathComponent("doc.md"))
        let failed = try run(suite, .never)
        XCTAssertFalse(failed.structure.isEmpty)
        XCTAssertEqual(failed.diffs.count, failed.frames, "paragraph 2 is on screen in every frame")
        for diff in failed.diffs {
            try GoldenEdit.accept(frame: diff, of: failed, scope: GoldenWriteScope(suites: [suite.path]))
        }
        let again = try run(suite, .never)
        XCTAssertEqual(again.status, .passed, "\(again.structure) \(again.diffs.map(\.reason))")
    }

    /// A report's results.json comes from elsewhere (a CI artifact): accepting from it writes
    /// only a golden of the suite it was made from, from a PNG its run wrote in the case's
    /// actual/ folder. Each tampered path is refused and writes nothing.
    func testATamperedResultAcceptsNothingOutsideItsSuite() throws {
        let (suite, folder) = try makeSuite(text)
        let (other, _) = try makeSuite(text, script: "{steps: [{wait: 0.1}]}", name: "other")
        XCTAssertEqual(try run(suite, .missing).status, .recorded)
        XCTAssertEqual(try run(other, .missing).status, .recorded)
        try Data(text.replacingOccurrences(of: "Paragraph 2 has some", with: "Paragraph 2 has a good many more").utf8)
            .write(to: folder.appendingPathComponent("doc.md"))
        let failed = try run(suite, .never)
        let diff = try XCTUnwrap(failed.diffs.first)
        let scope = GoldenWriteScope(suites: [suite.path])
        let otherCase = other.appendingPathComponent("case"), otherExpected = otherCase.appendingPathComponent("expected")
        let notAPNG = folder.appendingPathComponent("actual/notes.png")
        try Data("not an image".utf8).write(to: notAPNG)
        let link = folder.appendingPathComponent("actual/linked.png")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: otherExpected.appendingPathComponent("frame-00001.png").path)
        func snapshot() throws -> [String: Data] {
            var files: [String: Data] = [:]
            for root in [otherExpected, folder.appendingPathComponent("expected")] {
                for name in try FileManager.default.contentsOfDirectory(atPath: root.path) {
                    files[root.path + "/" + name] = FileManager.default.contents(atPath: root.appendingPathComponent(name).path)
                }
            }
            return files
        }
        let before = try snapshot()
        // Accepting a whole case re-renders it from its case.json5, so only the case's folder and
        // golden folder matter there; accepting a frame checks the image too.
        var tampered: [(label: String, result: CaseResult, frame: FrameDiff, wholeCase: Bool)] = []
        func add(_ label: String, wholeCase: Bool = false, _ change: (inout CaseResult, inout FrameDiff) -> Void) {
            var result = failed, frame = diff
            change(&result, &frame)
            result.diffs = [frame]
            tampered.append((label, result, frame, wholeCase))
        }
        add("another suite's golden folder", wholeCase: true) { r, _ in r.expected = otherExpected.path }
        add("another suite's case", wholeCase: true) { r, _ in r.folder = otherCase.path; r.expected = otherExpected.path }
        add("the golden folder through ..", wholeCase: true) { r, _ in r.expected = folder.path + "/expected/../../../" + other.lastPathComponent + "/case/expected" }
        add("a folder without case.json5", wholeCase: true) { r, _ in r.folder = suite.path }
        add("a file outside the suite as the image") { _, d in d.actual = "/etc/hostname" }
        add("a non-PNG in actual/") { _, d in d.actual = notAPNG.path }
        add("a link out of actual/") { _, d in d.actual = link.path }
        add("an image in expected/") { _, d in d.actual = folder.path + "/expected/frame-00001.png" }
        for item in tampered {
            XCTAssertThrowsError(try GoldenEdit.accept(frame: item.frame, of: item.result, scope: scope), item.label) {
                XCTAssertTrue($0 is GoldenWriteScope.Refusal, "\(item.label): \($0)")
            }
            if item.wholeCase { XCTAssertThrowsError(try GoldenEdit.accept(case: item.result, scope: scope), item.label) }
        }
        XCTAssertThrowsError(try GoldenEdit.accept(frame: diff, of: failed, scope: GoldenWriteScope(suites: [])), "no suite recorded")
        XCTAssertThrowsError(try GoldenEdit.accept(case: failed, scope: GoldenWriteScope(suites: [other.path])), "another suite's scope")
        XCTAssertEqual(try snapshot(), before, "nothing written")
        // The untampered accept still works.
        try GoldenEdit.accept(frame: diff, of: failed, scope: scope)
        XCTAssertNotEqual(try snapshot(), before)
    }

    func testAChangedFontOptionIsEnvironmentDrift() throws {
        let (suite, folder) = try makeSuite(text)
        _ = try run(suite, .missing)
        let file = folder.appendingPathComponent("expected/fingerprint.json")
        var fingerprint = try JSONDecoder().decode(EnvironmentFingerprint.self, from: Data(contentsOf: file))
        fingerprint.fontOptions = "antialias=subpixel hintstyle=full hintmetrics=on resolution=96"
        try JSONEncoder().encode(fingerprint).write(to: file)
        XCTAssertEqual(try run(suite, .never).status, .passed, "same pixels: drift alone is only a note")
        try Data(text.replacingOccurrences(of: "Paragraph 0", with: "Paragraph zero").utf8).write(to: folder.appendingPathComponent("doc.md"))
        let result = try run(suite, .never)
        XCTAssertEqual(result.status, .drift)
        XCTAssertTrue(result.drift.contains { $0.hasPrefix("font options") }, "\(result.drift)")
    }

    /// The text a render's inputs key is hashed from: the same for equal fingerprints, other
    /// when any library, option or font file differs.
    func testFingerprintTextChangesWithEveryField() {
        let current = EnvironmentFingerprint.current(helperLibraries: HelperProcess.libraries)
        XCTAssertEqual(current.canonicalText, EnvironmentFingerprint.current(helperLibraries: HelperProcess.libraries).canonicalText)
        var changes: [(inout EnvironmentFingerprint) -> Void] = [{ $0.pango += "x" }, { $0.freetype += "x" }, { $0.fontOptions += "x" },
                                                               { $0.pngEncoder = nil }]
        for name in current.fonts.keys.sorted().prefix(2) { changes.append { $0.fonts[name] = "0" } }
        changes.append { $0.fonts["extra.ttf"] = "0" }
        for (n, change) in changes.enumerated() {
            var other = current
            change(&other)
            XCTAssertNotEqual(other.canonicalText, current.canonicalText, "change \(n)")
        }
    }

    func testIdenticalFramesAreStoredOnce() throws {
        let (suite, folder) = try makeSuite(text, script: "{steps: [{wait: 0.2}, {scroll: {by: 30}}, {wait: 0.1}]}")
        XCTAssertEqual(try run(suite, .missing).status, .recorded)
        let index = try JSONDecoder().decode(ExpectedFolder.Index.self, from: Data(contentsOf: folder.appendingPathComponent("expected/index.json")))
        XCTAssertEqual(index.frames.count, 10)
        XCTAssertEqual(Set(index.frames.values).count, 2, "the still frames share one file")
        let pngs = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("expected").path).filter { $0.hasSuffix(".png") }
        XCTAssertEqual(pngs.count, 2)
        XCTAssertEqual(try run(suite, .never).status, .passed)
    }

    func testShardsSplitWithoutOverlapOrGap() throws {
        let cases = try GoldenSuite.cases(in: [Self.fixtures.appendingPathComponent("golden")])
        XCTAssertGreaterThan(cases.count, 5)
        for count in 1...4 {
            let parts = (1...count).map { GoldenSuite.shard(cases, index: $0, count: count).map(\.name) }
            XCTAssertEqual(parts.flatMap { $0 }.sorted(), cases.map(\.name).sorted())
            XCTAssertEqual(Set(parts.flatMap { $0 }).count, cases.count)
        }
    }

    func testBadCaseFilesAreClearErrors() throws {
        let (suite, folder) = try makeSuite(text)
        // A bad case fails alone: it is a case whose run is its error.
        func readError() throws -> String { try XCTUnwrap(GoldenSuite.cases(in: [suite]).first?.readError) }
        try Data(#"{document: "doc.md", zoom: 2}"#.utf8).write(to: folder.appendingPathComponent("case.json5"))
        XCTAssertTrue(try readError().contains("unknown key 'zoom'"))
        try Data(#"{script: "x.json5"}"#.utf8).write(to: folder.appendingPathComponent("case.json5"))
        XCTAssertTrue(try readError().contains("missing key 'document'"))
        // A matrix with no axis would run the case under a variant name of its own goldens, and
        // a repeated value (or two names of one size) would be two cases writing one folder.
        for (matrix, needle) in [("{}", "variants lists no axis"), ("{only: []}", "variants lists no axis"),
                                 (#"{width: [375, 375]}"#, "'375' comes twice"),
                                 (#"{textSize: ["extraLarge", "XL"]}"#, "'XL' comes twice"),
                                 (#"{theme: ["light", "solar"]}"#, "its theme 'solar' is neither dark, editor, light nor a theme file"),
                                 (#"{theme: ["dark"], textSize: ["M"], direction: ["ltr"], width: [300]}"#, "")] {
            try Data(#"{document: "doc.md", variants: \#(matrix)}"#.utf8).write(to: folder.appendingPathComponent("case.json5"))
            if needle.isEmpty {
                XCTAssertEqual(try GoldenSuite.cases(in: [suite]).map(\.variant?.folderName), ["dark-M-ltr-300"])
            } else {
                XCTAssertTrue(try readError().contains(needle), matrix)
            }
        }
    }
    /// A move smaller than a message can show is no structural change ("moved on screen from
    /// y 24.0 to 24.0"); one it can show is.
    func testStructuralMessagesNeverSayTheSameNumberTwice() {
        func snapshot(_ y: Double) -> LayoutSnapshot {
            var s = LayoutSnapshot()
            s.frames[1] = .init(viewportY: 0, scale: 1, fragments: [
                .init(paragraph: 3, index: 3, y: y, height: 40, lines: [0], lineBounds: [[0, 20]], attachments: [])], events: [])
            return s
        }
        XCTAssertEqual(snapshot(24.04).changes(from: snapshot(23.96)), [])
        XCTAssertEqual(snapshot(25).changes(from: snapshot(24)), ["frame 1: paragraph 3 moved on screen from y 24 to 25"])
    }

    /// A case named twice runs once (two runs at once raced for its folder).
    func testACaseNamedTwiceRunsOnce() throws {
        let (suite, folder) = try makeSuite(text)
        XCTAssertEqual(try GoldenSuite.cases(in: [suite, folder, suite.appendingPathComponent("./case")]).count, 1)
    }

    /// A golden image that index.json does not name is obsolete: listed, and pruned.
    func testImagesTheIndexDoesNotNameAreObsolete() throws {
        let (suite, folder) = try makeSuite(text)
        XCTAssertEqual(try run(suite, .missing).status, .recorded)
        let stray = folder.appendingPathComponent("expected/frame-00099.png")
        try FileManager.default.copyItem(at: folder.appendingPathComponent("expected/frame-00001.png"), to: stray)
        let orphans = GoldenSuite.orphans(in: [suite], cases: try GoldenSuite.cases(in: [suite]))
        XCTAssertEqual(orphans.map(\.path), [stray.path])
        XCTAssertTrue(orphans[0].reason.contains("index.json"), orphans[0].reason)
        try GoldenSuite.prune(orphans.map(\.path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: stray.path))
        XCTAssertEqual(try run(suite, .never).status, .passed)
    }

    /// Blobs of different suites, or of different splits, are refused instead of merged.
    func testBlobsOfAnotherSuiteOrSplitAreRefused() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("textreel-blobs-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        func blob(_ name: String, shard: String, suite: [String], cases: [String]) throws -> URL {
            let url = folder.appendingPathComponent(name)
            try Reports.writeBlob(.init(shard: shard, suite: suite, scope: nil, results: cases.map {
                CaseResult(name: $0, folder: "/s/\($0)", status: .passed, frames: 1)
            }), to: url)
            return url
        }
        let a = try blob("a.json", shard: "1/2", suite: ["x", "y"], cases: ["x"])
        let b = try blob("b.json", shard: "2/2", suite: ["x", "y"], cases: ["y"])
        XCTAssertEqual(try Reports.merge(blobs: [a, b]).results.map(\.name), ["x", "y"])
        let other = try blob("c.json", shard: "2/2", suite: ["x", "z"], cases: ["z"])
        XCTAssertThrowsError(try Reports.merge(blobs: [a, other])) { XCTAssertTrue("\($0)".contains("another suite"), "\($0)") }
        let split = try blob("d.json", shard: "2/3", suite: ["x", "y"], cases: ["y"])
        XCTAssertThrowsError(try Reports.merge(blobs: [a, split])) { XCTAssertTrue("\($0)".contains("another split"), "\($0)") }
    }
}

/// Swift-test API: a subclass verified against goldens stored beside this file.
final class GoldenFramesTests: XCTestCase {
    final class StripedTextView: TextView {
        override func textViewportLayoutController(_ controller: TextViewportLayoutController,
                                                   configureRenderingSurfaceFor fragment: TextLayoutFragment) {
            super.textViewportLayoutController(controller, configureRenderingSurfaceFor: fragment)
            decorate(fragment, with: .fill(CGRect(x: 4, y: 0, width: 4, height: fragment.layoutFragmentFrame.height), Color(hex: 0x0969DA)))
        }
    }

    /// A moved caret is named in the structure's words, with its paragraph, offset and line.
    func testAMovedCaretIsNamed() throws {
        func snapshot(_ offset: Int) throws -> LayoutSnapshot {
            let view = TextView(document: try TextDocument(markdown: "One line of text that wraps onto a second line here."),
                                viewportSize: CGSize(width: 200, height: 200))
            view.selectedTextRange = TextRange(location: TextLocation(paragraph: view.document.paragraphs[0].id, offset: offset))
            var result = LayoutSnapshot()
            result.frames[1] = LayoutSnapshot.frame(of: try view.layoutPass())
            return result
        }
        let messages = try snapshot(40).changes(from: snapshot(3))
        let lines = try snapshot(40).frames[1]!.fragments[0].lines
        let line = lines.lastIndex { $0 <= 40 }! + 1
        XCTAssertGreaterThan(line, 1, "offset 40 is on a later line of the wrapped paragraph")
        XCTAssertEqual(messages.first, "frame 1: the caret is now at paragraph 0, offset 40, line \(line) instead of paragraph 0, offset 3, line 1")
    }

    func testSubclassMatchesItsGoldens() throws {
        let document = try TextDocument(markdown: "# Striped\n\nEach fragment gets a blue stripe from its subclass.\n\n- one\n- two")
        let view = StripedTextView(document: document, viewportSize: CGSize(width: 360, height: 220))
        XCTAssertNoThrow(try GoldenFrames.verify(view, named: "striped-subclass"))
    }

    func testRecordingThenAMismatchPointsAtTheDiffImages() throws {
        let fakeTestFile: StaticString = "/tmp/textreel-golden-frames-test/FakeTests.swift"
        try? FileManager.default.removeItem(atPath: "/tmp/textreel-golden-frames-test")
        func view(_ text: String) throws -> TextView {
            StripedTextView(document: try TextDocument(markdown: text), viewportSize: CGSize(width: 360, height: 220))
        }
        // Its own scope: the test runs the same under CI, where recording is off by default.
        try withGoldenRecording(.missing) {
        XCTAssertThrowsError(try GoldenFrames.verify(view("# One"), named: "fake", file: fakeTestFile)) {
            XCTAssertTrue("\($0)".contains("recorded frame 1 (frame-00001.png) of 'fake'"), "\($0)")
        }
        XCTAssertNoThrow(try GoldenFrames.verify(view("# One"), named: "fake", file: fakeTestFile))
        XCTAssertThrowsError(try GoldenFrames.verify(view("# Two"), named: "fake", file: fakeTestFile)) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("diff image:"), text)
            XCTAssertTrue(text.contains("__Goldens__/FakeTests/fake/diff/frame-00001.png"), text)
        }
        }
    }
}

/// Inputs the fuzzers found; each must now be a clear error.
final class FuzzRegressionTests: XCTestCase {
    func testCaseFileWithInvalidUTF8IsAnError() throws {
        let data = try Data(contentsOf: GoldenSuiteTests.fixtures.appendingPathComponent("fuzz/regressions/case-invalid-utf8-key.json5"))
        XCTAssertThrowsError(try GoldenCase.validate(caseData: data)) { XCTAssertTrue("\($0)".contains("invalid UTF-8"), "\($0)") }
    }

}
