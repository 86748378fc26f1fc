import XCTest

final class CLITests: XCTestCase {
    private func write(_ text: String, _ name: String, in folder: URL) -> String {
        let url = folder.appendingPathComponent(name)
        try! Data(text.utf8).write(to: url)
        return url.path
    }

    private func expectBadInput(_ arguments: [String], mentions needles: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let result = try CLI.run(arguments)
        XCTAssertEqual(result.status, 2, result.stderr, file: file, line: line)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "one clear line: \(result.stderr)", file: file, line: line)
        for needle in needles {
            XCTAssertTrue(result.stderr.contains(needle), "'\(needle)' not in: \(result.stderr)", file: file, line: line)
        }
    }

    func testRenderWritesOneFrameWithItsEvents() throws {
        let out = Paths.temporaryFolder()
        let result = try CLI.run(["render", "Fixtures/documents/demo.md", "--out", out.path, "--at", "300", "--width", "500", "--height", "400"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: out.path)),
                       ["frame-00001.png", "events.jsonl", "summary.json"])
        XCTAssertTrue(result.stdout.contains("frame-00001.png"))
        let png = try Data(contentsOf: out.appendingPathComponent("frame-00001.png"))
        XCTAssertEqual(Array(png.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }

    func testBadInputsGetOneLineAndStatusTwo() throws {
        let folder = Paths.temporaryFolder()
        var invalid = Data("# ok\n\nbad: ".utf8)
        invalid.append(contentsOf: [0xC3, 0x28])
        let invalidPath = folder.appendingPathComponent("invalid.md").path
        try invalid.write(to: URL(fileURLWithPath: invalidPath))
        let scheme = write("Hello\n\n![x](gopher:thing)\n", "scheme.md", in: folder)
        let size = write("![x](video:v?size=wide)\n", "size.md", in: folder)
        let good = write("Hello\n", "good.md", in: folder)
        let blocker = write("a file, not a folder", "blocker", in: folder)

        try expectBadInput(["render", folder.appendingPathComponent("nope.md").path], mentions: ["nope.md", "no such document"])
        try expectBadInput(["render", invalidPath], mentions: ["invalid.md:3:6", "invalid UTF-8"])
        try expectBadInput(["render", scheme], mentions: ["scheme.md:3:1", "unknown attachment scheme 'gopher:'"])
        try expectBadInput(["render", size], mentions: ["size.md:1:1", "malformed size 'wide'"])
        try expectBadInput(["render", good, "--width", "0"], mentions: ["not positive"])
        try expectBadInput(["render", good, "--width", "-5"], mentions: ["not positive"])
        try expectBadInput(["render", good, "--width", "9000", "--scale", "2"], mentions: ["too large", "16384"])
        try expectBadInput(["render", good, "--height", "tall"], mentions: ["--height expects a number"])
        try expectBadInput(["render", good, "--out", blocker + "/sub"], mentions: ["cannot create the output folder"])
        try expectBadInput(["render", good, "--frobnicate"], mentions: ["unknown option '--frobnicate'"])
        try expectBadInput(["paint", good], mentions: ["unknown command 'paint'"])
        // Nothing was left behind by the failures.
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: folder.path)),
                       ["invalid.md", "scheme.md", "size.md", "good.md", "blocker"])
    }

    func testHelpExplainsEveryOption() throws {
        let result = try CLI.run(["render", "--help"])
        XCTAssertEqual(result.status, 0)
        for option in ["--out", "--width", "--height", "--scale", "--at", "Example"] {
            XCTAssertTrue(result.stdout.contains(option), option)
        }
        XCTAssertEqual(try CLI.run(["--help"]).status, 0)
    }

    /// The private font configuration ignores the system's: a hostile FONTCONFIG_FILE (subpixel
    /// colour, full hinting, another default family) changes no pixel.
    func testSystemFontConfigurationChangesNoPixel() throws {
        let folder = Paths.temporaryFolder()
        let hostile = write("""
        <?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd">
        <fontconfig>
          <dir>/usr/share/fonts</dir>
          <match target="font"><edit name="rgba" mode="assign"><const>rgb</const></edit>
            <edit name="hintstyle" mode="assign"><const>hintfull</const></edit>
            <edit name="antialias" mode="assign"><bool>false</bool></edit></match>
          <alias><family>sans-serif</family><prefer><family>DejaVu Serif</family></prefer></alias>
        </fontconfig>
        """, "fonts.conf", in: folder)
        let plain = folder.appendingPathComponent("plain"), odd = folder.appendingPathComponent("odd")
        XCTAssertEqual(try CLI.run(["render", "Fixtures/documents/demo.md", "--out", plain.path]).status, 0)
        setenv("FONTCONFIG_FILE", hostile, 1)
        defer { unsetenv("FONTCONFIG_FILE") }
        XCTAssertEqual(try CLI.run(["render", "Fixtures/documents/demo.md", "--out", odd.path]).status, 0)
        XCTAssertEqual(try Data(contentsOf: plain.appendingPathComponent("frame-00001.png")),
                       try Data(contentsOf: odd.appendingPathComponent("frame-00001.png")))
    }
}

