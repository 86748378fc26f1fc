import XCTest
@testable import TextReel
@testable import TextReelMarkdown

/// Every failure a user can meet ends in a clear error and a consistent output folder.
final class FailureTests: XCTestCase {
    func testNumbersThatWouldOverflowAreRefusedWhereTheyAreRead() throws {
        for duration in ["1e19", "2e11", "86401", "1e308"] {
            XCTAssertThrowsError(try TextDocument(markdown: "Text\n\n![v](video:v?duration=\(duration))\n"), duration) { error in
                let e = error as? TextReelError
                XCTAssertTrue(e?.message.contains("too long") == true, "\(error)")
                XCTAssertEqual(e?.line, 3, "\(error)")
            }
        }
        XCTAssertNoThrow(try TextDocument(markdown: "![v](video:v?duration=86400)"))
        XCTAssertEqual(VideoAttachmentView.timeCode(86_399), "23:59:59")
        XCTAssertEqual(VideoAttachmentView.timeCode(1e300), "24:00:00")
        XCTAssertEqual(VideoAttachmentView.timeCode(-5), "0:00")
        XCTAssertEqual(VideoAttachmentView.timeCode(75), "1:15")
    }

    func testStepLimitAndStepPositionsInOnePass() throws {
        let steps = Array(repeating: "{wait: 0}", count: 30_000).joined(separator: ",\n")
        let script = try ScrollScript(data: Data("{steps: [\n\(steps)]}".utf8))
        XCTAssertEqual(script.stepPositions.count, 30_000)
        XCTAssertEqual(script.stepPositions[29_999].line, 30_001)
        let view = TextView(document: try TextDocument(markdown: "Hi"), viewportSize: CGSize(width: 200, height: 100))
        XCTAssertThrowsError(try ScriptRunner(view: view, script: script, maximumSteps: 1000)) {
            XCTAssertTrue("\($0)".contains("30000 steps, more than 1000") && "\($0)".contains("--max-steps"), "\($0)")
        }
    }

    func testEditsKeepTheReadingLimits() throws {
        var limits = ReadingLimits()
        limits.paragraphBytes = 1000
        limits.documentBytes = 5000
        let document = try TextDocument(markdown: "Short.\n\nAnother.\n", limits: limits)
        let view = TextView(document: document, viewportSize: CGSize(width: 300, height: 200))
        XCTAssertThrowsError(try view.insertText(String(repeating: "x", count: 1200), inParagraphAt: 0, atCharacter: 0)) {
            XCTAssertTrue("\($0)".contains("over the 0 KB paragraph limit") || "\($0)".contains("paragraph limit"), "\($0)")
        }
        XCTAssertThrowsError(try view.insertParagraphs(markdown: String(repeating: "y", count: 1200), after: 0))
        var inserted = 0
        for _ in 0..<6 where (try? view.insertParagraphs(markdown: String(repeating: "z", count: 900), after: 0)) != nil { inserted += 1 }
        XCTAssertEqual(inserted, 5, "the sixth would pass 5,000 bytes")
        XCTAssertLessThanOrEqual(view.document.textBytes, 5000, "the document limit holds as edited")
        XCTAssertEqual(view.document.textBytes, "Short.\n\nAnother.\n".utf8.count + 5 * 900, "what was read, and what edits added")
        // A NUL is refused as a document's is (found by the fuzzer: typed, Pango's layout ended
        // at it, and the caret asked for positions past the layout's text).
        view.selectedTextRange = TextRange(location: TextLocation(paragraph: view.document.paragraphs[0].id))
        XCTAssertThrowsError(try view.insertText("a\u{0}b")) { XCTAssertTrue("\($0)".contains("cannot insert a NUL character"), "\($0)") }
        let script = try ScrollScript(data: Data("{steps: [{select: {paragraph: 0, from: 0}}, {type: \"\\u0000\"}]}".utf8))
        XCTAssertThrowsError(try ScriptRunner(view: view, script: script).run { _, _, _ in })
    }

