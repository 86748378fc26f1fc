import XCTest
@testable import TextReel
@testable import TextReelMarkdown

final class RobustnessTests: XCTestCase {
    private func error(_ markdown: String, limits: ReadingLimits = .standard, base: URL? = nil) -> TextReelError? {
        do { _ = try TextDocument(markdown: markdown, baseURL: base, limits: limits); return nil } catch { return error as? TextReelError }
    }

    func testDeepNestingIsRefusedWithItsPlace() {
        let quotes = String(repeating: "> ", count: 5000) + "deep"
        let e = error(quotes)
        XCTAssertTrue(e?.message.contains("nested more than 64 deep") == true, "\(String(describing: e))")
        XCTAssertEqual(e?.line, 1)
        let lists = (0..<3000).map { String(repeating: "  ", count: $0) + "- item" }.joined(separator: "\n")
        XCTAssertNotNil(error(lists))
        let emphasis = String(repeating: "*a ", count: 20000) + String(repeating: "b*", count: 20000)
        XCTAssertTrue(error(emphasis)?.message.contains("nested more than") == true, "styles nest too, and are limited")
        var raised = ReadingLimits()
        raised.nesting = 200
        XCTAssertNil(error(String(repeating: "> ", count: 100) + "fine", limits: raised))
    }

    /// HTML nested past the limit is refused as Markdown is, with its line: `<div>`s 300 deep,
    /// quotes 256 deep and tables 90 deep showed nothing with exit status 0. Raised, the limit
    /// shows them all (the parser before dropped what lay past 256 levels); past the deepest the
    /// walk reads, a raised limit cannot help.
    func testDeepHTMLIsRefusedWithItsPlace() {
        func nested(_ open: String, _ close: String, _ n: Int) -> String {
            "Before.\n\n" + String(repeating: open, count: n) + "deep" + String(repeating: close, count: n) + "\n\nAfter.\n"
        }
        for html in [nested("<div>", "</div>", 300), nested("<blockquote>", "</blockquote>", 256),
                     nested("<table><tr><td>", "</td></tr></table>", 90), nested("<ul><li>", "</li></ul>", 128)] {
            let e = error(html)
            XCTAssertEqual(e?.message, "HTML elements nested more than 64 deep; raise the limit with --max-nesting", html.prefix(40) + "…")
            XCTAssertEqual(e?.line, 3)
        }
        var raised = ReadingLimits()
        raised.nesting = 2000
        XCTAssertEqual(error(nested("<div>", "</div>", HTMLFragment.deepestRead + 1), limits: raised)?.message,
                       "HTML elements nested more than \(HTMLFragment.deepestRead) deep, past what TextReel reads")
        let document = try? TextDocument(markdown: nested("<div>", "</div>", 300), limits: raised)
        XCTAssertTrue(document?.paragraphs.contains { $0.text == "deep" } ?? false, "within both limits it shows")
        XCTAssertNil(error(nested("<div>", "</div>", 64)))
    }

    func testHugeParagraphIsRefusedNotHung() {
        let huge = String(repeating: "word ", count: 300_000)
        let e = error("# Title\n\n" + huge)
        XCTAssertEqual(e?.line, 3)
        XCTAssertTrue(e?.message.contains("over the 255 KB paragraph limit") == true, "\(String(describing: e))")
    }

    /// Images outside the document's folder are not read: each is a placeholder saying why,
    /// with a warning, and the rest of the document renders (a README's `/docs/shot.png`).
    func testImagePathsStayInsideTheDocumentsFolder() throws {
        let folder = Paths.temporaryFolder()
        let docs = folder.appendingPathComponent("docs")
        try FileManager.default.createDirectory(at: docs, withIntermediateDirectories: true)
        let photo = Paths.fixtures.appendingPathComponent("documents/media/photo.png")
        try FileManager.default.copyItem(at: photo, to: folder.appendingPathComponent("outside.png"))
        try FileManager.default.copyItem(at: photo, to: docs.appendingPathComponent("inside.png"))
        try FileManager.default.createSymbolicLink(at: docs.appendingPathComponent("link.png"), withDestinationURL: folder.appendingPathComponent("outside.png"))

        func read(_ markdown: String, limits: ReadingLimits = .standard) throws -> (problems: [String?], warnings: [String]) {
            let document = try TextDocument(markdown: markdown + "\n\nText after.", baseURL: docs, limits: limits)
            XCTAssertEqual(document.paragraphs.last?.text, "Text after.")
            return (document.paragraphs.flatMap(\.attachments).map(\.problem), document.warnings)
        }
        XCTAssertEqual(try read("![](inside.png)").problems, [nil])
        let refused = try read("![](../outside.png)\n\n<img src=\"sub/../../outside.png\">\n\n![](\(photo.path))\n\n![](link.png)")
        XCTAssertEqual(refused.problems.count, 4)
        for (problem, why) in zip(refused.problems, ["outside the document's folder", "outside the document's folder", "absolute path", "symbolic link"]) {
            XCTAssertTrue(problem?.hasPrefix(why) == true && problem?.hasSuffix("not read (--allow-outside reads it)") == true, "\(String(describing: problem))")
        }
        XCTAssertEqual(refused.warnings.filter { $0.contains("not read (--allow-outside reads it)") }.count, 4, "\(refused.warnings)")
        var allow = ReadingLimits()
        allow.allowOutside = true
        XCTAssertEqual(try read("![](../outside.png) ![](link.png) ![](\(photo.path))", limits: allow).problems, [nil, nil, nil])
        // A root given (`--root`, a repository's on GitHub): `/x.png` starts there and `../`
        // may reach it; reading still stays inside it.
        var rooted = ReadingLimits()
        rooted.root = folder
        let inRoot = try read("![](/outside.png) ![](../outside.png) ![](/docs/inside.png) ![](../../elsewhere.png)", limits: rooted).problems
        XCTAssertEqual(Array(inRoot.prefix(3)), [nil, nil, nil])
        XCTAssertTrue(inRoot[3]?.hasPrefix("outside the repository") == true, "\(String(describing: inRoot[3]))")
    }

