import Foundation
import Testing
// One import gives a test everything a call needs: the view, documents, scripts and record modes.
@_exported import TextReel
@_exported import TextReelGolden
import XCTest

/// Golden frames as an assertion, as easy as `assertSnapshot`: renders a `TextView` (your
/// subclass, your providers) along a script and compares its frames with goldens stored beside
/// the test file, in `__Goldens__/<test file>/<name>/expected/`. A mismatch is recorded as a
/// failure at the caller's line and column — an `Issue` with the expected, actual and diff PNGs
/// attached under Swift Testing, an `XCTFail` naming the images under XCTest — never thrown.
///
/// ```swift
/// @Test func quotes() throws {
///     let view = MyTextView(document: try TextDocument(markdown: "> hello"), viewportSize: CGSize(width: 400, height: 300))
///     assertGoldenFrames(view, script: "{steps: [{scroll: {by: 120}}]}")
/// }
/// ```
///
/// Names default to the test function's, with a counter for each further call site in it (a
/// call site keeps its name when the test runs again, as with `--repetitions`). The record mode
/// comes from `record:`, else the enclosing `withGoldenRecording` or `.goldenRecording` trait,
/// else `TEXTREEL_RECORD` (`missing`, the default, or `never` when `CI` is set; `changed`;
/// `all`); anything else is an error. Every recording says which frames it wrote and attaches
/// them; a frame whose bytes did not change is never rewritten.
public func assertGoldenFrames(
    _ view: TextView, script: ScrollScript? = nil, frames: GoldenCase.Frames = .all, named name: String? = nil,
    tolerance: GoldenCase.Tolerance = .init(), record: GoldenRecording = .automatic,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
    function: String = #function
) {
    let place = GoldenAssertion.Place(fileID: fileID, filePath: filePath, line: line, column: column)
    GoldenAssertion.run(view, script: script, frames: frames, name: name, tolerance: tolerance, record: record,
                        place: place, function: function)
}

/// The same, with the script written as JSON5 text, read with the view's providers (so it may
/// name schemes the view registered).
public func assertGoldenFrames(
    _ view: TextView, script: String, frames: GoldenCase.Frames = .all, named name: String? = nil,
    tolerance: GoldenCase.Tolerance = .init(), record: GoldenRecording = .automatic,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
    function: String = #function
) {
    let place = GoldenAssertion.Place(fileID: fileID, filePath: filePath, line: line, column: column)
    do {
        let parsed = try ScrollScript(data: Data(script.utf8), fileName: "\(fileID):\(line) script", providers: view.providers)
        GoldenAssertion.run(view, script: parsed, frames: frames, name: name, tolerance: tolerance, record: record,
                            place: place, function: function)
    } catch {
        GoldenAssertion.fail("the script is not valid: \(error)", attachments: [], at: place)
    }
}

/// The same in every look of a variant matrix, as `variants:` in a `case.json5`: `makeView`
/// makes the view for each theme (already at its text size and direction) and width (nil: the
/// script's or your own), and each combination is compared with goldens of its own,
/// `<name>-dark-XXXL-375`.
///
/// ```swift
/// assertGoldenFrames(themes: ["light", "dark"], textSizes: [.M, .XXXL], widths: [375, 800]) { theme, width in
///     MyTextView(document: doc, viewportSize: CGSize(width: width ?? 800, height: 600), theme: theme)
/// }
/// ```
public func assertGoldenFrames(
    themes: [String] = ["light"], textSizes: [TextSize]? = nil, widths: [Double]? = nil,
    directions: [Theme.LayoutDirection]? = nil, script: ScrollScript? = nil, frames: GoldenCase.Frames = .all,
    named name: String? = nil, tolerance: GoldenCase.Tolerance = .init(), record: GoldenRecording = .automatic,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
    function: String = #function, makeView: (Theme, Double?) throws -> TextView
) {
    let place = GoldenAssertion.Place(fileID: fileID, filePath: filePath, line: line, column: column)
    let stem = name ?? String(function.prefix { $0 != "(" }.filter { $0.isLetter || $0.isNumber || $0 == "_" })
    for theme in themes {
        for size in textSizes.map({ $0.map(Optional.some) }) ?? [nil] {
            for width in widths.map({ $0.map(Optional.some) }) ?? [nil] {
                for direction in directions.map({ $0.map(Optional.some) }) ?? [nil] {
                    let variant = GoldenCase.Variant(appearance: Appearance(theme: theme, textSize: size, direction: direction), width: width)
                    do {
                        let view = try makeView(try variant.appearance.resolve(), width)
                        GoldenAssertion.run(view, script: script, frames: frames, name: "\(stem)-\(variant.folderName)",
                                            tolerance: tolerance, record: record, place: place, function: function)
                    } catch {
                        GoldenAssertion.fail("\(variant.label): \(error)", attachments: [], at: place)
                    }
                }
            }
        }
    }
}

