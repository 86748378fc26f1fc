import Foundation
import XCTest
import TextReelMarkdown

/// Lines from a pipe, each waited for at most `timeout` seconds.
private final class Lines {
    let fd: Int32
    var buffer: [UInt8] = []
    init(_ handle: FileHandle) { fd = handle.fileDescriptor }
    func next(timeout: Double = 20) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let end = buffer.firstIndex(of: 0x0A) {
                defer { buffer.removeSubrange(...end) }
                return String(decoding: buffer[..<end], as: UTF8.self)
            }
            guard Date() < deadline else { return nil }
            var watched = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&watched, 1, 100) >= 0 else { return nil }
            guard watched.revents != 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { return nil }
            buffer += chunk[..<n]
        }
    }
}

/// `preview --watch` follows a file saved as editors save it, and every version it shows is what
/// a fresh preview of the same file shows.
final class LivePreviewTests: XCTestCase {
    /// The fragments a fresh `preview --json` shows of `file`.
    private func fresh(_ file: URL) throws -> [[String: AnyHashable]] {
        let result = try CLI.run(["preview", file.path, "--json", "--width", "500", "--height", "400"])
        XCTAssertEqual(result.status, 0, result.stderr)
        return try fragments(result.stdoutData)
    }

    private func fragments(_ data: Data) throws -> [[String: AnyHashable]] {
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        // Where each fragment is and what it holds; how much of the rest of the document is
        // measured differs between a view that was edited and a fresh one, and so do the ids of the
        // paragraphs an edit made.
        return try XCTUnwrap(object["fragments"] as? [[String: Any]]).map { fragment in
            fragment.filter { ["index", "kind", "top", "bottom", "lines", "firstWords", "state", "visible"].contains($0.key) }.mapValues { "\($0)" as AnyHashable }
        }
    }

    func testEveryWatchedVersionIsWhatAFreshPreviewShows() throws {
        let folder = Paths.temporaryFolder()
        let file = folder.appendingPathComponent("doc.md")
        let paragraphs = (0..<40).map { "Paragraph \($0) has a few words that wrap at a narrow width." }
        func save(_ text: String) throws { try Data(text.utf8).write(to: file) }
        try save(paragraphs.joined(separator: "\n\n"))
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = ["preview", file.path, "--watch", "--json", "--width", "500", "--height", "400"]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        defer { if process.isRunning { process.terminate(); process.waitUntilExit() } }
        let versions = Lines(out.fileHandleForReading), statuses = Lines(err.fileHandleForReading)
        XCTAssertEqual(try fragments(Data(try XCTUnwrap(versions.next()).utf8)), try fresh(file))
        XCTAssertTrue(statuses.next()?.hasPrefix("watching doc.md") == true)

        // Each way an editor saves: in place, a temporary file renamed over it, deleted and
        // created again; a document that grows and one that shrinks.
        var text = paragraphs
        text[1] = "# A heading where paragraph 1 was"
        try save(text.joined(separator: "\n\n"))
        var status = try XCTUnwrap(statuses.next())
        XCTAssertTrue(status.contains("1 paragraphs replaced by 1"), status)
        XCTAssertTrue(status.contains("ms from the save to the frame"), status)
        XCTAssertEqual(try fragments(Data(try XCTUnwrap(versions.next()).utf8)), try fresh(file))

        text.insert(contentsOf: ["New paragraph A.", "- a list item", "- and another"], at: 3)
        let temporary = folder.appendingPathComponent(".doc.md.swp")
        try Data(text.joined(separator: "\n\n").utf8).write(to: temporary)
        XCTAssertEqual(rename(temporary.path, file.path), 0)
        status = try XCTUnwrap(statuses.next())
        XCTAssertTrue(status.contains("paragraphs replaced by"), status)
        XCTAssertEqual(try fragments(Data(try XCTUnwrap(versions.next()).utf8)), try fresh(file))

        try FileManager.default.removeItem(at: file)
        text.removeSubrange(0..<2)
        try save(text.joined(separator: "\n\n"))
        status = try XCTUnwrap(statuses.next())
        // The deletion itself may be seen first (the file missing): the version after it follows.
        if !status.contains("replaced") { status = try XCTUnwrap(statuses.next()) }
        XCTAssertTrue(status.contains("replaced"), status)
        XCTAssertEqual(try fragments(Data(try XCTUnwrap(versions.next()).utf8)), try fresh(file))

        // A version that does not read keeps the last good one, with the error said.
        var invalid = Data(text.joined(separator: "\n\n").utf8)
        invalid.append(contentsOf: [0xC3, 0x28])
        try invalid.write(to: file)
        status = try XCTUnwrap(statuses.next())
        XCTAssertTrue(status.contains("invalid UTF-8") && status.contains("last version that read"), status)
        // So does an empty file (a view keeps one paragraph at least), and the preview goes on.
        try save("")
        status = try XCTUnwrap(statuses.next())
        XCTAssertTrue(status.contains("no paragraph left") && status.contains("last version that read"), status)

        // A save that changes nothing draws nothing.
        text[0] = "Fixed after the broken save."
        try save(text.joined(separator: "\n\n"))
        status = try XCTUnwrap(statuses.next())
        XCTAssertTrue(status.contains("replaced"), status)
        XCTAssertEqual(try fragments(Data(try XCTUnwrap(versions.next()).utf8)), try fresh(file))
        try save(text.joined(separator: "\n\n"))
        status = try XCTUnwrap(statuses.next())
        XCTAssertTrue(status.contains("without a change; nothing drawn"), status)

        // A burst of saves ends on the last one.
        for k in 0..<5 {
            text[5] = "Burst \(k) changed this paragraph."
            try save(text.joined(separator: "\n\n"))
        }
        var last = ""
        while let line = statuses.next(timeout: 3) {
            if line.contains("replaced") { last = try XCTUnwrap(versions.next()) }
        }
        XCTAssertEqual(try fragments(Data(last.utf8)), try fresh(file))
    }

