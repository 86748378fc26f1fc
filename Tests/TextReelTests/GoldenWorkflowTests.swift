import XCTest

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

    /// Cases run in worker processes print, report and exit as in one process; a case that
    /// ends its worker fails alone, with what the worker wrote, and the others still run.
    func testWorkerProcessesGiveTheResultsOfOneProcess() throws {
        let root = try suite()
        let golden = root.appendingPathComponent("golden").path
        func run(_ workers: Int, _ environment: [String: String] = [:]) throws -> (CLI.Result, NSObject) {
            let json = root.appendingPathComponent("w\(workers)-\(environment.count).json")
            let result = try CLI.run(["test", golden, "--workers", "\(workers)", "--json", json.path], environment: environment)
            return (result, try stripped(json))
        }
        func lines(_ r: CLI.Result) -> [String] {
            r.stdout.split(separator: "\n").map { $0.replacingOccurrences(of: #", [0-9.]+ s$"#, with: "", options: .regularExpression) }
        }
        let (one, oneJSON) = try run(1), (three, threeJSON) = try run(3)
        XCTAssertEqual(one.status, 0, one.stdout + one.stderr)
        XCTAssertEqual(three.status, 0, three.stdout + three.stderr)
        XCTAssertEqual(lines(three), lines(one))
        XCTAssertEqual(threeJSON, oneJSON)

        let (crashed, _) = try run(2, ["TEXTREEL_TEST_WORKER_ABORT": "video-policy"])
        XCTAssertEqual(crashed.status, 2, "a case that could not run")
        XCTAssertTrue(crashed.stdout.contains("✗ video-policy — failed"), crashed.stdout)
        XCTAssertTrue(crashed.stdout.contains("✓ eviction — passed") && crashed.stdout.contains("✓ emoji — passed"), crashed.stdout)
        XCTAssertTrue(crashed.stdout.contains("killed by signal 6"), crashed.stdout)
        XCTAssertTrue(crashed.stderr.contains("could not run (the others ran): video-policy"), crashed.stderr)
        let report = try String(contentsOf: root.appendingPathComponent("w2-1.json"), encoding: .utf8)
        XCTAssertTrue(report.contains("aborting on case video-policy"), "the worker's stderr is in the report")

        // A crash of a case this process runs itself (its share beside the workers): it starts
        // again, every case in workers, and the verdicts are those of one process, each said once.
        let (local, localJSON) = try run(2, ["TEXTREEL_TEST_LOCAL_ABORT": "*"])
        XCTAssertEqual(local.status, 0, local.stdout + local.stderr)
        XCTAssertEqual(lines(local), lines(one))
        XCTAssertEqual(localJSON, oneJSON)
        XCTAssertTrue(local.stderr.contains("crashed the test process; every case runs again in worker processes"), local.stderr)
    }

    /// Worker processes start before the cases are read: a suite one of whose cases cannot be
    /// read still ends with that error (its workers told to stop, not left waiting), and a case
    /// named twice runs once.
    func testWorkersStartedBeforeTheCasesAreReadEndWithTheRun() throws {
        let root = try suite()
        let golden = root.appendingPathComponent("golden")
        let twice = try CLI.run(["test", golden.appendingPathComponent("emoji").path, golden.appendingPathComponent("emoji").path, "--workers", "2"])
        XCTAssertEqual(twice.status, 0, twice.stdout + twice.stderr)
        XCTAssertEqual(twice.stdout.components(separatedBy: "✓ emoji").count, 2, twice.stdout)
        try Data("{document: ".utf8).write(to: golden.appendingPathComponent("emoji/case.json5"))
        let broken = try CLI.run(["test", golden.path, "--workers", "2"])
        XCTAssertEqual(broken.status, 2, broken.stdout + broken.stderr)
        XCTAssertEqual(broken.stderr.components(separatedBy: "emoji/case.json5").count, 2, "said once, not again by each worker: \(broken.stderr)")
        let missing = try CLI.run(["test", root.appendingPathComponent("nowhere").path, golden.path, "--workers", "2"])
        XCTAssertEqual(missing.status, 2, missing.stdout + missing.stderr)
        XCTAssertEqual(missing.stderr.components(separatedBy: "no such suite folder").count, 2, missing.stderr)
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
        XCTAssertEqual(half.status, 1, "a shard that never uploaded fails the merged run: \(half.stdout)")
    }

    /// A served report whose results.json was edited to point a failing case at another
    /// suite's goldens and a file outside any suite: POST /accept is refused with a 403 and a
    /// line on stderr, and nothing is written; the report's own accept still works.
    func testAServedTamperedReportWritesNothingOutsideItsSuite() throws {
        let root = try Paths.failingEmojiSuite()
        let other = try suite()
        let report = root.appendingPathComponent("report")
        XCTAssertEqual(try CLI.run(["test", root.appendingPathComponent("golden").path, "--report", report.path]).status, 1)
        let resultsFile = report.appendingPathComponent("results.json")
        let original = try Data(contentsOf: resultsFile)
        let victim = other.appendingPathComponent("golden/eviction/expected")
        let victimIndex = try Data(contentsOf: victim.appendingPathComponent("index.json"))
        var json = try JSONSerialization.jsonObject(with: original) as! [String: Any]
        var results = json["results"] as! [[String: Any]]
        var diffs = results[0]["diffs"] as! [[String: Any]]
        diffs[0]["actual"] = "/etc/hostname"
        results[0]["diffs"] = diffs
        results[0]["expected"] = victim.path
        json["results"] = results
        // A report cannot widen where accepting writes: roots it names are not read for that.
        json["roots"] = [other.path, "/"]
        try JSONSerialization.data(withJSONObject: json).write(to: resultsFile)
        let folder = try XCTUnwrap(results[0]["folder"] as? String)

        let err = Pipe()
        let (server, line) = try serveReport(report, suites: [root.appendingPathComponent("golden")], stderr: err)
        defer { if server.isRunning { server.terminate() } }
        let port = try XCTUnwrap(UInt16(line.components(separatedBy: "127.0.0.1:").last?.prefix { $0.isNumber } ?? ""), line)
        let token = try XCTUnwrap(line.components(separatedBy: "token=").last?.trimmingCharacters(in: .whitespacesAndNewlines))
        let named = "case=emoji&folder=\(folder.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
        // Without its folder a case is not found: names alone are not identities.
        XCTAssertTrue(try rawHTTP(port: port, "POST /accept?token=\(token)&case=emoji HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n").hasPrefix("HTTP/1.1 404"))
        for query in [named + "&frame=1", named] {
            let answer = try rawHTTP(port: port, "POST /accept?token=\(token)&\(query) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            XCTAssertTrue(answer.hasPrefix("HTTP/1.1 403"), "\(query): \(answer.prefix(300))")
            XCTAssertTrue(answer.contains("refused"), String(answer.suffix(300)))
        }
        XCTAssertEqual(try Data(contentsOf: victim.appendingPathComponent("index.json")), victimIndex, "another suite's index is untouched")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: victim.path).filter { $0.contains("accepted") }, [])
        server.interrupt()
        server.waitUntilExit()
        let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(said.split(separator: "\n").filter { $0.contains("refused") }.count, 2, said)
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
        XCTAssertTrue(missing.stdout.contains("wrote frame 1 (frame-00001.png) in "), "says which frame: \(missing.stdout)")
        // `all` on frames with the same bytes writes nothing, so there is nothing to fail on.
        let update = try CLI.run(["test", golden.path, "--update", "all", "--fail-on-update"])
        XCTAssertEqual(update.status, 0, update.stdout)
        XCTAssertFalse(update.stdout.contains("wrote goldens: "), update.stdout)
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
        let chromium = try Tools.find("chromium-browser") ?? Tools.require("chromium")
        let node = try Tools.require("node")
        let root = try Paths.failingEmojiSuite()
        let report = root.appendingPathComponent("report")
        XCTAssertEqual(try CLI.run(["test", root.appendingPathComponent("golden").path, "--report", report.path]).status, 1)
        let golden = root.appendingPathComponent("golden/emoji/expected/frame-00001.png")
        let before = try Data(contentsOf: golden)

        let (server, line) = try serveReport(report, suites: [root.appendingPathComponent("golden")])
        defer { if server.isRunning { server.terminate() } }
        let url = try XCTUnwrap(line.split(separator: " ").last.map { String($0).trimmingCharacters(in: .whitespacesAndNewlines) })
        XCTAssertTrue(url.hasPrefix("http://127.0.0.1:") && url.contains("token="), line)

        // Only Host 127.0.0.1:<port> is answered (a rebound name is refused), and the page
        // links its images, served from the report's images/ folder.
        let port = try XCTUnwrap(UInt16(url.dropFirst("http://127.0.0.1:".count).prefix { $0.isNumber }))
        XCTAssertTrue(try rawHTTP(port: port, "GET / HTTP/1.1\r\nHost: rebound.example:\(port)\r\nConnection: close\r\n\r\n").hasPrefix("HTTP/1.1 421"))
        let page = try rawHTTP(port: port, "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n")
        XCTAssertTrue(page.hasPrefix("HTTP/1.1 200"), String(page.prefix(200)))
        XCTAssertFalse(page.contains("data:image/png;base64"), "images are files, not inlined")
        let image = try XCTUnwrap(page.range(of: #"images/[0-9]+-[0-9]+-actual\.png"#, options: .regularExpression).map { String(page[$0]) })
        XCTAssertTrue(try rawHTTP(port: port, "GET /\(image) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n")
            .hasPrefix("HTTP/1.1 200"))
        XCTAssertTrue(try rawHTTP(port: port, "GET /images/..%2Fresults.json HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n")
            .hasPrefix("HTTP/1.1 404"), "nothing outside images/")

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

/// Sends `request` as it is to 127.0.0.1:`port` and returns the whole answer (a browser's fetch
/// cannot set Host, which the rebinding check reads).
/// `textreel report --serve` on `report`, running, and the first line it printed (the URL).
func serveReport(_ report: URL, suites: [URL], stderr: Pipe? = nil) throws -> (Process, String) {
    let server = Process()
    server.executableURL = CLI.executable
    server.arguments = ["report", "--serve", report.path] + suites.map(\.path)
    let out = Pipe()
    server.standardOutput = out
    if let stderr { server.standardError = stderr }
    try server.run()
    var line = ""
    while !line.hasSuffix("\n") {
        let byte = out.fileHandleForReading.readData(ofLength: 1)
        guard !byte.isEmpty else { break }
        line += String(decoding: byte, as: UTF8.self)
    }
    return (server, line)
}

func rawHTTP(port: UInt16, _ request: String) throws -> String {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw TextReelTestError.missingTool("socket") }
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
    guard connected == 0 else { throw TextReelTestError.missingTool("connection") }
    _ = request.withCString { send(socket, $0, strlen($0), 0) }
    var answer = Data()
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = recv(socket, &buffer, buffer.count, 0)
        if count <= 0 { break }
        answer.append(contentsOf: buffer[0..<count])
    }
    return String(decoding: answer, as: UTF8.self)
}

/// A case kept by snapshot names them where it fails: in the CLI's lines and in results.json.
final class SnapshotNameTests: XCTestCase {
    func testAFailingSnapshotIsNamed() throws {
        let root = Paths.temporaryFolder()
        let folder = root.appendingPathComponent("suite/named")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("# Title\n\nSome text.\n".utf8).write(to: root.appendingPathComponent("doc.md"))
        try Data("{steps: [{snapshot: \"top\"}, {scroll: {by: 10}}, {snapshot: \"scrolled\"}]}".utf8).write(to: folder.appendingPathComponent("script.json5"))
        try Data("{document: \"../../doc.md\", script: \"script.json5\", frames: \"snapshots\", viewport: {width: 300, height: 120}}".utf8)
            .write(to: folder.appendingPathComponent("case.json5"))
        XCTAssertEqual(try CLI.run(["test", root.appendingPathComponent("suite").path, "--update", "missing"]).status, 0, "recorded (explicitly: under CI nothing records by default)")
        try Data("# Title\n\nOther text, longer.\n".utf8).write(to: root.appendingPathComponent("doc.md"))
        let json = root.appendingPathComponent("results.json")
        let failed = try CLI.run(["test", root.appendingPathComponent("suite").path, "--update", "none", "--json", json.path])
        XCTAssertEqual(failed.status, 1)
        XCTAssertTrue(failed.stdout.contains("(snapshot 'top')") || failed.stderr.contains("(snapshot 'top')"), failed.stdout + failed.stderr)
        XCTAssertTrue(try String(contentsOf: json, encoding: .utf8).contains("\"snapshot\""))
    }
}
