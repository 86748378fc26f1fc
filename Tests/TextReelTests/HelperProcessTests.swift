import Foundation
import XCTest
@testable import TextReel
@testable import TextReelMarkdown

/// Helper and worker processes never outlive the TextReel process that started them, and a
/// helper that is late or gone is said, never silent.
final class HelperProcessTests: XCTestCase {
    /// The ids of `parent`'s living children whose command line contains `needle`.
    private func children(of parent: pid_t, matching needle: String) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(pid_t.init).filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 2, fields[0] != "Z", pid_t(fields[1]) == parent,
                  let command = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline")) else { return false }
            return String(decoding: command.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self).contains(needle)
        }
    }

    /// Whether `pid` has ended (gone, or a zombie waiting for whoever adopted it).
    private func ended(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return true }
        return stat[stat.index(after: close)...].split(separator: " ").first == "Z"
    }

    private func waitFor(_ seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline { if condition() { return true }; usleep(20_000) }
        return condition()
    }

    private func start(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = arguments
        process.currentDirectoryURL = Paths.root
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    func testTheHelperEndsWithARenderHoweverItIsStopped() throws {
        let folder = Paths.temporaryFolder()
        let document = folder.appendingPathComponent("code.md")
        // A 20 × 20 matrix keeps the helper busy for seconds: it is not reading its stdin, so
        // only watching its parent ends it.
        try Data("$$\n\\begin{pmatrix}\(Self.matrix(20))\\end{pmatrix}\n$$\n".utf8).write(to: document)
        let script = folder.appendingPathComponent("long.json5")
        try Data("{fps: 60, steps: [{scroll: {by: 50, duration: 600}}]}".utf8).write(to: script)
        for signal in [SIGKILL, SIGTERM, SIGINT] {
            let render = try start(["render", document.path, "--script", script.path, "--out", folder.appendingPathComponent("out\(signal)").path, "--quiet"])
            var helpers: [pid_t] = []
            XCTAssertTrue(waitFor(20) { helpers = children(of: render.processIdentifier, matching: "python3"); return !helpers.isEmpty }, "no helper started")
            kill(render.processIdentifier, signal)
            render.waitUntilExit()
            for helper in helpers { XCTAssertTrue(waitFor(2) { ended(helper) }, "the helper \(helper) outlived a render stopped by signal \(signal)") }
        }
    }

    /// The cells of an n × n matrix, TeX's way.
    static func matrix(_ n: Int) -> String {
        (0..<n).map { i in (0..<n).map { j in "x^\((i + j) % 10)" }.joined(separator: " & ") }.joined(separator: " \\\\ ")
    }

    func testAFormulaPastTheSizeLimitsIsItsSourceWithAWarning() throws {
        let folder = Paths.temporaryFolder()
        let document = folder.appendingPathComponent("large.md")
        let text = String(repeating: "word ", count: 1_000)
        try Data("$$\\begin{pmatrix}\(Self.matrix(21))\\end{pmatrix}$$\n\n$$\\text{\(text)}$$\n\n$$\(String(repeating: "{", count: 40))x\(String(repeating: "}", count: 40))$$\n\nSmall $x^2$.\n".utf8).write(to: document)
        let result = try CLI.run(["render", document.path, "--out", folder.appendingPathComponent("out").path])
        XCTAssertEqual(result.status, 0, result.stderr)
        for reason in ["about 441 cells, more than 400", "5007 bytes, more than 4000", "nested 40 braces deep, more than 32"] {
            XCTAssertTrue(result.stderr.contains(reason), "'\(reason)' not in \(result.stderr)")
        }
        XCTAssertEqual(result.stderr.components(separatedBy: "warning: math").count - 1, 3, result.stderr)
    }

    func testTestWorkersEndWithAKilledTest() throws {
        let suite = Paths.temporaryFolder()
        for name in ["a", "b", "c"] {
            let folder = suite.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("{document: \"../doc.md\", script: \"../long.json5\", frames: \"all\"}".utf8).write(to: folder.appendingPathComponent("case.json5"))
        }
        try Data("# Long\n\nSome text.\n".utf8).write(to: suite.appendingPathComponent("doc.md"))
        try Data("{fps: 60, steps: [{scroll: {by: 10, duration: 300}}]}".utf8).write(to: suite.appendingPathComponent("long.json5"))
        // Three workers: one share in the test process itself, two worker processes.
        let test = try start(["test", suite.path, "--workers", "3", "--update", "all", "--quiet"])
        var workers: [pid_t] = []
        XCTAssertTrue(waitFor(20) { workers = children(of: test.processIdentifier, matching: "test-worker"); return workers.count == 2 }, "workers did not start")
        kill(test.processIdentifier, SIGKILL)
        test.waitUntilExit()
        for worker in workers { XCTAssertTrue(waitFor(2) { ended(worker) }, "the worker \(worker) outlived its killed test") }
    }

    func testALateHelperIsStoppedRestartedOnceAndSaid() throws {
        let folder = Paths.temporaryFolder()
        let document = folder.appendingPathComponent("math.md")
        // matplotlib's first import alone takes far longer than the limit set here.
        try Data("One $a^2$, two $b^3$, three $c_4$.\n".utf8).write(to: document)
        let out = folder.appendingPathComponent("out")
        let result = try CLI.run(["render", document.path, "--out", out.path], environment: ["TEXTREEL_HELPER_TIMEOUT": "0.001"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("did not answer within 0.001 s"), result.stderr)
        let summary = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("summary.json"))) as? [String: Any]
        let incidents = try XCTUnwrap(summary?["drawnWithoutHelper"] as? [String])
        XCTAssertEqual(incidents.count, 3, "\(incidents)")
        XCTAssertTrue(incidents[0].contains("math 'a^2'"), incidents[0])
        XCTAssertTrue(incidents[2].contains("failed earlier"), incidents[2])
        // Without a limit the same document typesets all three, and says nothing.
        let calm = try CLI.run(["render", document.path, "--out", folder.appendingPathComponent("calm").path])
        XCTAssertEqual(calm.status, 0, calm.stderr)
        XCTAssertFalse(calm.stderr.contains("helper"), calm.stderr)
    }

    func testTheFingerprintAndVersionNameTheHelpersLibraries() throws {
        let libraries = try XCTUnwrap(EnvironmentFingerprint.current(helperLibraries: HelperProcess.libraries).helperLibraries)
        XCTAssertTrue(libraries.hasPrefix("Pygments 2."), libraries)
        XCTAssertTrue(libraries.contains("matplotlib 3."), libraries)
        let version = try CLI.run(["--version"])
        XCTAssertTrue(version.stdout.contains("helper: \(libraries)"), version.stdout)
    }
}
