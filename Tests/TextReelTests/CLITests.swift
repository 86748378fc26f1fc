import XCTest
import TextReelMarkdown

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
        try expectBadInput(["render", good, "--scale", "1e-9"], mentions: ["--scale expects a number from 0.25 to 8", "1e-9"])
        try expectBadInput(["render", good, "--scale", "9"], mentions: ["--scale expects a number from 0.25 to 8"])
        try expectBadInput(["render", good, "--height", "tall"], mentions: ["--height expects a number"])
        try expectBadInput(["render", good, "--out", blocker + "/sub"], mentions: ["cannot create the output folder"])
        try expectBadInput(["render", good, "--frobnicate"], mentions: ["unknown option '--frobnicate'"])
        try expectBadInput(["paint", good], mentions: ["unknown command 'paint'"])
        // Nothing was left behind by the failures.
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: folder.path)),
                       ["invalid.md", "scheme.md", "size.md", "good.md", "blocker"])
    }

    /// librsvg and libmicrohttpd (and the eighteen libraries behind them) are loaded when an SVG
    /// is read or a report served, not when any textreel starts; both still work (SVG
    /// attachments in the goldens, the served report's browser test).
    func testOptionalLibrariesAreNotLoadedAtStart() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
        process.arguments = [CLI.executable.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let libraries = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertTrue(libraries.contains("libpango-1.0"), "ldd lists the libraries:\n\(libraries)")
        for optional in ["librsvg", "libmicrohttpd", "libgnutls", "libxml2"] {
            XCTAssertFalse(libraries.contains(optional), "\(optional) is loaded at start")
        }
        let folder = Paths.temporaryFolder()
        let svg = folder.appendingPathComponent("box.svg")
        try Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="red"/></svg>"#.utf8).write(to: svg)
        let document = folder.appendingPathComponent("doc.md")
        try Data("An image: ![box](box.svg)\n".utf8).write(to: document)
        let out = folder.appendingPathComponent("out")
        let render = try CLI.run(["render", document.path, "--out", out.path, "--quiet"])
        XCTAssertEqual(render.status, 0, render.stderr)
        let frame = try RenderedFrame(contentsOfPNG: out.appendingPathComponent("frame-00001.png"))
        var red = 0
        for y in 0..<frame.height { for x in 0..<frame.width { let p = frame.pixel(x: x, y: y); if p.red > 180 && p.green < 40 && p.blue < 40 { red += 1 } } }
        XCTAssertGreaterThan(red, 400, "the SVG was drawn, librsvg loaded on demand")
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
        // Text inside an SVG too: librsvg draws it with the current configuration, TextReel's.
        _ = write(#"<svg xmlns="http://www.w3.org/2000/svg" width="300" height="60"><text x="4" y="40" font-family="sans-serif" font-size="30">SVG text</text></svg>"#,
                  "label.svg", in: folder)
        let svgDocument = write("A drawing with words:\n\n![label](label.svg)\n", "svg.md", in: folder)
        func render(_ out: String) throws -> [Data] {
            var frames: [Data] = []
            for (name, document) in [("demo", "Fixtures/documents/demo.md"), ("svg", svgDocument)] {
                let folder = folder.appendingPathComponent(out + "-" + name)
                let run = try CLI.run(["render", document, "--out", folder.path])
                XCTAssertEqual(run.status, 0, run.stderr)
                frames.append(try Data(contentsOf: folder.appendingPathComponent("frame-00001.png")))
            }
            return frames
        }
        let plain = try render("plain")
        setenv("FONTCONFIG_FILE", hostile, 1)
        defer { unsetenv("FONTCONFIG_FILE") }
        let odd = try render("odd")
        XCTAssertEqual(plain[0], odd[0], "the demo")
        XCTAssertEqual(plain[1], odd[1], "text inside an SVG")
    }

    /// The goldens of a package's Swift tests (`__Goldens__/<file>/<name>/`, no case.json5) are
    /// read as their last `swift test` run left them: a golden with actual images fails, the
    /// report holds it, and a whole-case accept takes every actual image.
    func testTheGoldensOfSwiftTestsAreReportedAndReviewable() throws {
        let root = Paths.temporaryFolder()
        let render = root.appendingPathComponent("render")
        let document = root.appendingPathComponent("d.md")
        try Data("# One\n\nText.".utf8).write(to: document)
        XCTAssertEqual(try CLI.run(["render", document.path, "--out", render.path, "--quiet"]).status, 0)
        let golden = root.appendingPathComponent("Tests/MyTests/__Goldens__/MyTests/quote")
        for kind in ["expected", "actual"] { try FileManager.default.createDirectory(at: golden.appendingPathComponent(kind), withIntermediateDirectories: true) }
        try FileManager.default.copyItem(at: render.appendingPathComponent("frame-00001.png"), to: golden.appendingPathComponent("expected/frame-00001.png"))
        try Data(#"{"frames": {"1": "frame-00001.png"}}"#.utf8).write(to: golden.appendingPathComponent("expected/index.json"))
        try Data("# Two\n\nOther text.".utf8).write(to: document)
        XCTAssertEqual(try CLI.run(["render", document.path, "--out", render.path, "--quiet"]).status, 0)
        try FileManager.default.copyItem(at: render.appendingPathComponent("frame-00001.png"), to: golden.appendingPathComponent("actual/frame-00001.png"))
        let report = root.appendingPathComponent("report")
        let run = try CLI.run(["test", root.appendingPathComponent("Tests").path, "--report", report.path])
        XCTAssertEqual(run.status, 1, run.stdout + run.stderr)
        XCTAssertTrue(run.stdout.contains("✗ MyTests/quote — failed"), run.stdout)
        XCTAssertTrue(run.stdout.contains("goldens of Swift tests"), run.stdout)
        XCTAssertTrue(FileManager.default.fileExists(atPath: report.appendingPathComponent("index.html").path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: report.appendingPathComponent("results.json").path))
        // Without actual images (after accepting, or a passing run) it passes.
        try FileManager.default.removeItem(at: golden.appendingPathComponent("actual"))
        let passing = try CLI.run(["test", root.appendingPathComponent("Tests").path])
        XCTAssertEqual(passing.status, 0, passing.stdout + passing.stderr)
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
            (["render", "Fixtures/documents/demo.md", "--script", "/dev/null", "--out", folder.appendingPathComponent("o").path], ["/dev/null", "is a character device"]),
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

    /// Completions come from the table the commands parse with: every command and option is
    /// offered, and options with fixed values offer those values.
    func testCompletionsOfferEveryCommandAndOption() throws {
        let bash = try CLI.run(["completions", "bash"])
        XCTAssertEqual(bash.status, 0, bash.stderr)
        for command in ["render", "diff", "test", "review", "merge-reports", "preview", "explore", "completions"] {
            XCTAssertTrue(bash.stdout.contains("\(command)) opts=\""), command)
        }
        XCTAssertTrue(bash.stdout.contains("--frames") && bash.stdout.contains("--max-paragraph-kb") && bash.stdout.contains("--fail-on-update"))
        XCTAssertTrue(bash.stdout.contains("--theme) COMPREPLY=($(compgen -W \"light dark editor\""))
        let zsh = try CLI.run(["completions", "zsh"])
        XCTAssertTrue(zsh.stdout.hasPrefix("#compdef textreel") && zsh.stdout.contains("'--update=[update]:value:(missing changed all none)'"), zsh.stdout)
        let fish = try CLI.run(["completions", "fish"])
        XCTAssertTrue(fish.stdout.contains("complete -c textreel -n '__fish_seen_subcommand_from render' -l contact-sheet"), fish.stdout)
        let bad = try CLI.run(["completions", "tcsh"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("expected bash, zsh or fish"), bad.stderr)
    }

    /// `textreel test` on a Swift test's `__Goldens__` folder says what it is and what runs it.
    func testASwiftTestsGoldensFolderSaysWhatRunsIt() throws {
        let result = try CLI.run(["test", "Tests/TextReelGoldenTests/Bubbles/__Goldens__"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("goldens of Swift tests (assertGoldenFrames)") && result.stderr.contains("swift test"), result.stderr)
    }

    /// A theme naming a family the font set lacks is warned about, with the family its text is
    /// really drawn in (asked of Pango, not assumed); a list of families the set has, or generic
    /// names, is not.
    func testAThemesUnknownFontFamilyIsWarnedAbout() throws {
        let folder = Paths.temporaryFolder()
        try Data("# Fonts\n\n```\ncode\n```\n".utf8).write(to: folder.appendingPathComponent("a.md"))
        try Data("{bodyFamilies: \"Helvetica Neue, 'DejaVu Serif'\", monoFamilies: \"Fira Code\"}\n".utf8).write(to: folder.appendingPathComponent("odd.json5"))
        try Data("{bodyFamilies: \"DejaVu Serif, sans-serif\", monoFamilies: \"monospace\"}\n".utf8).write(to: folder.appendingPathComponent("fine.json5"))
        let odd = try CLI.run(["render", "a.md", "--theme", "odd.json5", "--out", "o1"], in: folder)
        XCTAssertEqual(odd.status, 0, odd.stderr)
        XCTAssertTrue(odd.stderr.contains("odd.json5: warning: bodyFamilies: the font set has no family 'Helvetica Neue'; its text is drawn in 'DejaVu Serif'"), odd.stderr)
        XCTAssertTrue(odd.stderr.contains("monoFamilies: the font set has no family 'Fira Code'; its text is drawn in 'DejaVu Sans'"), odd.stderr)
        let fine = try CLI.run(["render", "a.md", "--theme", "fine.json5", "--out", "o2"], in: folder)
        XCTAssertEqual(fine.status, 0, fine.stderr)
        XCTAssertFalse(fine.stderr.contains("warning"), fine.stderr)
        let quiet = try CLI.run(["render", "a.md", "--theme", "odd.json5", "--out", "o3", "--quiet"], in: folder)
        XCTAssertEqual(quiet.stderr, "")
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

extension CLITests {
    /// Small answers that were wrong: `version --help` is help, `--exact` alone is an error that
    /// says what it needs, and a view too narrow says how many points it really leaves.
    func testSmallAnswersAreRight() throws {
        let help = try CLI.run(["version", "--help"])
        XCTAssertEqual(help.status, 0, help.stderr)
        XCTAssertTrue(help.stdout.hasPrefix("Usage: textreel version"), help.stdout)
        let exact = try CLI.run(["render", "Fixtures/documents/demo.md", "--exact", "--out", Paths.temporaryFolder().path])
        XCTAssertEqual(exact.status, 2)
        XCTAssertTrue(exact.stderr.contains("--exact measures every paragraph above --at"), exact.stderr)
        let narrow = try CLI.run(["render", "Fixtures/documents/demo.md", "--width", "40", "--out", Paths.temporaryFolder("narrow").path])
        XCTAssertEqual(narrow.status, 2)
        XCTAssertTrue(narrow.stderr.contains("leaves -24 points"), narrow.stderr)
        // An output that cannot be written is found before the first frame, not after the last.
        for option in ["chart", "animation"] {
            let out = Paths.temporaryFolder("unwritable-\(option)")
            let run = try CLI.run(["render", "Fixtures/documents/demo.md", "--script", "Fixtures/scripts/demo.json5", "--out", out.path,
                                   "--\(option)", "/nonexistent-folder/file"])
            XCTAssertEqual(run.status, 2, run.stderr)
            XCTAssertTrue(run.stderr.contains("--\(option) /nonexistent-folder/file: the folder /nonexistent-folder does not exist"), run.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: out.appendingPathComponent("frame-00001.png").path), "no frame was drawn")
        }
    }
}