    func testStaleTemporariesOfADeadRunAreRemovedByTheNext() throws {
        let out = Paths.temporaryFolder()
        // What a killed render leaves: its "running" summary, its lock and temporaries.
        // and the frames of the render before it, set aside to be deleted.
        let aside = out.appendingPathComponent(".textreel-replaced-4242")
        try FileManager.default.createDirectory(at: aside, withIntermediateDirectories: true)
        for name in [".events.jsonl.99999.tmp", ".frame-00001.png.123.tmp", ".frame-00002.png.123.7.tmp", ".dat.nosync1a2b.c3", ".textreel.lock",
                     ".textreel-replaced-4242/frame-00001.png", ".textreel-replaced-4242/frame-00002.png"] {
            try Data("x".utf8).write(to: out.appendingPathComponent(name))
        }
        // Names of the user's that only look like those are kept.
        let users = [".notes.tmp", ".a.b.tmp", "..7.tmp", "frame-1.png", "frame-000001.png", "x.frame-00001.png"]
        for name in users { try Data("mine".utf8).write(to: out.appendingPathComponent(name)) }
        try Data(#"{"status": "running"}"#.utf8).write(to: out.appendingPathComponent("summary.json"))
        let result = try CLI.run(["render", "Fixtures/documents/demo.md", "--out", out.path, "--quiet"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: out.path)), Set(["frame-00001.png", "events.jsonl", "summary.json"] + users))
    }