    /// Random versions of a file (blocks inserted, removed and changed, fences and lists opened,
    /// the file grown and shrunk), saved in place or renamed over it, from a fixed seed: each
    /// version the watched preview shows is what a fresh preview of it shows.
    func testRandomVersionsAreWhatFreshPreviewsShow() throws {
        let folder = Paths.temporaryFolder()
        let file = folder.appendingPathComponent("doc.md")
        var blocks = (0..<30).map { "Paragraph \($0) has words enough to wrap at this width, more or less." }
        try Data(blocks.joined(separator: "\n\n").utf8).write(to: file)
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = ["preview", file.path, "--watch", "--json", "--width", "500", "--height", "400"]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        defer { if process.isRunning { process.terminate(); process.waitUntilExit() } }
        let versions = Lines(out.fileHandleForReading), statuses = Lines(err.fileHandleForReading)
        XCTAssertEqual(try fragments(Data(try XCTUnwrap(versions.next()).utf8)), try fresh(file))
        _ = statuses.next()
        var seed: UInt64 = 7
        func below(_ n: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(max(n, 1)))
        }
        let kinds = ["A new paragraph, number %d.", "# Heading %d", "- item %d\n- and another", "```\ncode %d", "```", "> quote %d", "| a | b |\n|---|---|\n| %d | x |", ""]
        for version in 0..<12 {
            for _ in 0...below(3) {
                let at = below(blocks.count + 1), text = String(format: kinds[below(kinds.count)], version)
                switch below(3) {
                case 0: blocks.insert(text, at: at)
                case 1 where blocks.count > 1: blocks.remove(at: min(at, blocks.count - 1))
                default: blocks[min(at, blocks.count - 1)] = text
                }
            }
            let text = Data(blocks.joined(separator: "\n\n").utf8)
            if version % 2 == 0 { try text.write(to: file) } else {
                let temporary = folder.appendingPathComponent(".doc.md.tmp")
                try text.write(to: temporary)
                XCTAssertEqual(rename(temporary.path, file.path), 0)
            }
            let status = try XCTUnwrap(statuses.next(), "version \(version)")
            guard status.contains("replaced") else {
                XCTAssertTrue(status.contains("without a change") || status.contains("last version that read"), status)
                continue
            }
            XCTAssertEqual(try fragments(Data(try XCTUnwrap(versions.next()).utf8)), try fresh(file), "version \(version): \(blocks)")
        }
    }
}

