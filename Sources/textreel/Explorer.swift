import Foundation
import TextReelMarkdown
import TextReelExplorer

/// Runs generated scripts in child processes (so a crash or hang of the engine is caught like any
/// other failure), shrinks failing ones, and writes them as golden cases.
final class Explorer {
    /// `invalid` carries the engine's reason for refusing the script.
    enum Outcome { case passed, invalid(String), failed(ScriptCheck.Failure) }

    let document: URL
    let budget: Budget
    let timeout: Double
    let work: URL
    private var counter = 0

    init(document: URL, budget: Budget, timeout: Double, work: URL) {
        self.document = document
        self.budget = budget
        self.timeout = timeout
        self.work = work
        try? FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    }

    func cleanUp() { try? FileManager.default.removeItem(at: work) }

    /// Runs `script` in a child `textreel explore --candidate`.
    func check(_ script: ExploreScript) throws -> Outcome {
        counter += 1
        let file = work.appendingPathComponent("candidate-\(counter).json5")
        try Data(script.json5.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var arguments = ["explore", document.path, "--candidate", file.path]
        let settings = budget.settings.map { "\($0.name)=\($0.value)" }.joined(separator: ",")
        if !settings.isEmpty { arguments += ["--budget", settings] }
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let deadline = DispatchTime.now() + timeout
        let done = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in done.signal() }
        // Read both pipes while waiting, so a chatty child never blocks on a full pipe.
        nonisolated(unsafe) var output = Data(), errors = Data()
        let readers = DispatchGroup()
        DispatchQueue.global().async(group: readers) { output = stdout.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: readers) { errors = stderr.fileHandleForReading.readDataToEndOfFile() }
        if done.wait(timeout: deadline) == .timedOut {
            process.terminate()
            kill(process.processIdentifier, SIGKILL)
            readers.wait()
            return .failed(ScriptCheck.Failure(check: "hang", frame: nil, message: "the run took longer than \(Int(timeout)) s"))
        }
        readers.wait()
        if process.terminationReason == .uncaughtSignal || process.terminationStatus != 0 {
            let text = String(decoding: errors, as: UTF8.self)
            let fatal = text.split(separator: "\n").first { $0.contains("Fatal error") || $0.contains("error:") }
            let what = process.terminationReason == .uncaughtSignal ? "signal \(process.terminationStatus)" : "status \(process.terminationStatus)"
            let message = fatal.map { String($0.drop { $0 != ":" }.dropFirst().drop { $0 != ":" }.dropFirst()).trimmingCharacters(in: .whitespaces) }
            // Status 2 is bad input: a script the engine refuses with a clear error, not a failure.
            if process.terminationReason == .exit && process.terminationStatus == 2 { return .invalid(message ?? text.trimmingCharacters(in: .whitespacesAndNewlines)) }
            return .failed(ScriptCheck.Failure(check: "crash", frame: nil, message: "the engine stopped (\(what))\(message.map { ": \($0)" } ?? "")"))
        }
        guard let failure = try? JSONDecoder().decode(ScriptCheck.Failure.self, from: output) else { return .passed }
        return failure.check == "invalid" ? .invalid(failure.message) : .failed(failure)
    }

    /// The smallest script found that fails with `failure`'s signature: steps removed in halves,
    /// then quarters … then one by one, then numbers made smaller, until nothing more helps (or
    /// `attempts` runs were made).
    func shrink(_ script: ExploreScript, failure: ScriptCheck.Failure, attempts: Int = 400,
                seconds: Double = 120) throws -> (ExploreScript, ScriptCheck.Failure) {
        var best = script, last = failure, tries = 0
        let signature = failure.signature
        // Bounded in time too: each candidate of a hang takes the whole timeout.
        let deadline = Date().addingTimeInterval(seconds)
        func fails(_ candidate: ExploreScript) throws -> Bool {
            tries += 1
            if Date() > deadline { tries = attempts; return false }
            try Interruption.check("while shrinking")
            if case .failed(let f) = try check(candidate), f.signature == signature { last = f; return true }
            return false
        }
        var changed = true
        while changed && tries < attempts {
            changed = false
            var chunk = max(best.steps.count / 2, 1)
            while chunk >= 1 && tries < attempts {
                var start = 0, removedAny = false
                while start < best.steps.count && tries < attempts {
                    var candidate = best
                    candidate.steps.removeSubrange(start..<min(start + chunk, best.steps.count))
                    if try fails(candidate) { best = candidate; removedAny = true; changed = true } else { start += chunk }
                }
                if !removedAny { chunk /= 2 }
            }
            for i in best.steps.indices where tries < attempts {
                for simpler in simplifications(of: best.steps[i]) where tries < attempts {
                    var candidate = best
                    candidate.steps[i] = simpler
                    if try fails(candidate) { best = candidate; changed = true; break }
                }
            }
            for size in [(800.0, 600.0), (400.0, 300.0)] where (best.width, best.height) != size && tries < attempts {
                var candidate = best
                (candidate.width, candidate.height) = size
                if try fails(candidate) { best = candidate; changed = true }
            }
        }
        return (best, last)
    }

    /// Writes `script` as a golden case folder: case.json5 (with the budgets it broke),
    /// script.json5 and a copy of the document.
    func writeCase(_ script: ExploreScript, failure: ScriptCheck.Failure, name: String, in out: URL) throws -> URL {
        // Written aside and moved into place, so a stopped explorer never leaves half a case.
        let folder = out.appendingPathComponent(name), staging = out.appendingPathComponent(".\(name).partial")
        try? FileManager.default.removeItem(at: staging)
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        try Data(contentsOf: document).write(to: staging.appendingPathComponent("document.md"))
        try Data(script.json5.utf8).write(to: staging.appendingPathComponent("script.json5"))
        let expect = budget.settings.map { "\($0.name): \($0.value)" }.joined(separator: ", ")
        let text = """
        // Found by `textreel explore`: \(failure.check)\(failure.frame.map { " at frame \($0)" } ?? ""): \(failure.message)
        {
          document: "document.md",
          script: "script.json5",
          frames: "all",\(expect.isEmpty ? "" : "\n  expect: {\(expect)},")
        }

        """
        try Data(text.utf8).write(to: staging.appendingPathComponent("case.json5"))
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.moveItem(at: staging, to: folder)
        return folder
    }
}