    /// As GitHub resolves a README's images: `/shots/a.png` from the repository's root (the
    /// nearest folder holding `.git`), `../` within it, a query or fragment never part of the
    /// name; leaving the repository is still refused.
    func testImagePathsResolveFromTheRepositoryRoot() throws {
        let repository = Paths.temporaryFolder()
        let fm = FileManager.default
        try fm.createDirectory(at: repository.appendingPathComponent(".git"), withIntermediateDirectories: true)
        try fm.createDirectory(at: repository.appendingPathComponent("shots"), withIntermediateDirectories: true)
        try fm.createDirectory(at: repository.appendingPathComponent("docs/guide"), withIntermediateDirectories: true)
        try fm.copyItem(at: Paths.fixtures.appendingPathComponent("documents/media/photo.png"), to: repository.appendingPathComponent("shots/a.png"))
        let markdown = "![](/shots/a.png)\n\n![](../../shots/a.png)\n\n![](../../shots/a.png?raw=true)\n\n![](/shots/a.png#gh-dark-mode-only)\n\n![](../../../elsewhere.png)"
        let document = try TextDocument(markdown: markdown, baseURL: repository.appendingPathComponent("docs/guide"))
        let problems = document.paragraphs.flatMap(\.attachments).map(\.problem)
        XCTAssertEqual(Array(problems.prefix(4)), [nil, nil, nil, nil], "\(problems)")
        XCTAssertTrue(problems[4]?.hasPrefix("outside the repository") == true, "\(String(describing: problems[4]))")
    }

    /// Images follow the colour scheme as GitHub's do: a `<picture>`'s dark `<source>` shows in
    /// dark looks and its `<img>` in light ones; `#gh-dark-mode-only` and `#gh-light-mode-only`
    /// show an image only in its scheme; the other takes no room.
    func testImagesFollowTheLooksColourScheme() throws {
        let folder = Paths.temporaryFolder()
        let photo = Paths.fixtures.appendingPathComponent("documents/media/photo.png")
        for name in ["light.png", "dark.png"] { try FileManager.default.copyItem(at: photo, to: folder.appendingPathComponent(name)) }
        let markdown = """
        <p align="center">
          <picture>
            <source media="(prefers-color-scheme: dark)" srcset="dark.png">
            <img src="light.png" alt="logo">
          </picture>
        </p>

        ![a](light.png#gh-light-mode-only) ![b](dark.png#gh-dark-mode-only)
        """
        let document = try TextDocument(markdown: markdown, baseURL: folder)
        XCTAssertEqual(document.paragraphs.flatMap(\.attachments).map(\.problem), [nil, nil, nil, nil])
        for (theme, dark) in [(Theme.light, false), (Theme.dark, true)] {
            let view = TextView(document: document, viewportSize: CGSize(width: 600, height: 800), theme: theme)
            for index in 0..<2 {
                let frames = view.textLayoutManager.ensureLayout(forParagraphAt: index).attachmentFrames
                let shown = frames.filter { $0.frame.width > 0 }.map { $0.attachment.file?.lastPathComponent }
                XCTAssertEqual(shown, [dark ? "dark.png" : "light.png"], "paragraph \(index), dark \(dark)")
            }
            XCTAssertGreaterThan(try view.renderFrame().width, 0)
        }
    }

