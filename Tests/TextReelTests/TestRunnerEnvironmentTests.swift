import XCTest
@testable import textreel

/// The shard, JUnit and outputs the CI systems' environments give `textreel test`, and GitHub's
/// summary and annotations, through the CLI as a CI job runs it.
final class TestRunnerEnvironmentTests: XCTestCase {
    func testEachCISystemsShardVariablesAreRead() throws {
        let cases: [([String: String], TestRunnerEnvironment.Shard?)] = [
            (["TEST_SHARD_INDEX": "0", "TEST_TOTAL_SHARDS": "3"], .init(index: 1, count: 3, source: "Bazel's TEST_SHARD_INDEX/TEST_TOTAL_SHARDS")),
            (["CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "2"], .init(index: 2, count: 2, source: "GitLab's CI_NODE_INDEX/CI_NODE_TOTAL")),
            (["CIRCLE_NODE_INDEX": "3", "CIRCLE_NODE_TOTAL": "4"], .init(index: 4, count: 4, source: "CircleCI's CIRCLE_NODE_INDEX/CIRCLE_NODE_TOTAL")),
            (["BUILDKITE_PARALLEL_JOB": "0", "BUILDKITE_PARALLEL_JOB_COUNT": "5"],
             .init(index: 1, count: 5, source: "Buildkite's BUILDKITE_PARALLEL_JOB/BUILDKITE_PARALLEL_JOB_COUNT")),
            (["JOB_COMPLETION_INDEX": "1", "JOB_COMPLETIONS": "2"], .init(index: 2, count: 2, source: "a Kubernetes Indexed Job's JOB_COMPLETION_INDEX/JOB_COMPLETIONS")),
            ([:], nil),
        ]
        for (variables, shard) in cases {
            XCTAssertEqual(try TestRunnerEnvironment(variables).shard(), shard, "\(variables)")
        }
        for bad in [["CI_NODE_INDEX": "0", "CI_NODE_TOTAL": "2"], ["CIRCLE_NODE_INDEX": "1"], ["TEST_SHARD_INDEX": "x", "TEST_TOTAL_SHARDS": "2"]] {
            XCTAssertThrowsError(try TestRunnerEnvironment(bad).shard(), "\(bad)")
        }
    }

    func testABazelAndGitHubRunWritesWhereTheyAsk() throws {
        let root = try Paths.failingEmojiSuite()
        let outputs = root.appendingPathComponent("outputs"), summary = root.appendingPathComponent("summary.md")
        try Data("earlier step\n".utf8).write(to: summary)
        let process = Process()
        process.executableURL = CLI.executable
        process.arguments = ["test", root.appendingPathComponent("golden").path]
        process.environment = ProcessInfo.processInfo.environment.merging([
            "TEST_SHARD_INDEX": "0", "TEST_TOTAL_SHARDS": "1", "TEST_SHARD_STATUS_FILE": root.appendingPathComponent("status").path,
            "XML_OUTPUT_FILE": root.appendingPathComponent("junit.xml").path, "TEST_UNDECLARED_OUTPUTS_DIR": outputs.path,
            "GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": summary.path,
        ]) { _, new in new }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 1, stdout + stderr)
        XCTAssertTrue(stderr.contains("shard 1/1 from Bazel's TEST_SHARD_INDEX/TEST_TOTAL_SHARDS"), stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: root.appendingPathComponent("status").path), "sharding acknowledged")
        XCTAssertTrue(try String(contentsOf: root.appendingPathComponent("junit.xml"), encoding: .utf8).contains("failures=\"1\""))
        XCTAssertTrue(FileManager.default.fileExists(atPath: outputs.appendingPathComponent("emoji/actual-frame-00001.png").path))
        XCTAssertTrue(stdout.contains("::error file=") && stdout.contains("emoji/case.json5,title=golden case emoji failed::"), stdout)
        let table = try String(contentsOf: summary, encoding: .utf8)
        XCTAssertTrue(table.hasPrefix("earlier step\n"), "appended, not replaced")
        XCTAssertTrue(table.contains("| emoji | failed | 1 |"), table)
    }
}
