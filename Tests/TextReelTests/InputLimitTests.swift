import Foundation
import XCTest
@testable import TextReel
@testable import TextReelMarkdown

/// Sizes and files that Cairo, libpng or a blocking read cannot take: each is refused with a
/// clear error at its place before anything is allocated, and never stops a whole suite.
final class InputLimitTests: XCTestCase {
    private func script(_ text: String) throws -> ScrollScript { try ScrollScript(data: Data(text.utf8)) }

    private func runnerError(_ scriptText: String, size: CGSize = CGSize(width: 400, height: 300), scale: Double = 1) throws -> TextReelError? {
        let view = TextView(document: try TextDocument(markdown: "# Hi\n\nText."), viewportSize: size, scale: scale)
        do { _ = try ScriptRunner(view: view, script: try script(scriptText)); return nil } catch { return error as? TextReelError }
    }

    /// A resize past what Cairo can draw (once SIGILL with nothing said), one that leaves the
    /// insets no room (once a one-letter column), and a view made too large from Swift: each an
    /// error at the step's line:column before the first frame.
    func testEveryViewportPassesOneCheck() throws {
        let wide = try runnerError("{steps: [\n  {wait: 0.1},\n  {resize: {width: 4096, height: 300}},\n]}", scale: 8)
        XCTAssertEqual(wide.map { [$0.line, $0.column] }, [3, 3])
        XCTAssertTrue(wide?.message.contains("32768×2400 px, too large") == true, "\(String(describing: wide))")
        XCTAssertNotNil(try runnerError("{steps: [{resize: {width: 2100, height: 300}}]}", scale: 8), "16,800 px is over 16,384")
        XCTAssertNil(try runnerError("{steps: [{resize: {width: 2048, height: 300}}]}", scale: 8), "16,384 px is allowed")
        let narrow = try runnerError("{steps: [{wait: 0.1}, {resize: {width: 80, height: 300}}]}")
        XCTAssertEqual(narrow?.column, 23)
        XCTAssertTrue(narrow?.message.contains("between the theme's insets") == true, "\(String(describing: narrow))")
        XCTAssertNotNil(try runnerError("{steps: []}", size: CGSize(width: 20_000, height: 300)), "the view's own size is checked too")
        XCTAssertNotNil(try runnerError("{steps: []}", size: CGSize(width: 60, height: 300)))
    }

    /// A view made from Swift too large to draw throws from `renderFrame` (Cairo's surface would
    /// be an error object, and reading its pixels crashed); an attachment taller than Cairo draws
    /// at its scale is drawn as its placeholder in place (it was an empty, invisible surface).
    func testSurfacesPastCairosLimitAreErrorsOrDrawnInPlace() throws {
        let huge = TextView(document: try TextDocument(markdown: "Text"), viewportSize: CGSize(width: 5000, height: 300), scale: 4)
        XCTAssertThrowsError(try huge.renderFrame()) { XCTAssertTrue("\($0)".contains("too large"), "\($0)") }
        let tall = TextView(document: try TextDocument(markdown: "![](drawing:d?size=200x8000)"),
                            viewportSize: CGSize(width: 400, height: 300), scale: 8)
        let frame = try tall.renderFrame()
        let background = frame.pixel(x: 2, y: 2)
        var drawn = 0
        for y in stride(from: 200, to: frame.height, by: 40) {
            for x in stride(from: 300, to: 1800, by: 40) where frame.pixel(x: x, y: y) != background { drawn += 1 }
        }
        XCTAssertGreaterThan(drawn, 0, "the attachment's box is drawn")
    }

    /// PNG headers claiming 2,000,000 × 1 (gdk-pixbuf refuses it, and it was called damaged),
    /// 2,147,483,632 × 3 (allocated 25 GB and aborted) and 40,000 × 2 (under the pixel budget,
    /// wider than Cairo draws: a blank placeholder): all "too large", from the header alone.
    func testImagesTooLargeToDrawAreTooLargeFromTheirHeader() throws {
        let folder = Paths.fixtures.appendingPathComponent("fuzz/regressions")
        for (name, size) in [("png-2000000x1.png", "2000000×1"), ("png-2147483632x3.png", "2147483632×3"), ("png-40000x2.png", "40000×2")] {
            XCTAssertThrowsError(try TextDocument(markdown: "Text\n\n![](\(name))", baseURL: folder), name) { error in
                let message = (error as? TextReelError)?.message ?? "\(error)"
                XCTAssertTrue(message.contains("is \(size) px, too large"), message)
                XCTAssertEqual((error as? TextReelError)?.line, 3)
            }
            XCTAssertNil(ImageFile.load(folder.appendingPathComponent(name)))
        }
    }