enum GoldenAssertion {
    struct Place {
        var fileID: String
        var filePath: StaticString
        var line: UInt
        var column: UInt

        /// The column the call starts at: the compiler's `#column` is its opening parenthesis,
        /// so the line is read back for the function's name before it (only on failure).
        var startColumn: Int {
            guard let text = try? String(contentsOfFile: "\(filePath)", encoding: .utf8) else { return Int(column) }
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            guard line >= 1, Int(line) <= lines.count else { return Int(column) }
            let row = Array(lines[Int(line) - 1].utf8.prefix(Int(column)))
            let name = Array("assertGoldenFrames".utf8)
            guard row.count >= name.count else { return Int(column) }
            for start in stride(from: row.count - name.count, through: 0, by: -1) where Array(row[start..<start + name.count]) == name {
                return start + 1
            }
            return Int(column)
        }

        /// The call site, as names are remembered by.
        var site: String { "\(filePath):\(line):\(column)" }
    }

    /// Per test function, its call sites in the order they first ran (a site keeps its number
    /// when the test runs again); per golden folder, the call site that owns it.
    nonisolated(unsafe) private static var sites: [String: [String]] = [:]
    nonisolated(unsafe) private static var owners: [String: String] = [:]
    private static let lock = NSLock()

    static func run(_ view: TextView, script: ScrollScript?, frames: GoldenCase.Frames, name: String?,
                    tolerance: GoldenCase.Tolerance, record: GoldenRecording, place: Place, function: String) {
        let mode: GoldenSuite.UpdateMode
        do { mode = try record.resolved() } catch { return fail("\(error)", attachments: [], at: place) }
        // The cases of a parameterised test run in parallel: counters would hand out names in
        // the order they finish, so each case must name its goldens.
        if name == nil, Test.Case.current?.isParameterized == true {
            return fail("a parameterised test runs its cases in parallel: give each call a name built from its arguments (named: \"…\")",
                        attachments: [], at: place)
        }
        let caseName: String
        do {
            caseName = try lock.withLock {
                let chosen: String
                if let name {
                    chosen = name
                } else {
                    let key = "\(place.filePath)|\(function)"
                    if sites[key, default: []].contains(place.site) == false { sites[key, default: []].append(place.site) }
                    let number = sites[key]!.firstIndex(of: place.site)! + 1
                    let stem = function.prefix { $0 != "(" }.filter { $0.isLetter || $0.isNumber || $0 == "_" }
                    chosen = number == 1 ? String(stem) : "\(stem)-\(number)"
                }
                let folder = GoldenFrames.folder(named: chosen, testFile: "\(place.filePath)").path
                if let owner = owners[folder], owner != place.site {
                    throw TextReelError("the golden name '\(chosen)' is already used by another assertion in this test file (\(owner)); give each a name of its own")
                }
                owners[folder] = place.site
                return chosen
            }
        } catch {
            return fail("\(error)", attachments: [], at: place)
        }
        let script = script ?? .still
        if let viewport = script.viewport,
           viewport.width != view.viewportSize.width || viewport.height != view.viewportSize.height || viewport.scale != view.scale {
            return fail("the script's viewport \(viewport.width)×\(viewport.height) at scale \(viewport.scale) differs from the view's "
                        + "\(view.viewportSize.width)×\(view.viewportSize.height) at scale \(view.scale); make the view with the script's viewport, or leave it out of the script",
                        attachments: [], at: place)
        }
        let folder = GoldenFrames.folder(named: caseName, testFile: "\(place.filePath)")
        let result: CaseResult
        do {
            result = try GoldenFrames.compare(view, script: script, frames: frames, name: caseName, folder: folder,
                                              tolerance: tolerance, mode: mode)
        } catch {
            return fail("rendering '\(caseName)' failed: \(error)", attachments: [], at: place)
        }
        let expected = result.expected ?? folder.appendingPathComponent("expected").path
        let wrote = Reports.framesWritten(result)
        switch result.status {
        case .passed:
            // `all` on frames that differ within the tolerance rewrote them: say so.
            if !result.recordedFrames.isEmpty {
                fail("\(GoldenSuite.UpdateMode.explained(mode)) rewrote \(wrote) of '\(caseName)' in \(expected); look at them, then run the test again",
                     attachments: recorded(result, name: caseName), at: place)
            }
        case .recorded:
            fail("recorded \(wrote) of '\(caseName)' in \(expected) (\(GoldenSuite.UpdateMode.explained(mode))); look at them, then run the test again",
                 attachments: attachments(result, name: caseName) + recorded(result, name: caseName), at: place)
        case .updated:
            fail("the frames of '\(caseName)' differed, and \(GoldenSuite.UpdateMode.explained(mode)) wrote \(wrote) in \(expected); look at them, then run the test again",
                 attachments: attachments(result, name: caseName), at: place)
        case .failed, .drift:
            var lines: [String]
            if result.structure.first?.hasPrefix("no goldens yet") == true {
                lines = ["no goldens for '\(caseName)' in \(expected) yet, and recording is off here (\(GoldenSuite.UpdateMode.explained(mode))): "
                         + "run the test once with record: .missing, or with TEXTREEL_RECORD=missing, and commit what it writes"]
            } else {
                lines = ["the golden frames of '\(caseName)' \(result.status == .drift ? "differ, with environment drift" : "differ"):"]
                lines += Reports.reasons(result).map { "  " + $0 }
                if let first = result.diffs.first(where: { $0.diff != nil }) {
                    lines.append("  diff image: \(first.diff!)  actual: \(first.actual ?? "-")  expected: \(first.expected ?? "-")")
                }
            }
            fail(lines.joined(separator: "\n"), attachments: attachments(result, name: caseName), at: place)
        }
    }