final class ExploreCLITests: XCTestCase {
    /// The explorer on fixed seeds passes on the demo, and finds and shrinks a correction when
    /// the budget forbids any (the done-means of the issue, on a short run).
    func testExplorerPassesTheDemoAndShrinksABrokenBudget() throws {
        let out = Paths.temporaryFolder()
        let pass = try CLI.run(["explore", "Fixtures/documents/demo.md", "--runs", "6", "--seed", "11", "--out", out.path])
        XCTAssertEqual(pass.status, 0, pass.stdout + pass.stderr)
        XCTAssertTrue(pass.stdout.contains("no failure"), pass.stdout)
        // Every generated script runs, also where its own edits delete what later steps target
        // (seed 5 on this document once went to a video it had deleted, and was skipped).
        let small = out.appendingPathComponent("small.md")
        try Data("# Small\n\nA toggle ![](control:t?kind=toggle) and text.\n\n![](video:v?size=200x100&duration=2.35)\n".utf8).write(to: small)
        let all = try CLI.run(["explore", small.path, "--seed", "0", "--runs", "40", "--quiet", "--out", out.path])
        XCTAssertEqual(all.status, 0, all.stdout + all.stderr)
        XCTAssertEqual(all.stderr, "")
        for bad in [["--timeout", "0"], ["--shrink-time", "-1"], ["--time", "0"]] {
            let refused = try CLI.run(["explore", "Fixtures/documents/demo.md", "--out", out.path] + bad)
            XCTAssertEqual(refused.status, 2, "\(bad): a run that could only report a hang")
            XCTAssertTrue(refused.stderr.contains("above 0"), refused.stderr)
        }

        let document = out.appendingPathComponent("generated.md")
        XCTAssertEqual(try CLI.run(["generate", "2000", "--out", document.path]).status, 0)
        let fail = try CLI.run(["explore", document.path, "--runs", "5", "--seed", "1", "--budget", "maxCorrection=0", "--out", out.path])
        XCTAssertEqual(fail.status, 1, fail.stdout + fail.stderr)
        let case_ = out.appendingPathComponent("seed-1")
        let script = try String(contentsOf: case_.appendingPathComponent("script.json5"), encoding: .utf8)
        let steps = script.split(separator: "\n").filter { $0.hasPrefix("    {") }
        XCTAssertGreaterThan(steps.count, 0)
        XCTAssertLessThanOrEqual(steps.count, 3, script)
        XCTAssertTrue(try String(contentsOf: case_.appendingPathComponent("case.json5"), encoding: .utf8).contains("maxCorrection: 0"))
        // The case it wrote fails the same way under `textreel test`, before any pixel.
        let test = try CLI.run(["test", case_.path])
        XCTAssertEqual(test.status, 1, test.stdout + test.stderr)
        XCTAssertTrue((test.stdout + test.stderr).contains("budget maxCorrection"), test.stdout + test.stderr)
        // And rendering it shows the correction in its events.
        let render = try CLI.run(["render", case_.appendingPathComponent("document.md").path, "--script",
                                  case_.appendingPathComponent("script.json5").path, "--out", out.appendingPathComponent("r").path, "--quiet"])
        XCTAssertEqual(render.status, 0, render.stderr)
        let events = try String(contentsOf: out.appendingPathComponent("r/events.jsonl"), encoding: .utf8)
        XCTAssertTrue(events.split(separator: "\n").contains { !$0.contains("\"correction\":0,") }, "a frame has a correction")
    }