    /// A FIFO blocked forever and a device read without end: only regular files are documents;
    /// standard input is read when the name is `-`.
    func testSpecialFilesAreRefusedAndStandardInputIsAsked() throws {
        let folder = Paths.temporaryFolder()
        let fifo = folder.appendingPathComponent("doc.md")
        XCTAssertEqual(mkfifo(fifo.path, 0o644), 0)
        for (path, what) in [(fifo.path, "a pipe"), ("/dev/zero", "a character device")] {
            let result = try CLI.run(["render", path, "--out", folder.appendingPathComponent("out").path])
            XCTAssertEqual(result.status, 2, result.stderr)
            XCTAssertTrue(result.stderr.contains("is \(what)") && result.stderr.contains("not a regular file"), result.stderr)
        }
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = ["render", "-", "--out", folder.appendingPathComponent("stdin").path, "--quiet"]
        let input = Pipe()
        process.standardInput = input
        try process.run()
        input.fileHandleForWriting.write(Data("# From standard input\n\n~~struck~~\n".utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        let events = try String(contentsOf: folder.appendingPathComponent("stdin/events.jsonl"), encoding: .utf8)
        XCTAssertEqual(events.split(separator: "\n").count, 1)
    }

    /// A case that cannot run (a resize Cairo cannot draw, a variant too wide) fails alone: the
    /// others run, the report and JUnit are written, and the run exits 2 as the README says.
    func testACaseThatCannotRunNeverStopsTheSuite() throws {
        let suite = Paths.temporaryFolder()
        let fm = FileManager.default
        for name in ["good", "bad", "variants"] { try fm.createDirectory(at: suite.appendingPathComponent(name), withIntermediateDirectories: true) }
        try Data("# Hi\n\n~~Some~~ text.\n".utf8).write(to: suite.appendingPathComponent("doc.md"))
        try Data(#"{document: "../doc.md", viewport: {width: 300, height: 200}}"#.utf8).write(to: suite.appendingPathComponent("good/case.json5"))
        try Data("{viewport: {width: 400, height: 300, scale: 8},\n steps: [\n  {resize: {width: 4096, height: 300}},\n]}".utf8)
            .write(to: suite.appendingPathComponent("bad/script.json5"))
        try Data(#"{document: "../doc.md", script: "script.json5"}"#.utf8).write(to: suite.appendingPathComponent("bad/case.json5"))
        try Data(#"{document: "../doc.md", viewport: {width: 300, height: 200, scale: 8}, variants: {width: [300, 3000]}}"#.utf8)
            .write(to: suite.appendingPathComponent("variants/case.json5"))
        let junit = suite.appendingPathComponent("junit.xml")
        let result = try CLI.run(["test", suite.path, "--update", "missing", "--junit", junit.path, "--report", suite.appendingPathComponent("report").path])
        XCTAssertEqual(result.status, 2, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("bad/script.json5:3:3: error: resize:"), result.stdout)
        XCTAssertTrue(result.stdout.contains("+ good — recorded") && result.stdout.contains("+ variants [300] — recorded"), result.stdout)
        XCTAssertTrue(result.stderr.contains("2 cases could not run"), result.stderr)
        XCTAssertTrue(fm.fileExists(atPath: junit.path) && fm.fileExists(atPath: suite.appendingPathComponent("report/index.html").path))
    }

    /// A golden that is not a PNG names only the folder it wrote (no diff image can be made), and
    /// a damaged index.json is a case that cannot run: exit 2, as the README's table says.
    func testDamagedGoldensSayWhatTheyWrote() throws {
        let root = Paths.temporaryFolder()
        let fm = FileManager.default
        try fm.copyItem(at: Paths.fixtures.appendingPathComponent("golden/emoji"), to: root.appendingPathComponent("golden/emoji"))
        try fm.copyItem(at: Paths.fixtures.appendingPathComponent("documents"), to: root.appendingPathComponent("documents"))
        let expected = root.appendingPathComponent("golden/emoji/expected")
        let frame = try fm.contentsOfDirectory(atPath: expected.path).first { $0.hasSuffix(".png") }!
        try Data("not a PNG".utf8).write(to: expected.appendingPathComponent(frame))
        let damaged = try CLI.run(["test", root.appendingPathComponent("golden").path, "--update", "none"])
        XCTAssertEqual(damaged.status, 1, damaged.stdout)
        XCTAssertTrue(damaged.stdout.contains("the golden is damaged") && damaged.stdout.contains("/actual/"), damaged.stdout)
        XCTAssertFalse(damaged.stdout.contains("diff/"), damaged.stdout)
        try Data("{not json".utf8).write(to: expected.appendingPathComponent("index.json"))
        let index = try CLI.run(["test", root.appendingPathComponent("golden").path, "--update", "none"])
        XCTAssertEqual(index.status, 2, index.stdout + index.stderr)
        XCTAssertTrue(index.stdout.contains("index.json is damaged"), index.stdout)
    }

    /// An SVG whose `<svg` tag follows a long comment was "not an image (it holds text)":
    /// gdk-pixbuf's loader looks only at the file's start, so librsvg gives the size.
    func testAnSVGAfterALongCommentIsAnImage() throws {
        let folder = Paths.temporaryFolder()
        let svg = "<?xml version=\"1.0\"?>\n<!-- " + String(repeating: "x", count: 8000) + " -->\n"
            + ##"<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80"><rect width="120" height="80" fill="#3a6"/></svg>"##
        try Data(svg.utf8).write(to: folder.appendingPathComponent("late.svg"))
        let document = try TextDocument(markdown: "![](late.svg)", baseURL: folder)
        XCTAssertEqual(document.warnings, [])
        XCTAssertEqual(document.paragraphs[0].attachments.first?.size, CGSize(width: 120, height: 80))
        XCTAssertNotNil(ImageFile.load(folder.appendingPathComponent("late.svg")))
    }

    /// A document reached through a symbolic link is the file it points at (the special-file
    /// check once looked at the link).
    func testALinkedDocumentIsItsTarget() throws {
        let folder = Paths.temporaryFolder()
        try Data("# Linked\n".utf8).write(to: folder.appendingPathComponent("real.md"))
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("link.md").path, withDestinationPath: "real.md")
        XCTAssertEqual(try TextDocument(contentsOf: folder.appendingPathComponent("link.md")).paragraphs.first?.text, "Linked")
    }

    /// `version` with an argument it does not take is a usage error, not a version.
    func testVersionRefusesArguments() throws {
        XCTAssertEqual(try CLI.run(["version", "--bogus"]).status, 2)
        XCTAssertEqual(try CLI.run(["--version"]).status, 0)
    }

    /// Found by a new user: a standard stream that cannot be written crashed the run with a trap
    /// (Foundation's `FileHandle.write` is a `try!`); an environment's language list changed
    /// the glyphs of Japanese lines; an image named for another format drew as missing.
    func testStreamsEnvironmentAndFileNamesChangeNoVerdict() throws {
        func shell(_ command: String, environment: [String: String] = [:]) throws -> Int32 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = ["-c", command, CLI.executable.path]
            process.currentDirectoryURL = Paths.root
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus
        }
        XCTAssertEqual(try shell("exec \"$0\" render no-such.md 2>/dev/full"), 2)
        XCTAssertEqual(try shell("exec \"$0\" render no-such.md 2>&-"), 2)
        XCTAssertEqual(try shell("set -o pipefail; \"$0\" generate 100000 | head -c 10 > /dev/null"), 0)
        XCTAssertEqual(try shell("exec \"$0\" test Fixtures/golden/emoji --update none", environment: ["PANGO_LANGUAGE": "zh-tw", "LANGUAGE": "zh_TW"]), 0,
                       "the goldens of Japanese, Arabic and Devanagari lines hold under another language list")
        let folder = Paths.temporaryFolder()
        try FileManager.default.copyItem(at: Paths.fixtures.appendingPathComponent("documents/media/photo.jpg"), to: folder.appendingPathComponent("photo.png"))
        XCTAssertNotNil(ImageFile.load(folder.appendingPathComponent("photo.png")), "a JPEG named .png is decoded as a JPEG")
    }
}