    /// An attachment's name: the golden's, the frame's and what it shows.
    static func attachmentName(_ name: String, frame: Int, _ label: String) -> String {
        "\(name)-frame-\(String(format: "%05d", frame))-\(label).png"
    }

    /// Expected, actual and diff images of the frames that differ (those that exist: a frame
    /// whose golden was deleted has an actual image only).
    static func attachments(_ result: CaseResult, name: String) -> [(name: String, bytes: [UInt8])] {
        result.diffs.prefix(8).flatMap { diff in
            [("expected", diff.expected), ("actual", diff.actual), ("diff", diff.diff)].compactMap { label, path in
                path.flatMap { FileManager.default.contents(atPath: $0) }
                    .map { (name: attachmentName(name, frame: diff.frame, label), bytes: [UInt8]($0)) }
            }
        }
    }

    /// The goldens a recording wrote, read back from the expected folder.
    static func recorded(_ result: CaseResult, name: String) -> [(name: String, bytes: [UInt8])] {
        guard let expected = result.expected, let data = FileManager.default.contents(atPath: expected + "/index.json"),
              let index = try? JSONDecoder().decode([String: [String: String]].self, from: data)["frames"] else { return [] }
        return result.recordedFrames.prefix(8).compactMap { frame in
            index[String(frame)].flatMap { FileManager.default.contents(atPath: expected + "/" + $0) }
                .map { (name: attachmentName(name, frame: frame, "recorded"), bytes: [UInt8]($0)) }
        }
    }

    /// A failure at the caller: an issue with attachments under Swift Testing, else XCTFail.
    static func fail(_ message: String, attachments: [(name: String, bytes: [UInt8])], at place: Place) {
        if Test.current != nil {
            let location = SourceLocation(fileID: place.fileID, filePath: "\(place.filePath)", line: Int(place.line), column: place.startColumn)
            Issue.record(Comment(rawValue: message), sourceLocation: location)
            for attachment in attachments { Attachment.record(attachment.bytes, named: attachment.name, sourceLocation: location) }
        } else {
            // swift-corelibs-xctest has no attachments: the message names the images instead.
            XCTFail(message, file: place.filePath, line: place.line)
        }
    }
}

/// A trait that runs a test (or every test of a suite) with golden assertions recording in
/// `mode`, as `withGoldenRecording` does around a body: `@Test(.goldenRecording(.all))`.
public struct GoldenRecordingTrait: TestTrait, SuiteTrait, TestScoping {
    /// The mode the test's assertions record in (unless one says its own).
    public let recording: GoldenRecording

    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        try await withGoldenRecording(recording) { try await function() }
    }
}

extension Trait where Self == GoldenRecordingTrait {
    /// Golden assertions in the test record in `recording`'s mode.
    public static func goldenRecording(_ recording: GoldenRecording) -> Self { GoldenRecordingTrait(recording: recording) }
}
