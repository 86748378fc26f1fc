import XCTest
@testable import textreel
@testable import TextReel
@testable import TextReelMarkdown

final class PreviewTests: XCTestCase {
    private let demo = ["Fixtures/documents/demo.md", "--script", "Fixtures/scripts/demo.json5"]

    private func previewJSON(frame: Int) throws -> [String: Any] {
        let result = try CLI.run(["preview"] + demo + ["--frame", "\(frame)", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
    }

    /// The table lists exactly the fragments the render's events say are in the viewport bounds.
    func testTableListsExactlyTheFragmentsOfTheEvents() throws {
        let out = Paths.temporaryFolder()
        XCTAssertEqual(try CLI.run(["render"] + demo + ["--out", out.path, "--quiet"]).status, 0)
        let events = try String(contentsOf: out.appendingPathComponent("events.jsonl"), encoding: .utf8).split(separator: "\n")
        for frame in [1, 37, 100] {
            let event = try JSONSerialization.jsonObject(with: Data(events[frame - 1].utf8)) as! [String: Any]
            let expected = (event["fragments"] as! [[String: Any]]).map { $0["paragraph"] as! Int }
            let preview = try previewJSON(frame: frame)
            XCTAssertEqual((preview["fragments"] as! [[String: Any]]).map { $0["paragraph"] as! Int }, expected, "frame \(frame)")
            let text = try CLI.run(["preview"] + demo + ["--frame", "\(frame)"]).stdout
            let rows = text.split(separator: "\n").filter { $0.first?.isNumber == true }
            XCTAssertEqual(rows.map { Int($0.split(separator: " ")[1])! }, expected, "the text table, frame \(frame)")
            XCTAssertFalse(text.contains("\u{1B}["), "no colours when stdout is not a terminal")
        }
    }

    func testJSONRoundTrips() throws {
        let result = try CLI.run(["preview", "Fixtures/documents/demo.md", "--at", "900", "--json"])
        let decoded = try JSONDecoder().decode(LayoutPreview.self, from: Data(result.stdout.utf8))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        XCTAssertEqual(String(decoding: try encoder.encode(decoded), as: UTF8.self) + "\n", result.stdout)
        XCTAssertEqual(decoded.visibleRect.y, 900, accuracy: 100, "a far jump lands on estimated heights, then stays anchored")
        XCTAssertTrue(decoded.fragments.contains { $0.visible } && decoded.fragments.contains { !$0.visible })
        XCTAssertGreaterThan(decoded.measuredParagraphs, 0)
    }

    /// The document's warnings reach stderr in preview as in render (a new-user helper found
    /// preview silent), and stdout stays the table or JSON alone.
    func testPreviewPrintsTheDocumentsWarnings() throws {
        let folder = Paths.temporaryFolder()
        let doc = folder.appendingPathComponent("w.md")
        try Data("A ![](video:dup) and ![](video:dup).\n".utf8).write(to: doc)
        let result = try CLI.run(["preview", doc.path, "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("attachment id 'dup' is used again"), result.stderr)
        XCTAssertNoThrow(try JSONDecoder().decode(LayoutPreview.self, from: Data(result.stdout.utf8)))
    }

    /// Numbers of a long document fit their columns (six-digit indexes and eight-digit y ranges
    /// were cut; found by a new-user helper).
    func testColumnsFitLongDocumentsNumbers() throws {
        let folder = Paths.temporaryFolder()
        let doc = folder.appendingPathComponent("long.md")
        try Data(TextDocument.generatedMarkdown(paragraphs: 120_000).utf8).write(to: doc)
        let result = try CLI.run(["preview", doc.path, "--at", "9000000"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let rows = result.stdout.split(separator: "\n").filter { $0.first?.isNumber == true }
        XCTAssertFalse(rows.isEmpty, result.stdout)
        for row in rows {
            let cells = row.split(separator: " ", omittingEmptySubsequences: true)
            XCTAssertTrue(Int(cells[0]) != nil && Int(cells[1]) != nil && !cells[3].contains("…"), String(row))
        }
    }

    /// `--at` is where the script starts, in preview as in render: frame N of both is the same moment.
    func testAtStartsTheScriptAsRenderDoes() throws {
        let out = Paths.temporaryFolder()
        let script = ["--script", "Fixtures/scripts/demo.json5", "--at", "700"]
        let render = try CLI.run(["render", "Fixtures/documents/demo.md", "--out", out.path, "--frames", "40-40"] + script)
        XCTAssertEqual(render.status, 0, render.stderr)
        let events = try String(contentsOf: out.appendingPathComponent("events.jsonl"), encoding: .utf8).split(separator: "\n")
            .map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        let event = try XCTUnwrap(events.first { $0["frame"] as? Int == 40 })
        let renderedY = (event["viewport"] as! [String: Any])["y"] as! Double

        let preview = try CLI.run(["preview", "Fixtures/documents/demo.md", "--frame", "40", "--json"] + script)
        XCTAssertEqual(preview.status, 0, preview.stderr)
        let decoded = try JSONDecoder().decode(LayoutPreview.self, from: Data(preview.stdout.utf8))
        XCTAssertEqual(decoded.visibleRect.y, renderedY, accuracy: 0.5)
        let fromTop = try JSONDecoder().decode(LayoutPreview.self, from: Data(
            try CLI.run(["preview", "Fixtures/documents/demo.md", "--frame", "40", "--json", "--script", "Fixtures/scripts/demo.json5"]).stdout.utf8))
        XCTAssertNotEqual(fromTop.visibleRect.y, renderedY, "the start offset matters at frame 40")
    }

    func testImageDrawsTheFrameWithChafa() throws {
        let result = try CLI.run(["preview", "Fixtures/documents/demo.md", "--image=symbols"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("\u{1B}[38;2;"), "true-colour cells")
        XCTAssertEqual(try CLI.run(["preview", "Fixtures/documents/demo.md", "--image=ascii"]).status, 2)
    }

    /// Runs the interactive view in a tmux pane, presses keys, quits, and checks the terminal
    /// settings are what they were before.
    func testInteractiveModeRestoresTheTerminal() throws {
        _ = try Tools.require("tmux")
        let folder = Paths.temporaryFolder()
        let session = "textreel-test-\(getpid())"
        let command = "stty -g > \(folder.path)/before; \(CLI.executable.path) preview \(demo.joined(separator: " ")) --interactive; "
            + "echo $? > \(folder.path)/status; stty -g > \(folder.path)/after; sleep 20"
        /// tmux through the shell: Foundation's Process does not notice the exit of a tmux client
        /// whose server daemonizes.
        @discardableResult
        func tmux(_ args: [String], output: String = "tmux-out") -> Int32 {
            let quoted = args.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
            return system("cd '\(Paths.root.path)' && TERM=xterm-256color tmux -f /dev/null \(quoted) > '\(folder.path)/\(output)' 2>&1")
        }
        XCTAssertEqual(tmux(["new-session", "-d", "-s", session, "-x", "80", "-y", "24", "sh", "-c", command]), 0)
        defer { tmux(["kill-session", "-t", session]) }
        /// The status line, once the screen shows one starting with `prefix` (synchronised on what
        /// the screen shows, not on sleeps; stdlib prefix matching, since the chafa symbols
        /// elsewhere on the screen confuse Foundation's substring search on Linux).
        func status(startingWith prefix: String) throws -> String? {
            for _ in 0..<150 {
                tmux(["capture-pane", "-p", "-t", session], output: "screen")
                let screen = try String(contentsOf: folder.appendingPathComponent("screen"), encoding: .utf8)
                if let line = screen.split(separator: "\n").last(where: { $0.hasPrefix(prefix) }) { return String(line) }
                Thread.sleep(forTimeInterval: 0.1)
            }
            return nil
        }
        XCTAssertNotNil(try status(startingWith: "frame 1/"), "the view is up")
        for key in ["j", "n", "o", "g", "5", "Enter"] { tmux(["send-keys", "-t", session, key]) }
        XCTAssertNotNil(try status(startingWith: "frame 2/"), "the keys moved it to frame 2")
        tmux(["send-keys", "-t", session, "q"])
        for _ in 0..<100 where !FileManager.default.fileExists(atPath: folder.appendingPathComponent("after").path) {
            Thread.sleep(forTimeInterval: 0.1)
        }
        XCTAssertEqual(try String(contentsOf: folder.appendingPathComponent("status"), encoding: .utf8), "0\n")
        XCTAssertEqual(try String(contentsOf: folder.appendingPathComponent("before"), encoding: .utf8),
                       try String(contentsOf: folder.appendingPathComponent("after"), encoding: .utf8))
    }

    /// The interactive view follows a watched file: a save is applied and its cost shown in the
    /// status line until the next key.
    func testInteractiveViewFollowsAWatchedFile() throws {
        _ = try Tools.require("tmux")
        let folder = Paths.temporaryFolder()
        let document = folder.appendingPathComponent("doc.md")
        try Data((0..<30).map { "Paragraph \($0) of the watched file." }.joined(separator: "\n\n").utf8).write(to: document)
        let session = "textreel-watch-\(getpid())"
        func tmux(_ args: [String], output: String = "tmux-out") {
            let quoted = args.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
            _ = system("TERM=xterm-256color tmux -f /dev/null \(quoted) > '\(folder.path)/\(output)' 2>&1")
        }
        tmux(["new-session", "-d", "-s", session, "-x", "100", "-y", "30", "sh", "-c",
              "\(CLI.executable.path) preview \(document.path) --interactive --watch; sleep 20"])
        defer { tmux(["kill-session", "-t", session]) }
        func status(startingWith prefix: String) throws -> String? {
            for _ in 0..<150 {
                tmux(["capture-pane", "-p", "-t", session], output: "screen")
                let screen = try String(contentsOf: folder.appendingPathComponent("screen"), encoding: .utf8)
                if let line = screen.split(separator: "\n").last(where: { $0.hasPrefix(prefix) }) { return String(line) }
                Thread.sleep(forTimeInterval: 0.1)
            }
            return nil
        }
        XCTAssertNotNil(try status(startingWith: "frame 1/"), "the view is up")
        try Data((0..<30).map { $0 == 3 ? "Paragraph three, edited." : "Paragraph \($0) of the watched file." }.joined(separator: "\n\n").utf8)
            .write(to: document)
        let saved = try XCTUnwrap(try status(startingWith: "doc.md: "), "the save is shown")
        XCTAssertTrue(saved.contains("1 paragraphs replaced by 1"), saved)
        tmux(["send-keys", "-t", session, "j"])
        XCTAssertNotNil(try status(startingWith: "frame 1/"), "a key brings the usual status back")
        tmux(["send-keys", "-t", session, "q"])
    }

    /// With ffmpeg an .mp4 comes out (under CI ffmpeg must be there); without it, a clear error
    /// says how to install it.
    func testVideoThroughFFmpeg() throws {
        let out = Paths.temporaryFolder()
        let video = out.appendingPathComponent("scroll.mp4")
        let result = try CLI.run(["render", "Fixtures/documents/attachments.md", "--script", "Fixtures/golden/video-policy/scroll.json5",
                                  "--out", out.appendingPathComponent("frames").path, "--quiet", "--video", video.path])
        let hasFFmpeg = Tools.find("ffmpeg") != nil
        if ProcessInfo.processInfo.environment["CI"] != nil { XCTAssertTrue(hasFFmpeg, "make setup installs ffmpeg") }
        if hasFFmpeg {
            XCTAssertEqual(result.status, 0, result.stderr)
            let data = try Data(contentsOf: video)
            XCTAssertEqual(String(decoding: data[4..<8], as: UTF8.self), "ftyp", "an MP4 container")
        } else {
            XCTAssertEqual(result.status, 2)
            XCTAssertTrue(result.stderr.contains("apt-get install ffmpeg"), result.stderr)
        }
        XCTAssertEqual(try CLI.run(["render", "Fixtures/documents/demo.md", "--out", out.path, "--video", "x.avi"]).status, 2)
    }

    func testContactSheetAndY4M() throws {
        let out = Paths.temporaryFolder()
        let result = try CLI.run(["render", "Fixtures/documents/demo.md", "--script", "Fixtures/golden/demo-overlay/overlay.json5",
                                  "--out", out.path, "--contact-sheet", "--format", "y4m"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdoutData.starts(with: Data("YUV4MPEG2 W640 H480 F30000:1000 Ip A1:1 C444\nFRAME\n".utf8)))
        XCTAssertEqual(result.stdoutData.count, "YUV4MPEG2 W640 H480 F30000:1000 Ip A1:1 C444\n".utf8.count + "FRAME\n".utf8.count + 640 * 480 * 3)
        let sheet = try RenderedFrame(contentsOfPNG: out.appendingPathComponent("contact-sheet.png"))
        XCTAssertGreaterThan(sheet.width, 200)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.appendingPathComponent("frame-00001.png").path), "y4m writes no PNGs")
    }
}

final class PreviewSafetyTests: XCTestCase {
    /// Control characters, escape sequences and bidi overrides of a document never reach the
    /// terminal; wide and emoji characters keep the columns aligned.
    func testPreviewPrintsNoControlsAndAlignsColumns() throws {
        let folder = Paths.temporaryFolder()
        let file = folder.appendingPathComponent("ctrl.md")
        try Data("# Title \u{1B}]0;PWNED\u{07} here\n\nBidi \u{202E} reversed \u{202C} bell \u{07} C1 \u{9B}31m red\n\n日本語の段落 ❤️ 🇯🇵 wide\n".utf8).write(to: file)
        let result = try CLI.run(["preview", file.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let forbidden: [UInt32] = Array(0x00...0x08) + [0x0B, 0x0C] + Array(0x0E...0x1F) + [0x7F] + Array(0x80...0x9F) + [0x202E, 0x202C, 0x2066, 0x2067, 0x2068, 0x2069]
        for scalar in result.stdout.unicodeScalars {
            XCTAssertFalse(forbidden.contains(scalar.value), "U+\(String(scalar.value, radix: 16)) reached the terminal")
        }
        XCTAssertTrue(result.stdout.contains("␛]0;PWNED␇"), result.stdout)
        // Every table row ends at the same column (the minimap), whatever its characters.
        let rows = result.stdout.split(separator: "\n").filter { $0.hasSuffix("█") || $0.hasSuffix("▒") || $0.hasSuffix("│") }
        let widths = Set(rows.map { $0.reduce(0) { $0 + PreviewTable.cells($1) } })
        XCTAssertEqual(widths.count, 1, "rows of different widths: \(widths)")
    }
}

final class ReviewTests: XCTestCase {
    /// The terminal review in a tmux pane: it shows the failing frame, `a` accepts it (the golden
    /// on disk becomes the actual image), `q` quits, and the suite then passes.
    func testReviewAcceptsAFrameInTmux() throws {
        _ = try Tools.require("tmux")
        let root = try Paths.failingEmojiSuite()
        XCTAssertEqual(try CLI.run(["test", root.appendingPathComponent("golden").path]).status, 1, "the changed document fails")
        let golden = root.appendingPathComponent("golden/emoji/expected/frame-00001.png")
        let before = try Data(contentsOf: golden)

        let session = "textreel-review-\(getpid())"
        @discardableResult
        func tmux(_ args: [String], output: String = "tmux-out") -> Int32 {
            let quoted = args.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
            return system("cd '\(root.path)' && TERM=xterm-256color tmux -f /dev/null \(quoted) > '\(root.path)/\(output)' 2>&1")
        }
        func screen() throws -> String {
            tmux(["capture-pane", "-p", "-t", session], output: "screen")
            return try String(contentsOf: root.appendingPathComponent("screen"), encoding: .utf8)
        }
        let command = "\(CLI.executable.path) review golden; echo $? > status; sleep 30"
        XCTAssertEqual(tmux(["new-session", "-d", "-s", session, "-x", "160", "-y", "40", "sh", "-c", command]), 0)
        defer { tmux(["kill-session", "-t", session]) }
        // Synchronised on what the screen shows, not on a fixed sleep.
        func waitFor(_ needle: String) throws -> Bool {
            for _ in 0..<100 {
                if try screen().split(separator: "\n").contains(where: { $0.hasPrefix(needle) || $0.contains(needle) }) { return true }
                Thread.sleep(forTimeInterval: 0.1)
            }
            return false
        }
        let shown = try waitFor("a accept frame")
        let first = try screen()
        XCTAssertTrue(shown, first)
        XCTAssertTrue(first.contains("frame 1: "), first)
        tmux(["send-keys", "-t", session, "a"])
        let accepted = try waitFor("accepted frame 1")
        let after = try screen()
        XCTAssertTrue(accepted, after)
        tmux(["send-keys", "-t", session, "q"])
        for _ in 0..<50 where !FileManager.default.fileExists(atPath: root.appendingPathComponent("status").path) { Thread.sleep(forTimeInterval: 0.1) }
        XCTAssertEqual(try String(contentsOf: root.appendingPathComponent("status"), encoding: .utf8), "0\n")
        XCTAssertNotEqual(try Data(contentsOf: golden), before, "the golden on disk changed")
        XCTAssertEqual(try CLI.run(["test", root.appendingPathComponent("golden").path]).status, 0, "and the suite passes")
    }
}
