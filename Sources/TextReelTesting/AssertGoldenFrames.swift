import Foundation
import Testing
import TextReel
import TextReelGolden
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
/// Names default to the test function's, with a counter for each further call in it. The record
/// mode comes from `record:`, else `TEXTREEL_RECORD` (`missing`, the default, or `none` when `CI`
/// is set; `changed`; `all`); anything else is an error, and every recording says what it wrote.
public func assertGoldenFrames(
    _ view: TextView, script: ScrollScript? = nil, frames: GoldenCase.Frames = .all, named name: String? = nil,
    tolerance: GoldenCase.Tolerance = .init(), record: GoldenSuite.UpdateMode? = nil,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
    function: String = #function
) {
    let place = GoldenAssertion.Place(fileID: fileID, filePath: filePath, line: line, column: column)
    GoldenAssertion.run(view, script: script, frames: frames, name: name, tolerance: tolerance, record: record,
                        place: place, function: function)
}

/// The same, with the script written as JSON5 text.
public func assertGoldenFrames(
    _ view: TextView, script: String, frames: GoldenCase.Frames = .all, named name: String? = nil,
    tolerance: GoldenCase.Tolerance = .init(), record: GoldenSuite.UpdateMode? = nil,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
    function: String = #function
) {
    let place = GoldenAssertion.Place(fileID: fileID, filePath: filePath, line: line, column: column)
    do {
        let parsed = try ScrollScript(data: Data(script.utf8), fileName: "\(fileID):\(line) script")
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
    named name: String? = nil, tolerance: GoldenCase.Tolerance = .init(), record: GoldenSuite.UpdateMode? = nil,
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
    }

    /// Names used in this process, per goldens folder, and how many unnamed calls each test made.
    nonisolated(unsafe) private static var used: Set<String> = []
    nonisolated(unsafe) private static var counters: [String: Int] = [:]
    private static let lock = NSLock()

    static func run(_ view: TextView, script: ScrollScript?, frames: GoldenCase.Frames, name: String?,
                    tolerance: GoldenCase.Tolerance, record: GoldenSuite.UpdateMode?, place: Place, function: String) {
        let mode: GoldenSuite.UpdateMode
        do { mode = try record ?? GoldenFrames.recordMode } catch { return fail("\(error)", attachments: [], at: place) }
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
                    counters[key, default: 0] += 1
                    let stem = function.prefix { $0 != "(" }.filter { $0.isLetter || $0.isNumber || $0 == "_" }
                    chosen = counters[key]! == 1 ? String(stem) : "\(stem)-\(counters[key]!)"
                }
                guard used.insert(GoldenFrames.folder(named: chosen, testFile: "\(place.filePath)").path).inserted else {
                    throw TextReelError("the golden name '\(chosen)' is already used by another assertion in this test file; give each a name of its own")
                }
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
        switch result.status {
        case .passed:
            return
        case .recorded:
            fail("recorded new goldens for '\(caseName)' in \(expected) (record mode \(mode.rawValue)); look at them, then run the test again",
                 attachments: [], at: place)
        case .updated:
            fail("the frames of '\(caseName)' differed, and record mode \(mode.rawValue) wrote new goldens in \(expected); look at them, then run the test again",
                 attachments: attachments(result), at: place)
        case .failed, .drift:
            var lines: [String]
            if result.structure.first?.hasPrefix("no goldens yet") == true {
                lines = ["no goldens for '\(caseName)' in \(expected) yet, and recording is off here (record mode \(mode.rawValue)): "
                         + "run the test once with record: .missing, or with TEXTREEL_RECORD=missing, and commit what it writes"]
            } else {
                lines = ["the golden frames of '\(caseName)' \(result.status == .drift ? "differ, with environment drift" : "differ"):"]
                lines += Reports.reasons(result).map { "  " + $0 }
                if let first = result.diffs.first(where: { $0.diff != nil }) {
                    lines.append("  diff image: \(first.diff!)  actual: \(first.actual ?? "-")  expected: \(first.expected ?? "-")")
                }
            }
            fail(lines.joined(separator: "\n"), attachments: attachments(result), at: place)
        }
    }

    /// Expected, actual and diff images of the frames that differ.
    static func attachments(_ result: CaseResult) -> [(name: String, bytes: [UInt8])] {
        result.diffs.prefix(8).flatMap { diff in
            [("expected", diff.expected), ("actual", diff.actual), ("diff", diff.diff)].compactMap { label, path in
                path.flatMap { FileManager.default.contents(atPath: $0) }
                    .map { (name: "frame-\(String(format: "%05d", diff.frame))-\(label).png", bytes: [UInt8]($0)) }
            }
        }
    }

    /// A failure at the caller: an issue with attachments under Swift Testing, else XCTFail.
    static func fail(_ message: String, attachments: [(name: String, bytes: [UInt8])], at place: Place) {
        if Test.current != nil {
            let location = SourceLocation(fileID: place.fileID, filePath: "\(place.filePath)", line: Int(place.line), column: Int(place.column))
            Issue.record(Comment(rawValue: message), sourceLocation: location)
            for attachment in attachments { Attachment.record(attachment.bytes, named: attachment.name, sourceLocation: location) }
        } else {
            // swift-corelibs-xctest has no attachments: the message names the images instead.
            XCTFail(message, file: place.filePath, line: place.line)
        }
    }
}