/// `render --watch` renders again after each save into the same folder, writing only the frames
/// whose bytes changed; every frame is what a fresh render of that version draws.
final class LiveRenderTests: XCTestCase {
    func testAWatchedRenderRewritesOnlyTheFramesThatChanged() throws {
        let folder = Paths.temporaryFolder()
        let file = folder.appendingPathComponent("doc.md"), script = folder.appendingPathComponent("scroll.json5")
        let out = folder.appendingPathComponent("out"), fresh = folder.appendingPathComponent("fresh")
        var paragraphs = (0..<60).map { "Paragraph \($0) has a few words that wrap at a narrow width." }
        func save(_ text: String) throws { try Data(text.utf8).write(to: file) }
        try save(paragraphs.joined(separator: "\n\n"))
        try Data("{fps: 5, viewport: {width: 400, height: 300}, steps: [{wait: 0.4}, {scroll: {toParagraph: 58, duration: 0.4}}, {wait: 0.4}]}\n".utf8).write(to: script)
        /// Each frame file's identity and time, by name.
        func files() -> [String: [UInt64]] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []
            return Dictionary(uniqueKeysWithValues: names.filter { $0.hasPrefix("frame-") }.compactMap { name in
                FileStatus(path: out.path + "/" + name).map { (name, $0.identity + [UInt64(bitPattern: Int64($0.modified * 1e9))]) }
            })
        }
        /// Whether every frame in the folder is byte for byte a fresh render's.
        func matchesAFreshRender() throws {
            let result = try CLI.run(["render", file.path, "--script", script.path, "--out", fresh.path, "--quiet"])
            XCTAssertEqual(result.status, 0, result.stderr)
            let names = try FileManager.default.contentsOfDirectory(atPath: fresh.path).filter { $0.hasPrefix("frame-") }.sorted()
            XCTAssertEqual(Set(files().keys), Set(names))
            for name in names {
                XCTAssertEqual(try Data(contentsOf: out.appendingPathComponent(name)), try Data(contentsOf: fresh.appendingPathComponent(name)), name)
            }
        }

        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = ["render", file.path, "--script", script.path, "--out", out.path, "--watch"]
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        defer { if process.isRunning { process.terminate(); process.waitUntilExit() } }
        let statuses = Lines(stdout.fileHandleForReading), errors = Lines(stderr.fileHandleForReading)
        XCTAssertTrue(statuses.next()?.hasPrefix("wrote ") == true)
        XCTAssertEqual(statuses.next(), "watching doc.md, scroll.json5 (Ctrl-C stops)")
        try matchesAFreshRender()

        // An edit at the end: the frames at the top are left as they were, the others rewritten.
        var before = files()
        paragraphs[59] = "The last paragraph, edited."
        try save(paragraphs.joined(separator: "\n\n"))
        var status = try XCTUnwrap(statuses.next())
        XCTAssertTrue(status.hasPrefix(file.path + " saved: ") && status.contains("frames written") && status.contains("ms from the save"), status)
        var after = files()
        let kept = before.keys.filter { before[$0] == after[$0] }, written = before.keys.filter { before[$0] != after[$0] }
        XCTAssertTrue(kept.contains("frame-00001.png"), "\(kept)")
        XCTAssertTrue(written.contains(after.keys.max()!), "\(written)")
        XCTAssertTrue(status.contains("\(written.count) of \(before.count) frames written, \(kept.count) unchanged"), status)
        try matchesAFreshRender()

        // A version that does not read leaves the frames, with the error.
        before = files()
        var invalid = Data(paragraphs.joined(separator: "\n\n").utf8)
        invalid.append(contentsOf: [0xC3, 0x28])
        try invalid.write(to: file)
        let error = try XCTUnwrap(errors.next())
        XCTAssertTrue(error.contains("invalid UTF-8") && error.contains("keeps the last frames"), error)
        XCTAssertEqual(files(), before)

        // A shorter script: the frames past its end go; a save that changes nothing writes none.
        try save(paragraphs.joined(separator: "\n\n"))
        _ = try XCTUnwrap(statuses.next())
        try Data("{fps: 5, viewport: {width: 400, height: 300}, steps: [{wait: 0.2}]}\n".utf8).write(to: script)
        status = try XCTUnwrap(statuses.next())
        XCTAssertTrue(status.hasPrefix(script.path + " saved: ") && status.contains("past the new last frame removed"), status)
        try matchesAFreshRender()
        before = files()
        try save(paragraphs.joined(separator: "\n\n"))
        XCTAssertTrue(try XCTUnwrap(statuses.next()).contains("no frame changed; none written"))
        after = files()
        XCTAssertEqual(after, before)
    }
}