    func testImagesClaimingHugeDimensionsAreRefusedFromTheirHeader() throws {
        let folder = Paths.temporaryFolder()
        // A valid PNG signature and IHDR claiming 100000 × 100000, and nothing else.
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])
        let header: [UInt8] = [0x49, 0x48, 0x44, 0x52, 0x00, 0x01, 0x86, 0xA0, 0x00, 0x01, 0x86, 0xA0, 8, 2, 0, 0, 0]
        png.append(contentsOf: header.dropFirst(4))
        // Its CRC is right, so nothing but the claimed size is wrong with it.
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in header {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        crc ^= 0xFFFF_FFFF
        png.append(contentsOf: [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)])
        try png.write(to: folder.appendingPathComponent("bomb.png"))
        // Refused by the size its header claims, before any decoder allocates for it.
        let e = error("![](bomb.png)", base: folder)
        XCTAssertTrue(e?.message.contains("too large; expected at most 64 megapixels") == true, "\(String(describing: e))")
    }

    func testTwoRendersIntoOneFolderFailClearly() throws {
        let out = Paths.temporaryFolder()
        let lock = open(out.appendingPathComponent(".textreel.lock").path, O_CREAT | O_RDWR, 0o644)
        XCTAssertEqual(flock(lock, LOCK_EX | LOCK_NB), 0)
        defer { close(lock) }
        let result = try CLI.run(["render", "Fixtures/documents/demo.md", "--out", out.path])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("another textreel render is writing into this folder"), result.stderr)
    }

    /// Ctrl-C in the middle of a long render: a clear message, status 130, and no partial or
    /// temporary file left.
    func testInterruptedRenderLeavesNoPartialFiles() throws {
        let out = Paths.temporaryFolder()
        let script = out.appendingPathComponent("long.json5")
        try Data("{fps: 60, steps: [{scroll: {by: 40000, duration: 60}}]}".utf8).write(to: script)
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = ["render", "Fixtures/documents/attachments.md", "--script", script.path, "--out", out.appendingPathComponent("frames").path, "--quiet"]
        process.currentDirectoryURL = Paths.root
        let err = Pipe()
        process.standardError = err
        try process.run()
        // Interrupted once some frames exist (synchronised on the folder, not a fixed sleep: a
        // loaded machine starts slower).
        let framesFolder = out.appendingPathComponent("frames")
        for _ in 0..<300 {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: framesFolder.path)) ?? []
            if names.filter({ $0.hasPrefix("frame-") }).count >= 3 { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        kill(process.processIdentifier, SIGINT)
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 130, message)
        XCTAssertTrue(message.contains("interrupted by Ctrl-C"), message)
        // The folder describes exactly what was finished: whole frames, a line of events for
        // each, and a summary that says the render was interrupted.
        let folder = out.appendingPathComponent("frames")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        let frames = names.filter { $0.wholeMatch(of: /frame-\d{5}\.png/) != nil }
        XCTAssertFalse(frames.isEmpty)
        XCTAssertEqual(Set(names).subtracting(frames), ["events.jsonl", "summary.json"])
        for name in frames {
            XCTAssertNoThrow(try RenderedFrame(contentsOfPNG: folder.appendingPathComponent(name)), name)
        }
        try assertStoppedRender(in: folder, status: "interrupted", reason: "Ctrl-C")
    }

    /// A disk that fills up mid-render (simulated with a file-size limit: every write past it
    /// fails, as on a full disk): a clear error, status 2, no partial file.
    func testFullDiskIsAClearError() throws {
        let out = Paths.temporaryFolder()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "trap '' XFSZ; ulimit -f 40; exec \"$0\" render Fixtures/documents/demo.md --script Fixtures/scripts/demo.json5 --out \"$1\" --quiet",
                             CLI.executable.path, out.path]
        process.currentDirectoryURL = Paths.root
        let err = Pipe()
        process.standardError = err
        try process.run()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 2, message)
        XCTAssertTrue(message.contains("cannot write"), message)
        for name in try FileManager.default.contentsOfDirectory(atPath: out.path) {
            if name == "events.jsonl" { continue }
            if name == "summary.json" {
                // Written when the disk still had room: it must not claim a complete render.
                let text = try String(contentsOf: out.appendingPathComponent(name), encoding: .utf8)
                XCTAssertFalse(text.contains("\"complete\""), text)
                continue
            }
            XCTAssertTrue(name.wholeMatch(of: /frame-\d{5}\.png/) != nil, "left behind: \(name)")
            XCTAssertNoThrow(try RenderedFrame(contentsOfPNG: out.appendingPathComponent(name)), name)
        }
    }
}

/// Inputs the fuzzers found; each must now be a clear error, quickly.
final class FuzzRegressionInputTests: XCTestCase {
    private func regression(_ name: String) throws -> Data {
        try Data(contentsOf: Paths.fixtures.appendingPathComponent("fuzz/regressions/\(name)"))
    }

    /// A script whose steps are valid JSON5 but sent the line:column locator into a loop.
    func testScriptLocatorAlwaysMakesProgress() throws {
        let script = try ScrollScript(data: regression("script-locator-no-progress.json5"))
        XCTAssertEqual(script.stepPositions.count, script.steps.count)
    }

    /// `?kind=&&=&&…`: an empty query pair crashed the attachment URL parser.
    func testEmptyQueryPairIsHandled() throws {
        let url = String(decoding: try regression("url-empty-query-pair.txt"), as: UTF8.self)
        XCTAssertThrowsError(try TextDocument(markdown: "![](\(url))")) { error in
            XCTAssertTrue("\(error)".contains("unknown attachment scheme 'conttol:'"), "\(error)")
        }
        XCTAssertNoThrow(try TextDocument(markdown: "![](video:v?=&&=&size=10x10)"))
    }
}