    /// A render into the folder of an earlier one replaces its frames (set aside, written over
    /// where each is its own file, the rest deleted while the new ones are drawn): only the new
    /// render's frames are left, byte for byte those of a render into an empty folder, in files of
    /// the earlier render, and nothing aside.
    func testARenderReplacesTheFramesOfTheLastAndLeavesNothingAside() throws {
        let out = Paths.temporaryFolder()
        let long = out.appendingPathComponent("long.json5"), short = out.appendingPathComponent("short.json5")
        try Data("{fps: 30, steps: [{scroll: {by: 600, duration: 1}}, {wait: 0.2}]}".utf8).write(to: long)
        try Data("{fps: 30, steps: [{scroll: {by: 200, duration: 0.1}}]}".utf8).write(to: short)
        let folder = out.appendingPathComponent("frames"), fresh = out.appendingPathComponent("fresh")
        func frames(_ folder: URL) throws -> [String: (inode: UInt, bytes: Data)] {
            var found: [String: (UInt, Data)] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasPrefix("frame-") {
                var status = stat()
                XCTAssertEqual(stat(folder.appendingPathComponent(name).path, &status), 0)
                found[name] = (UInt(status.st_ino), try Data(contentsOf: folder.appendingPathComponent(name)))
            }
            return found
        }
        let first = try CLI.run(["render", "Fixtures/documents/demo.md", "--script", long.path, "--out", folder.path, "--quiet"])
        XCTAssertEqual(first.status, 0, first.stderr)
        let earlier = try frames(folder)
        XCTAssertEqual(earlier.count, 37)
        let second = try CLI.run(["render", "Fixtures/documents/demo.md", "--script", short.path, "--out", folder.path, "--quiet"])
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(try CLI.run(["render", "Fixtures/documents/demo.md", "--script", short.path, "--out", fresh.path, "--quiet"]).status, 0)
        let now = try frames(folder), expected = try frames(fresh)
        XCTAssertEqual(now.keys.sorted(), expected.keys.sorted())
        for (name, file) in now { XCTAssertEqual(file.bytes, expected[name]?.bytes, name) }
        XCTAssertTrue(Set(now.values.map(\.inode)).isSubset(of: Set(earlier.values.map(\.inode))), "the new frames are written over the old files")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".") }, [])
    }

    /// Temporary names are told apart without a regex; they are the names the regex matched.
    func testTemporaryNamesAreThoseTheRegexMatched() {
        var random = SplitMix(seed: 35)
        let pieces = [".", "..", "tmp", ".tmp", "1", "23", "x", "frame-00001.png", ".dat.nosync", "٣", "é", ""]
        for _ in 0..<5000 {
            let name = (0...random.next() % 6).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
            let expected = name.wholeMatch(of: /\..+\.[0-9]+(\.[0-9]+)?\.tmp/) != nil || name.hasPrefix(".dat.nosync")
            XCTAssertEqual(AtomicFile.isTemporaryName(name), expected, name)
        }
    }

    /// A report or diff sent to a device or a pipe is written into it: renaming a finished
    /// temporary over `/dev/null` (as root) replaced the device with a plain file.
    func testWritingToAPipeOrDeviceKeepsIt() throws {
        let folder = Paths.temporaryFolder()
        let fifo = folder.appendingPathComponent("pipe")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        // The reading end first (a small write fits the pipe's buffer), then the write.
        let reader = open(fifo.path, O_RDONLY | O_NONBLOCK)
        XCTAssertGreaterThanOrEqual(reader, 0)
        defer { close(reader) }
        try AtomicFile.write(Data("through the pipe".utf8), to: fifo)
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(reader, &buffer, buffer.count)
        XCTAssertEqual(String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self), "through the pipe")
        var status = stat()
        XCTAssertEqual(stat(fifo.path, &status), 0)
        XCTAssertEqual(status.st_mode & S_IFMT, S_IFIFO, "still a pipe")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["pipe"], "no temporary left")

        let diff = try CLI.run(["diff", "Fixtures/golden/demo/expected/frame-00001.png", "Fixtures/golden/demo/expected/frame-00037.png",
                                "--out", "/dev/null"])
        XCTAssertEqual(diff.status, 1, diff.stderr)
        XCTAssertEqual(stat("/dev/null", &status), 0)
        XCTAssertEqual(status.st_mode & S_IFMT, S_IFCHR, "/dev/null is still a device")
    }

    /// `textreel diff` decodes two frames as it compares them; a damaged one (cut short, or its
    /// stream's checksum wrong) is still named with libpng's reason, whichever side it is on.
    func testADamagedPNGInADiffIsNamedWithItsReason() throws {
        let folder = Paths.temporaryFolder()
        let frame = "Fixtures/golden/demo/expected/frame-00001.png"
        let sound = try Data(contentsOf: URL(fileURLWithPath: frame))
        var checksum = sound
        checksum[checksum.count - 12 - 4 - 1] ^= 0x5A
        for (name, data, reason) in [("cut.png", sound.prefix(20_000), "data ends at byte 20000"), ("checksum.png", checksum, "incorrect data check")] {
            let damaged = folder.appendingPathComponent(name)
            try data.write(to: damaged)
            for pair in [[frame, damaged.path], [damaged.path, frame]] {
                let run = try CLI.run(["diff"] + pair + ["--out", folder.appendingPathComponent("diff.png").path])
                XCTAssertEqual(run.status, 2, run.stderr)
                XCTAssertTrue(run.stderr.contains("\(damaged.path): error: the PNG file is damaged (") && run.stderr.contains(reason), run.stderr)
            }
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("diff.png").path), "no diff image")
    }

    func testAFailedRenderIntoAnOldFolderDescribesOnlyItsOwnFrames() throws {
        let out = Paths.temporaryFolder()
        let ok = try CLI.run(["render", "Fixtures/documents/demo.md", "--script", "Fixtures/scripts/demo.json5", "--out", out.path, "--quiet"])
        XCTAssertEqual(ok.status, 0)
        let script = out.appendingPathComponent("bad.json5")
        try Data("{steps: [{scroll: {by: 300, duration: 0.5}}, {edit: {deleteParagraph: 9999}}]}".utf8).write(to: script)
        let bad = try CLI.run(["render", "Fixtures/documents/demo.md", "--script", script.path, "--out", out.path, "--quiet"])
        XCTAssertEqual(bad.status, 2)
        try assertStoppedRender(in: out, status: "failed", reason: "paragraph 9999 does not exist")
    }

    /// Under a file-size limit (`ulimit -f`) a render is not killed by SIGXFSZ: the write that
    /// passes the limit fails and the render ends as on a full disk, with whole event lines, no
    /// temporaries and the file that failed named. A limit below one frame fails frame 1; one
    /// that the events file reaches first stops the render mid-script.
    func testAFileSizeLimitEndsARenderCleanly() throws {
        for (limit, failing) in [(60, "frame-00001.png"), (300, "events.jsonl")] {
            for mode in [[], ["--serial"]] {
                let out = Paths.temporaryFolder("limit-\(limit)\(mode.joined())")
                let run = try CLI.run(["render", "Fixtures/documents/demo.md", "--script", "Fixtures/scripts/demo.json5", "--out", out.path, "--quiet"] + mode,
                                      fileSizeLimitKB: limit)
                XCTAssertEqual(run.status, 2, "limit \(limit) \(mode): \(run.stderr)")
                XCTAssertTrue(run.stderr.contains("\(failing): error: cannot write (File too large)"), run.stderr)
                try assertStoppedRender(in: out, status: "failed", reason: failing)
                let names = try FileManager.default.contentsOfDirectory(atPath: out.path)
                XCTAssertFalse(names.contains { $0.hasSuffix(".tmp") }, "\(names)")
                XCTAssertFalse(names.contains(failing) && failing.hasPrefix("frame"), "the frame named is not on disk")
            }
        }
        // Every other sink ends the same way.
        let out = Paths.temporaryFolder("limit-animation")
        let run = try CLI.run(["render", "Fixtures/documents/demo.md", "--script", "Fixtures/scripts/demo.json5", "--out", out.path, "--quiet",
                               "--animation", out.appendingPathComponent("a.png").path], fileSizeLimitKB: 100)
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertTrue(run.stderr.contains("File too large"), run.stderr)
    }

    func testY4MIntoAClosedPipeSaysWhatHappened() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "\"$0\" render Fixtures/documents/demo.md --script Fixtures/scripts/demo.json5 --format y4m --out \"$1\" | head -c 10 > /dev/null",
                             CLI.executable.path, Paths.temporaryFolder().path]
        process.currentDirectoryURL = Paths.root
        let err = Pipe()
        process.standardError = err
        try process.run()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertTrue(message.contains("closed the pipe"), message)
    }
}