/// `test --watch` runs again only the cases whose inputs changed, prints their verdicts, and
/// keeps the report current with the whole suite's latest results.
final class LiveTestTests: XCTestCase {
    func testAWatchedSuiteRunsOnlyTheCasesWhoseInputsChanged() throws {
        let suite = Paths.temporaryFolder().appendingPathComponent("suite")
        let media = Paths.fixtures.appendingPathComponent("documents/media/photo.png")
        for name in ["a", "b", "c"] {
            let folder = suite.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("{document: \"doc.md\", viewport: {width: 300, height: 200}}\n".utf8).write(to: folder.appendingPathComponent("case.json5"))
            try Data("# \(name)\n\nText of \(name).\n".utf8).write(to: folder.appendingPathComponent("doc.md"))
        }
        try FileManager.default.copyItem(at: media, to: suite.appendingPathComponent("c/photo.png"))
        try Data("# c\n\n![p](photo.png)\n".utf8).write(to: suite.appendingPathComponent("c/doc.md"))
        let report = suite.deletingLastPathComponent().appendingPathComponent("results.json")
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = ["test", suite.path, "--watch", "--json", report.path, "--workers", "1", "--update", "missing"]
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate(); process.waitUntilExit() } }
        let lines = Lines(stdout.fileHandleForReading)
        /// The lines up to the suite's totals after a change (or up to the watching line).
        func block(until end: String) -> [String] {
            var out: [String] = []
            while let line = lines.next() {
                out.append(line)
                if line.hasPrefix(end) { break }
            }
            return out
        }
        func statuses() throws -> [String: String] {
            let object = try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any]
            let cases = object?["cases"] as? [[String: Any]] ?? []
            return Dictionary(uniqueKeysWithValues: cases.compactMap { c in (c["name"] as? String).map { ($0, c["status"] as? String ?? "") } })
        }
        XCTAssertTrue(block(until: "watching").last == "watching the inputs of 3 cases (Ctrl-C stops)")

        try Data("# a\n\nText of a, edited.\n".utf8).write(to: suite.appendingPathComponent("a/doc.md"))
        var lines1 = block(until: "the suite:")
        XCTAssertEqual(lines1.first, suite.path + "/a/doc.md saved: running 1 case again")
        XCTAssertTrue(lines1.contains { $0.hasPrefix("✗ a — failed") }, "\(lines1)")
        XCTAssertFalse(lines1.contains { $0.hasPrefix("✓ b") || $0.hasPrefix("✓ c") }, "\(lines1)")
        XCTAssertEqual(lines1.last, "the suite: 2 passed, 1 failed")
        XCTAssertEqual(try statuses(), ["a": "failed", "b": "recorded", "c": "recorded"], "the report holds the whole suite, as last run")

        // An image the document shows is one of its case's inputs.
        let photo = suite.appendingPathComponent("c/photo.png")
        try Data(contentsOf: photo).write(to: photo)
        lines1 = block(until: "the suite:")
        XCTAssertEqual(lines1.first, suite.path + "/c/photo.png saved: running 1 case again")
        XCTAssertTrue(lines1.contains { $0.hasPrefix("✓ c — passed") }, "\(lines1)")

        // Putting a's text back makes it pass again; b's case file is b's.
        try Data("# a\n\nText of a.\n".utf8).write(to: suite.appendingPathComponent("a/doc.md"))
        lines1 = block(until: "the suite:")
        XCTAssertTrue(lines1.contains { $0.hasPrefix("✓ a — passed") }, "\(lines1)")
        XCTAssertEqual(lines1.last, "the suite: 3 passed, 0 failed")
        try Data("{document: \"doc.md\", viewport: {width: 320, height: 200}}\n".utf8).write(to: suite.appendingPathComponent("b/case.json5"))
        lines1 = block(until: "the suite:")
        XCTAssertEqual(lines1.first, suite.path + "/b/case.json5 saved: running 1 case again")
        XCTAssertEqual(try statuses()["b"], "failed")

        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
    }
}

/// Two versions of a file compare by the index's sections they share: a save of a long file
/// parses the sections around its change, and the ends found are those of a comparison of
/// every paragraph, whatever the change does to the blocks after it (a fence opened, a list
/// continued).
final class VersionTests: XCTestCase {
    private func ends(_ new: TextDocument, _ old: TextDocument) -> (Int, Int) {
        let a = Array(new.paragraphs), b = Array(old.paragraphs)
        var prefix = 0
        while prefix < a.count, prefix < b.count, a[prefix].hasSameContent(as: b[prefix]) { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix, suffix < b.count - prefix, a[a.count - 1 - suffix].hasSameContent(as: b[b.count - 1 - suffix]) { suffix += 1 }
        return (prefix, suffix)
    }

    func testVersionsShareTheirUnchangedSections() throws {
        let paragraphs = (0..<3000).map { "Paragraph \($0) with a few words, and `code`." }
        func read(_ blocks: [String]) throws -> TextDocument { try TextDocument(markdown: blocks.joined(separator: "\n\n") + "\n") }
        let old = try read(paragraphs)
        var edited = paragraphs
        edited[1500] = "Paragraph 1500, edited."
        let new = try read(edited)
        let shared = new.sharedEnds(with: old)
        XCTAssertEqual(shared.prefix, 1500)
        XCTAssertEqual(shared.suffix, 1499)
        XCTAssertGreaterThan(new.reading.sections, 4)
        XCTAssertLessThanOrEqual(new.reading.lazyParses, 2, "only the sections around the change are parsed")
        // Changes that change the blocks after them: the same ends as comparing every paragraph.
        for change in ["```", "- a list item", "> a quote", "<div>", "# Heading", "", "| a | b |\n|---|---|"] {
            var changed = paragraphs
            changed[1500] = change
            let version = try read(changed)
            let found = version.sharedEnds(with: old)
            XCTAssertTrue(found == ends(version, old), "\(change): \(found) against \(ends(version, old))")
        }
    }
}
