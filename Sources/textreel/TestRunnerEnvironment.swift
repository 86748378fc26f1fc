import Foundation
import TextReelMarkdown
import TextReelGolden

/// What the CI systems and build tools people run suites under say through the environment:
/// which shard this is (GitLab, CircleCI, Buildkite, a Kubernetes Indexed Job, Bazel), where
/// Bazel wants JUnit, outputs and scratch, and GitHub Actions' step summary and annotations.
struct TestRunnerEnvironment {
    let variables: [String: String]

    init(_ variables: [String: String] = ProcessInfo.processInfo.environment) { self.variables = variables }

    /// A shard: 1-based index, count, and the variables it came from (for the message).
    struct Shard: Equatable {
        var index: Int, count: Int
        var source: String
    }

    /// The conventions, in the order they are tried: (index variable, count variable, whether
    /// the index counts from 0, the system's name).
    static let conventions: [(index: String, count: String, zeroBased: Bool, system: String)] = [
        ("TEST_SHARD_INDEX", "TEST_TOTAL_SHARDS", true, "Bazel"),
        ("CI_NODE_INDEX", "CI_NODE_TOTAL", false, "GitLab"),
        ("CIRCLE_NODE_INDEX", "CIRCLE_NODE_TOTAL", true, "CircleCI"),
        ("BUILDKITE_PARALLEL_JOB", "BUILDKITE_PARALLEL_JOB_COUNT", true, "Buildkite"),
        // A Kubernetes Indexed Job sets the index; its count is the job's completions, which the
        // job passes as JOB_COMPLETIONS (Kubernetes sets no variable for it).
        ("JOB_COMPLETION_INDEX", "JOB_COMPLETIONS", true, "a Kubernetes Indexed Job"),
    ]

    /// The shard the environment gives, or nil; a half-given or impossible one is an error.
    func shard() throws -> Shard? {
        for convention in Self.conventions {
            let index = variables[convention.index], count = variables[convention.count]
            if index == nil && count == nil { continue }
            let source = "\(convention.system)'s \(convention.index)/\(convention.count)"
            guard let indexText = index, let countText = count, let i = Int(indexText), let n = Int(countText), n >= 1 else {
                throw TextReelError("\(source) is \(index ?? "unset")/\(count ?? "unset"); expected an index and a count of shards (or give --shard I/N)", exitStatus: 2)
            }
            let oneBased = convention.zeroBased ? i + 1 : i
            guard (1...n).contains(oneBased) else {
                throw TextReelError("\(source) is \(i)/\(n): the index is outside the shards", exitStatus: 2)
            }
            return Shard(index: oneBased, count: n, source: source)
        }
        return nil
    }

    /// Bazel's test protocol: tell it sharding is understood (it checks this file exists).
    func acknowledgeSharding() {
        if let file = variables["TEST_SHARD_STATUS_FILE"] { _ = FileManager.default.createFile(atPath: file, contents: Data()) }
    }

    /// Where Bazel wants JUnit XML, when `--junit` is not given.
    var junitFile: String? { variables["XML_OUTPUT_FILE"] }

    /// Bazel's folder for files a test leaves behind (the actual and diff images).
    var outputsFolder: String? { variables["TEST_UNDECLARED_OUTPUTS_DIR"] }

    /// Copies the actual and diff images of failing cases into Bazel's outputs folder, as
    /// `<case>/actual-frame-00001.png`, so they come out of a remote sandbox.
    func collectOutputs(_ results: [CaseResult]) throws {
        guard let outputs = outputsFolder else { return }
        for result in results where result.isFailure {
            let folder = URL(fileURLWithPath: outputs).appendingPathComponent(result.name.replacingOccurrences(of: "/", with: "_"))
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for diff in result.diffs {
                for (label, path) in [("actual", diff.actual), ("diff", diff.diff)] {
                    guard let path else { continue }
                    let target = folder.appendingPathComponent("\(label)-\(String(format: "frame-%05d.png", diff.frame))")
                    try? FileManager.default.removeItem(at: target)
                    try FileManager.default.copyItem(atPath: path, toPath: target.path)
                }
            }
        }
    }

    /// Under GitHub Actions: a Markdown table of the failing cases in the step summary, and an
    /// `::error` annotation per failing case on its case.json5.
    func reportToGitHub(_ results: [CaseResult]) throws {
        guard variables["GITHUB_ACTIONS"] == "true" else { return }
        let failing = results.filter(\.isFailure)
        for result in failing {
            let file = URL(fileURLWithPath: result.folder).appendingPathComponent("case.json5").path
            let reason = Reports.reasons(result).first ?? result.status.rawValue
            print("::error file=\(Self.escapeProperty(file)),title=\(Self.escapeProperty("golden case \(result.name) \(result.status.rawValue)"))::\(Self.escapeData(reason))")
        }
        guard let summary = variables["GITHUB_STEP_SUMMARY"] else { return }
        var markdown = "### TextReel: \(results.count - failing.count) passed, \(failing.count) failed\n\n"
        if !failing.isEmpty {
            markdown += "| case | status | first diverging frame | reason |\n|---|---|---|---|\n"
            for result in failing {
                let reason = (Reports.reasons(result).first ?? "").replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
                markdown += "| \(result.name) | \(result.status.rawValue) | \(result.firstDivergingFrame.map(String.init) ?? "–") | \(reason) |\n"
            }
        }
        guard let handle = FileHandle(forWritingAtPath: summary) else {
            throw TextReelError(file: summary, "GITHUB_STEP_SUMMARY names a file that cannot be opened for writing")
        }
        defer { try? handle.close() }
        handle.seekToEndOfFile()
        handle.write(Data((markdown + "\n").utf8))
    }

    /// GitHub's workflow-command escapes: data escapes %, CR, LF; properties also : and ,.
    static func escapeData(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
    }

    static func escapeProperty(_ text: String) -> String {
        escapeData(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