    func testStrictRenderFailsOnABrokenBudgetNamingTheFrame() throws {
        let out = Paths.temporaryFolder()
        let document = out.appendingPathComponent("generated.md")
        XCTAssertEqual(try CLI.run(["generate", "2000", "--out", document.path]).status, 0)
        let script = out.appendingPathComponent("far.json5")
        try Data("{steps: [{scroll: {by: 40000}}]}".utf8).write(to: script)
        let warn = try CLI.run(["render", document.path, "--script", script.path, "--out", out.appendingPathComponent("a").path,
                                "--budget", "maxCorrection=0", "--quiet"])
        XCTAssertEqual(warn.status, 0)
        XCTAssertTrue(warn.stderr.contains("warning: frame"), warn.stderr)
        let strict = try CLI.run(["render", document.path, "--script", script.path, "--out", out.appendingPathComponent("b").path,
                                  "--budget", "maxCorrection=0", "--strict", "--quiet"])
        XCTAssertEqual(strict.status, 1)
        XCTAssertTrue(strict.stderr.contains("frame ") && strict.stderr.contains("correction"), strict.stderr)
    }
}

/// Every error names the file, the place, what was wrong and what to do; input that is silently
/// changed gets a warning.
final class MessageTests: XCTestCase {
    func testMessagesNameTheFileThePlaceAndWhatToDo() throws {
        let folder = Paths.temporaryFolder()
        let file = folder.appendingPathComponent("a-file")
        try Data("x".utf8).write(to: file)
        let big = folder.appendingPathComponent("big.json5")
        try Data("{viewport: {width: 8000, height: 600, scale: 4}}".utf8).write(to: big)
        let wide = folder.appendingPathComponent("wide.json5")
        try Data("{insets: {left: 300, right: 300}}".utf8).write(to: wide)
        let cases: [([String], [String])] = [
            (["render", "Fixtures/documents/demo.md", "--out", file.path], ["a-file", "is a file, not a folder"]),
            (["render", "Fixtures/documents/demo.md", "--script", "/dev/null", "--out", folder.appendingPathComponent("o").path], ["/dev/null:1:1", "empty"]),
            (["render", "Fixtures/documents/demo.md", "--script", big.path, "--out", folder.appendingPathComponent("o").path], ["big.json5", "too large", "override"]),
            (["render", "Fixtures/documents/demo.md", "--theme", wide.path, "--width", "500", "--out", folder.appendingPathComponent("o").path],
             ["left 300 + right 300", "500 points wide"]),
            (["preview", "Fixtures/documents/demo.md", "--width", "60"], ["left 32 + right 32", "between the theme's insets"]),
            (["diff", "Fixtures/golden/demo/expected/frame-00001.png", "Fixtures/golden/demo/expected/frame-00037.png", "--out", folder.path], ["is a folder", "diff.png"]),
        ]
        for (arguments, needles) in cases {
            let result = try CLI.run(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
            for needle in needles { XCTAssertTrue(result.stderr.contains(needle), "'\(needle)' not in \(result.stderr)") }
        }
        let version = try CLI.run(["--version"])
        XCTAssertEqual(version.status, 0)
        XCTAssertTrue(version.stdout.hasPrefix("textreel ") && version.stdout.contains("Pango"), version.stdout)
    }

    /// Messages say where and only what happened: a script's unknown theme at its line:column, a
    /// case's absolute script path as written, a taken port with TextReel's line alone, a
    /// structure list capped with the count left out.
    func testMessagesSayWhereAndOnlyWhatHappened() throws {
        let folder = Paths.temporaryFolder()
        try Data("# Hi\n".utf8).write(to: folder.appendingPathComponent("a.md"))
        try Data("{\n  theme: \"nosuch\",\n  steps: []}\n".utf8).write(to: folder.appendingPathComponent("s.json5"))
        let theme = try CLI.run(["render", "a.md", "--script", "s.json5", "--out", "out"], in: folder)
        XCTAssertEqual(theme.status, 2)
        XCTAssertTrue(theme.stderr.contains("s.json5:2:10: error: theme:") && theme.stderr.contains("nosuch"), theme.stderr)

        let suite = folder.appendingPathComponent("suite/c")
        try FileManager.default.createDirectory(at: suite, withIntermediateDirectories: true)
        try Data("# Hi\n".utf8).write(to: suite.appendingPathComponent("a.md"))
        try Data(#"{document: "a.md", script: "/nonexistent/script.json5"}"#.utf8).write(to: suite.appendingPathComponent("case.json5"))
        let absolute = try CLI.run(["test", folder.appendingPathComponent("suite").path])
        XCTAssertEqual(absolute.status, 2)
        XCTAssertTrue(absolute.stdout.contains("/nonexistent/script.json5: error: no such script"), absolute.stdout)

        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && listen(socket, 1) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        XCTAssertTrue(bound)
        let report = folder.appendingPathComponent("report")
        _ = try CLI.run(["test", "Fixtures/golden/emoji", "--report", report.path])
        let taken = try CLI.run(["report", report.path, "--serve", "--port", String(UInt16(bigEndian: address.sin_port))])
        XCTAssertEqual(taken.status, 2)
        XCTAssertEqual(taken.stderr.split(separator: "\n").count, 1, taken.stderr)
        XCTAssertTrue(taken.stderr.hasPrefix("textreel: "), taken.stderr)
    }

    /// A case that changed everywhere prints a screenful of reasons and says how many it left out.
    func testAFailingCasePrintsAScreenful() throws {
        let root = Paths.temporaryFolder()
        let fm = FileManager.default
        try fm.copyItem(at: Paths.fixtures.appendingPathComponent("golden/demo"), to: root.appendingPathComponent("golden/demo"))
        try fm.createDirectory(at: root.appendingPathComponent("documents"), withIntermediateDirectories: true)
        for name in try fm.contentsOfDirectory(atPath: Paths.fixtures.appendingPathComponent("documents").path) {
            try fm.copyItem(at: Paths.fixtures.appendingPathComponent("documents/\(name)"), to: root.appendingPathComponent("documents/\(name)"))
        }
        try? fm.createDirectory(at: root.appendingPathComponent("scripts"), withIntermediateDirectories: true)
        try? fm.copyItem(at: Paths.fixtures.appendingPathComponent("scripts/demo.json5"), to: root.appendingPathComponent("scripts/demo.json5"))
        let demo = root.appendingPathComponent("documents/demo.md")
        let text = try String(contentsOf: demo, encoding: .utf8)
        try Data(("Every paragraph moves down.\n\n" + text).utf8).write(to: demo)
        let result = try CLI.run(["test", root.appendingPathComponent("golden").path])
        XCTAssertEqual(result.status, 1, result.stdout)
        let reasons = result.stdout.split(separator: "\n").filter { $0.hasPrefix("    ") && !$0.hasPrefix("    first diverging") && !$0.hasPrefix("    …") }
        XCTAssertEqual(reasons.count, 40, result.stdout)
        XCTAssertTrue(result.stdout.contains("more (all of them in --report"), result.stdout)
    }

    func testSilentlyChangedInputIsWarnedAbout() throws {
        let folder = Paths.temporaryFolder()
        let doc = folder.appendingPathComponent("q.md")
        try Data("![](video:v?size=10x10&colour=red&size=20x20)\n\n![](video:v)\n".utf8).write(to: doc)
        let result = try CLI.run(["render", doc.path, "--out", folder.appendingPathComponent("o").path, "--at", "99999", "--width", "300", "--width", "400"])
        XCTAssertEqual(result.status, 0, result.stderr)
        for needle in ["unknown query key 'colour'", "query key 'size' is given twice", "attachment id 'v' is used again",
                       "--width is given twice", "--at 99999 is outside the document"] {
            XCTAssertTrue(result.stderr.contains(needle), "'\(needle)' not in \(result.stderr)")
        }
    }
}

/// The loop around goldens: shards that merge, obsolete goldens, update-and-fail.
final class GoldenWorkflowTests: XCTestCase {
    /// A copy of two project cases with the documents they name.
    private func suite() throws -> URL {
        let root = Paths.temporaryFolder(#function + "\(UUID())")
        let fm = FileManager.default
        try fm.createDirectory(at: root.appendingPathComponent("golden"), withIntermediateDirectories: true)
        for name in ["eviction", "video-policy", "emoji"] {
            try fm.copyItem(at: Paths.fixtures.appendingPathComponent("golden/\(name)"), to: root.appendingPathComponent("golden/\(name)"))
        }
        try fm.copyItem(at: Paths.fixtures.appendingPathComponent("documents"), to: root.appendingPathComponent("documents"))
        return root
    }

    private func stripped(_ url: URL) throws -> NSObject {
        func strip(_ o: Any) -> Any {
            if let d = o as? [String: Any] { return d.filter { $0.key != "seconds" }.mapValues(strip) }
            if let a = o as? [Any] { return a.map(strip) }
            return o
        }
        return strip(try JSONSerialization.jsonObject(with: Data(contentsOf: url))) as! NSObject
    }

    func testShardBlobsMergeIntoTheReportsOfOneRun() throws {
        let root = try suite()
        let golden = root.appendingPathComponent("golden").path
        for i in 1...2 {
            let r = try CLI.run(["test", golden, "--shard", "\(i)/2", "--blob", root.appendingPathComponent("b\(i).json").path])
            XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        }
        let merged = try CLI.run(["merge-reports", root.appendingPathComponent("b1.json").path, root.appendingPathComponent("b2.json").path,
                                  "--json", root.appendingPathComponent("merged.json").path, "--junit", root.appendingPathComponent("merged.xml").path])
        XCTAssertEqual(merged.status, 0, merged.stderr)
        XCTAssertEqual(try CLI.run(["test", golden, "--json", root.appendingPathComponent("single.json").path]).status, 0)
        XCTAssertEqual(try stripped(root.appendingPathComponent("merged.json")), try stripped(root.appendingPathComponent("single.json")))
        XCTAssertNotEqual(try CLI.run(["merge-reports", root.appendingPathComponent("nope.json").path]).status, 0)
        // A shard given twice would be counted twice; a missing one is said.
        let twice = try CLI.run(["merge-reports", root.appendingPathComponent("b1.json").path, root.appendingPathComponent("b1.json").path])
        XCTAssertEqual(twice.status, 2)
        XCTAssertTrue(twice.stderr.contains("shard 1/2 is given twice"), twice.stderr)
        let half = try CLI.run(["merge-reports", root.appendingPathComponent("b1.json").path])
        XCTAssertTrue(half.stderr.contains("no blob for shard 2/2"), half.stderr)
    }

    func testObsoleteGoldensAreListedAndPruned() throws {
        let root = try suite()
        let golden = root.appendingPathComponent("golden")
        try FileManager.default.removeItem(at: golden.appendingPathComponent("eviction/case.json5"))
        let index = golden.appendingPathComponent("video-policy/expected/index.json")
        var json = try JSONSerialization.jsonObject(with: Data(contentsOf: index)) as! [String: Any]
        var frames = json["frames"] as! [String: String]
        frames["999"] = frames.values.first!
        json["frames"] = frames
        try JSONSerialization.data(withJSONObject: json).write(to: index)
        let listed = try CLI.run(["test", golden.path])
        XCTAssertEqual(listed.status, 0, "obsolete goldens are not failures: \(listed.stdout)")
        XCTAssertTrue(listed.stdout.contains("frame 999") && listed.stdout.contains("past the end"), listed.stdout)
        XCTAssertTrue(listed.stdout.contains("eviction/expected: no case.json5"), listed.stdout)
        let pruned = try CLI.run(["test", golden.path, "--prune"])
        XCTAssertEqual(pruned.status, 0)
        XCTAssertTrue(pruned.stdout.contains("removed obsolete golden"), pruned.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: golden.appendingPathComponent("eviction/expected").path))
        XCTAssertFalse(try String(contentsOf: index, encoding: .utf8).contains("999"))
        XCTAssertFalse(try CLI.run(["test", golden.path]).stdout.contains("obsolete"))
    }

    /// `test --theme FILE` reads the file from where the command runs (it looked in each case's
    /// folder), and a theme that is not there is bad input before any case runs.
    func testThemeFileIsRelativeToTheWorkingFolder() throws {
        let root = try suite()
        try FileManager.default.createDirectory(at: root.appendingPathComponent("th"), withIntermediateDirectories: true)
        try Data(#"{base: "dark", bodySize: 18}"#.utf8).write(to: root.appendingPathComponent("th/mine.json5"))
        let themed = try CLI.run(["test", "golden/emoji", "--theme", "th/mine.json5", "--update", "missing"], in: root)
        XCTAssertEqual(themed.status, 0, themed.stdout + themed.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: root.appendingPathComponent("golden/emoji/expected/mine/index.json").path))
        let missing = try CLI.run(["test", "golden/emoji", "--theme", "th/none.json5"], in: root)
        XCTAssertEqual(missing.status, 2, missing.stdout + missing.stderr)
        XCTAssertTrue(missing.stderr.contains("no such theme"), missing.stderr)
    }

    func testDeletedGoldenFramesAreRecordedAndUpdatesCanStillFail() throws {
        let root = try suite()
        let golden = root.appendingPathComponent("golden")
        let frame = try FileManager.default.contentsOfDirectory(atPath: golden.appendingPathComponent("emoji/expected").path).first { $0.hasSuffix(".png") }!
        try FileManager.default.removeItem(at: golden.appendingPathComponent("emoji/expected/\(frame)"))
        let missing = try CLI.run(["test", golden.path, "--update", "missing"])
        XCTAssertEqual(missing.status, 0, missing.stdout)
        XCTAssertTrue(FileManager.default.fileExists(atPath: golden.appendingPathComponent("emoji/expected/\(frame)").path), "re-recorded")
        let update = try CLI.run(["test", golden.path, "--update", "all", "--fail-on-update"])
        XCTAssertEqual(update.status, 1, update.stdout)
        XCTAssertTrue(update.stdout.contains("wrote goldens: "), update.stdout)
        // A case recorded from nothing is a write too; with nothing to write the flag is an error.
        try FileManager.default.removeItem(at: golden.appendingPathComponent("emoji/expected"))
        let recorded = try CLI.run(["test", golden.path, "--update", "missing", "--fail-on-update"])
        XCTAssertEqual(recorded.status, 1, recorded.stdout)
        XCTAssertTrue(recorded.stdout.contains("wrote goldens: ") && recorded.stdout.contains("emoji"), recorded.stdout)
        XCTAssertEqual(try CLI.run(["test", golden.path, "--update", "none", "--fail-on-update"]).status, 2)
        // A case that cannot run fails alone; the others still run.
        try Data("{document: \"../../documents/demo.md\", script: \"gone.json5\"}".utf8).write(to: golden.appendingPathComponent("emoji/case.json5"))
        let broken = try CLI.run(["test", golden.path])
        XCTAssertEqual(broken.status, 2, "a case that cannot run is an error, as the README's table says")
        XCTAssertTrue(broken.stdout.contains("cannot run") && broken.stdout.contains("2 passed, 1 failed"), broken.stdout)
    }
}

final class ServedReportTests: XCTestCase {
    /// `report --serve` in a real browser: headless Chromium opens the page, a mouse click on
    /// "Accept frame" POSTs with the token, and the golden on disk changes; without the token the
    /// server refuses.
    func testHeadlessChromiumAcceptsAFrame() throws {
        let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }
        let node = ["/usr/bin/node", "/usr/local/bin/node"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let chromium, let node else { throw XCTSkip("chromium (make setup installs it) or node is missing") }
        let root = try Paths.failingEmojiSuite()
        let report = root.appendingPathComponent("report")
        XCTAssertEqual(try CLI.run(["test", root.appendingPathComponent("golden").path, "--report", report.path]).status, 1)
        let golden = root.appendingPathComponent("golden/emoji/expected/frame-00001.png")
        let before = try Data(contentsOf: golden)

        let server = Process()
        server.executableURL = CLI.executable
        server.arguments = ["report", "--serve", report.path]
        let out = Pipe()
        server.standardOutput = out
        try server.run()
        defer { if server.isRunning { server.terminate() } }
        var line = ""
        while !line.hasSuffix("\n") {
            let byte = out.fileHandleForReading.readData(ofLength: 1)
            guard !byte.isEmpty else { break }
            line += String(decoding: byte, as: UTF8.self)
        }
        let url = try XCTUnwrap(line.split(separator: " ").last.map { String($0).trimmingCharacters(in: .whitespacesAndNewlines) })
        XCTAssertTrue(url.hasPrefix("http://127.0.0.1:") && url.contains("token="), line)

        // Without the token, writing is refused.
        let base = String(url.prefix { $0 != "?" })
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: node)
        probe.arguments = ["-e", "fetch(process.argv[1] + 'accept?case=emoji&frame=1', {method: 'POST'}).then(r => console.log(r.status))", base]
        let probeOut = Pipe()
        probe.standardOutput = probeOut
        try probe.run()
        probe.waitUntilExit()
        XCTAssertEqual(String(decoding: probeOut.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self), "403\n", "no token, no write")
        XCTAssertEqual(try Data(contentsOf: golden), before)

        let browser = Process()
        browser.executableURL = URL(fileURLWithPath: node)
        browser.arguments = ["--experimental-websocket", Paths.root.appendingPathComponent("Tests/Browser/click.mjs").path, chromium, url, "button.accept-frame"]
        let said = Pipe()
        browser.standardOutput = said
        browser.standardError = FileHandle.nullDevice
        try browser.run()
        browser.waitUntilExit()
        let output = String(decoding: said.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(browser.terminationStatus, 0, output)
        XCTAssertTrue(output.hasPrefix("accepted"), output)
        XCTAssertNotEqual(try Data(contentsOf: golden), before, "the golden on disk changed")
        server.interrupt()
        server.waitUntilExit()
        XCTAssertEqual(server.terminationStatus, 0)
        XCTAssertEqual(try CLI.run(["test", root.appendingPathComponent("golden").path]).status, 0)
    }
}