final class BrokenImageTests: XCTestCase {
    /// Each kind of broken image gets a warning and a placeholder label that say what is wrong.
    func testBrokenImagesSayWhatIsWrong() throws {
        let folder = Paths.temporaryFolder()
        let media = Paths.fixtures.appendingPathComponent("documents/media")
        let png = try Data(contentsOf: media.appendingPathComponent("photo.png"))
        let jpeg = try Data(contentsOf: media.appendingPathComponent("photo.jpg"))
        var corrupt = jpeg
        for i in stride(from: 300, to: corrupt.count, by: 7) { corrupt[i] = 0 }
        let files: [(String, Data?)] = [("trunc.png", png.prefix(600)), ("trunc.jpg", jpeg.prefix(2000)), ("corrupt.jpg", corrupt),
                                        ("text.png", Data("hello\n".utf8)), ("bad.svg", Data("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"9\" height=\"9\"><rect".utf8)),
                                        ("empty.png", Data()), ("folder.png", nil)]
        for (name, data) in files {
            let url = folder.appendingPathComponent(name)
            if let data { try data.write(to: url) } else { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        }
        let markdown = files.map { "![](\($0.0))" }.joined(separator: "\n\n") + "\n\n![](none.png)\n"
        let document = try TextDocument(markdown: markdown, baseURL: folder)
        let problems = document.paragraphs.compactMap { $0.attachments.first?.problem }
        XCTAssertEqual(problems.count, 8)
        XCTAssertEqual(problems[0], "damaged PNG: data ends at byte 600")
        XCTAssertEqual(problems[1], "damaged JPEG: data ends at byte 2000, before the end-of-image marker")
        XCTAssertTrue(problems[2].hasPrefix("damaged JPEG: "), problems[2])
        XCTAssertEqual(problems[3], "not an image (it holds text)")
        XCTAssertTrue(problems[4].hasPrefix("damaged SVG: "), problems[4])
        XCTAssertEqual(problems[5], "an empty file, not an image")
        XCTAssertEqual(problems[6], "a folder, not an image")
        XCTAssertEqual(problems[7], "not found")
        XCTAssertEqual(document.warnings.count, 8)
        XCTAssertTrue(document.warnings.allSatisfy { $0.contains("placeholder") })
        // The good files give no problem.
        let good = try TextDocument(markdown: "![](media/photo.png)\n\n![](media/photo.jpg)\n\n![](media/harbor.svg)\n",
                                    baseURL: Paths.fixtures.appendingPathComponent("documents"))
        XCTAssertEqual(good.paragraphs.compactMap { $0.attachments.first?.problem }, [])
        XCTAssertEqual(good.warnings, [])
    }

    /// Headers libraries meet with a CRITICAL line (a GIF of 0 × 0 pixels) and SVGs librsvg
    /// refuses only while drawing (`<use>` referencing a million elements) are problems with a
    /// reason, said once: before, the GIF printed gdk-pixbuf's CRITICAL line and the SVG was a
    /// "missing image" with no warning.
    func testImagesTheLibrariesRefuseLateSayWhy() throws {
        let folder = Paths.temporaryFolder()
        try Data("GIF89a".utf8 + [0, 0, 0, 0, 0x80, 0, 0]).write(to: folder.appendingPathComponent("zero.gif"))
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"9\" height=\"9\"><defs><rect id=\"a0\" width=\"1\" height=\"1\"/>"
        for level in 1...6 { svg += "<g id=\"a\(level)\">" + String(repeating: "<use xlink:href=\"#a\(level - 1)\"/>", count: 10) + "</g>" }
        try Data((svg + "</defs><use xlink:href=\"#a6\"/></svg>").utf8).write(to: folder.appendingPathComponent("bomb.svg"))
        let markdown = folder.appendingPathComponent("images.md")
        try Data("![](zero.gif)\n\n![](bomb.svg)\n".utf8).write(to: markdown)
        let document = try TextDocument(contentsOf: markdown)
        XCTAssertEqual(document.paragraphs.map { $0.attachments.first?.problem }, [
            "damaged GIF: its header says it is 0 × 0 pixels",
            "damaged SVG: librsvg cannot draw it (exceeded more than 500000 referenced elements)"])
        let result = try CLI.run(["render", markdown.path, "--out", folder.appendingPathComponent("out").path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(result.stderr.contains("CRITICAL"), result.stderr)
        XCTAssertEqual(result.stderr.components(separatedBy: "drawing a placeholder that says so").count - 1, 2, result.stderr)
    }
}

final class NestingTests: XCTestCase {
    /// The limit counts quotes, list items and inline styles: 64 levels pass a limit of 64, the
    /// 65th is refused at its own column.
    func testTheNestingLimitMeansWhatItSays() throws {
        XCTAssertNoThrow(try TextDocument(markdown: String(repeating: ">", count: 64) + " text\n"))
        XCTAssertThrowsError(try TextDocument(markdown: String(repeating: ">", count: 65) + " text\n")) { error in
            XCTAssertEqual((error as? TextReelError)?.column, 65, "\(error)")
        }
        let list64 = (0..<64).map { String(repeating: "  ", count: $0) + "- level \($0)\n" }.joined()
        XCTAssertNoThrow(try TextDocument(markdown: list64))
        XCTAssertNoThrow(try TextDocument(markdown: String(repeating: "*", count: 60) + "x" + String(repeating: "*", count: 60)))
    }

    /// Deep text stays inside the view and readable (not one character per line), to a depth of
    /// thousands with a raised limit; levels keep moving right, ever less.
    func testDeepNestingStaysReadableInsideTheView() throws {
        var limits = ReadingLimits()
        limits.nesting = 3000
        for depth in [45, 64, 3000] {
            let markdown = String(repeating: ">", count: depth) + " deep text that should stay readable inside the view\n"
            let document = try TextDocument(markdown: markdown, limits: limits)
            let view = TextView(document: document, viewportSize: CGSize(width: 480, height: 300))
            let fragment = view.textLayoutManager.ensureLayout(forParagraphAt: 0)
            XCTAssertLessThanOrEqual(fragment.textLineFragments.count, 3, "depth \(depth): \(fragment.textLineFragments.count) lines")
            for line in fragment.textLineFragments {
                XCTAssertLessThanOrEqual(line.typographicBounds.maxX, 480 - 32 + 0.5, "depth \(depth)")
            }
        }
        let list = (0..<40).map { String(repeating: "  ", count: $0) + "- level \($0)\n" }.joined()
        let view = TextView(document: try TextDocument(markdown: list), viewportSize: CGSize(width: 480, height: 300))
        let xs = (0..<40).map { view.textLayoutManager.ensureLayout(forParagraphAt: $0).textLineFragments[0].typographicBounds.minX }
        XCTAssertEqual(xs, xs.sorted(), "deeper levels never move left")
        XCTAssertEqual(Set(xs).count, 40, "every level is distinct")
    }
}

/// Found by trying the command line as a new user would.
final class NewUserFindingsTests: XCTestCase {
    /// A word of tens of thousands of characters took minutes (Pango's word wrap is quadratic in
    /// it), and a paragraph taller than Cairo's 32,767-pixel surfaces was drawn blank.
    func testLongWordsAndTallParagraphsDrawQuickly() throws {
        let document = try TextDocument(markdown: "Some words first. " + String(repeating: "x", count: 200_000) + " and after\n")
        let view = TextView(document: document, viewportSize: CGSize(width: 400, height: 300))
        let fragment = view.textLayoutManager.ensureLayout(forParagraphAt: 0)
        XCTAssertGreaterThan(fragment.textLineFragments.count, 1000, "the word wraps")
        XCTAssertGreaterThan(fragment.layoutFragmentFrame.height, 32_767, "taller than a surface may be")
        let frame = try view.renderFrame()
        let inked = (0..<300).contains { y in (0..<400).contains { x in frame.pixel(x: x, y: y).red < 128 } }
        XCTAssertTrue(inked, "the text is drawn")
        view.scroll(by: 40_000)
        let far = try view.renderFrame()
        XCTAssertTrue((0..<300).contains { y in (0..<400).contains { x in far.pixel(x: x, y: y).red < 128 } }, "deep inside it too")
        // Past what Pango lays out as one paragraph: refused, not silently empty.
        XCTAssertThrowsError(try TextDocument(markdown: String(repeating: "x", count: 300_000))) {
            XCTAssertTrue("\($0)".contains("255 KB paragraph limit"), "\($0)")
        }
    }

    /// No jump is counted on the first frame or where a scroll lands (a clamp at an end the pass
    /// measured), only for content that moved between frames by itself.
    func testJumpsAreMovementsBetweenFrames() throws {
        let document = try TextDocument(markdown: "# Short\n\nA document shorter than its viewport.\n\n- one\n- two\n")
        let view = TextView(document: document, viewportSize: CGSize(width: 1024, height: 400))
        var events: [FrameEvent] = []
        try ScriptRunner(view: view, script: ScrollScript(data: Data("{steps: [{scroll: {toParagraph: 1}}, {wait: 0.1}, {scroll: {by: 300}}]}".utf8)))
            .run(drawing: 0...0) { _, _, event in events.append(event) }
        XCTAssertEqual(events.map(\.checks.jump), Array(repeating: 0, count: events.count))
    }

    /// A table whose columns do not fit even at their narrowest is cut at the view's edge with a
    /// marker there (in the link colour) and a warning on its fragments in the events: never a
    /// silent loss.
    func testATableTooWideEvenAtItsNarrowestIsMarkedAndWarned() throws {
        let table = "|" + (0..<30).map { "header\($0)" }.joined(separator: "|") + "|\n|" + String(repeating: "-|", count: 30) + "\n|" + (0..<30).map { "c\($0)" }.joined(separator: "|") + "|\n"
        let view = TextView(document: try TextDocument(markdown: table), viewportSize: CGSize(width: 400, height: 600))
        var events: [FrameEvent] = []
        try ScriptRunner(view: view, script: ScrollScript(data: Data("{steps: [{wait: 0.05}]}".utf8))).run(drawing: 0...0) { _, _, event in events.append(event) }
        let clipped = events[0].fragments.compactMap(\.clipped)
        XCTAssertEqual(clipped.count, 2, "both rows say they are cut")
        XCTAssertTrue(clipped[0].contains("30 columns"), clipped[0])
        let frame = try view.renderFrame()
        let fragment = view.textLayoutManager.ensureLayout(forParagraphAt: 0)
        let y = Int(fragment.layoutFragmentFrame.midY)
        let link = view.theme.link
        let marked = (395..<400).contains { x in
            let p = frame.pixel(x: x, y: y)
            return abs(Double(p.blue) / 255 - link.blue) < 0.1 && abs(Double(p.red) / 255 - link.red) < 0.1
        }
        XCTAssertTrue(marked, "a marker at the cut edge")
    }
}
