import Foundation
import TextReelMarkdown
import TextReelExplorer

/// `textreel explore`: random scripts from a seed, each run in a child process and checked
/// (invariants, budgets, determinism, `--frames` equal to the full run); a failing script is
/// shrunk to the smallest that fails the same way and written as a golden case.
enum ExploreCommand {
    static let help = """
    Usage: textreel explore <document.md> [options]

    Generates random scroll scripts for the document (scrolls of every kind, flings, far jumps,
    edits at the first and last paragraph and deleting everything, resizes, attachment steps,
    waits) and runs each in a child process, checking on every frame the invariants (no gap,
    overlap or disorder between fragments, none above the top or past the end, the visible rect
    covered, a non-empty viewport range), the budgets given, that a second run draws the same
    pixels, and that drawing only some frames gives the same pixels as the full run. A crash or a
    hang of the engine is a failure too.

    On the first failure it shrinks the script (fewer steps, smaller numbers) to the smallest that
    still fails the same way, writes it as a golden case folder under --out, prints it, and exits
    1. Exit 0 when every run passed; 2 on bad input.

    Options:
      --seed N          first seed (default 1); run k uses seed N + k
      --runs N          how many scripts (default 100)
      --steps N         steps per script (default 8)
      --time S          stop starting new runs after S seconds (default: no limit)
      --budget LIST     limits, e.g. maxJump=0,maxCorrection=300,maxRecreated=0,flicker=false,
                        maxCreated=N, maxDiscarded=N, maxEstimateError=0.5 (default: invariants only)
      --out DIR         where shrunk cases go (default Output/explore)
      --timeout S       a run taking longer is a hang (default 60)
      --shrink-time S   stop shrinking after S seconds, keeping the smallest script so far
                        (default 120)
      --quiet           print only failures
      -h, --help        show this help

    Examples:
      textreel explore Fixtures/documents/demo.md --runs 200
      textreel explore Fixtures/documents/demo.md --budget maxCorrection=0 --seed 7
    """

    static func run(_ raw: [String]) throws -> Int32 {
        let args = try Arguments(raw, command: .explore)
        if args.flags.contains("help") { print(help); return 0 }
        guard args.positional.count == 1 else {
            throw Arguments.UsageError(message: args.positional.isEmpty ? "explore needs a document" : "explore takes one document, got \(args.positional.count)")
        }
        let documentURL = URL(fileURLWithPath: args.positional[0])
        let budget = try Budget(parsing: args.values["budget"] ?? "")
        if let candidate = args.values["candidate"] {
            return try runCandidate(documentURL, script: URL(fileURLWithPath: candidate), budget: budget)
        }
        func whole(_ name: String, _ fallback: Int, minimum: Int = 1) throws -> Int {
            guard let text = args.values[name] else { return fallback }
            guard let value = Int(text), value >= minimum else {
                throw Arguments.UsageError(message: "--\(name) expects a whole number of at least \(minimum), got '\(text)'")
            }
            return value
        }
        let seed = try whole("seed", 1, minimum: 0)
        let runs = try whole("runs", 100)
        let steps = try whole("steps", 8)
        let seconds = try args.values["time"].map { _ in try args.double("time", default: 0) }
        let timeout = try args.double("timeout", default: 60)
        let shrinkSeconds = try args.double("shrink-time", default: 120)
        for (name, value) in [("timeout", timeout), ("shrink-time", shrinkSeconds)] + (seconds.map { [("time", $0)] } ?? []) where value <= 0 {
            throw Arguments.UsageError(message: "--\(name) expects a number of seconds above 0, got '\(args.values[name] ?? "")'")
        }
        let quiet = args.flags.contains("quiet")
        let out = URL(fileURLWithPath: args.values["out"] ?? "Output/explore")
        let document = try TextDocument(contentsOf: documentURL)
        let explorer = Explorer(document: documentURL, budget: budget, timeout: timeout,
                                work: FileManager.default.temporaryDirectory.appendingPathComponent("textreel-explore-\(getpid())"))
        defer { explorer.cleanUp() }
        Interruption.install()

        let start = Date()
        var passed = 0
        for k in 0..<runs {
            if let seconds, Date().timeIntervalSince(start) >= seconds { break }
            try Interruption.check("after run \(k)")
            var generator = ScriptGenerator(document: document, seed: UInt64(seed + k))
            let script = generator.script(steps: steps)
            switch try explorer.check(script) {
            case .passed:
                passed += 1
            case .invalid(let reason):
                // The generator follows its own edits, so a script the engine refuses is its bug.
                Terminal.error("run \(k + 1) (seed \(seed + k)): the generator wrote a script that cannot run: \(reason)")
                print(script.json5, terminator: "")
                return 1
            case .failed(let failure):
                Terminal.error("run \(k + 1) (seed \(seed + k)) failed: \(describe(failure))")
                Terminal.error("shrinking \(script.steps.count) steps …")
                let (shrunk, last) = try explorer.shrink(script, failure: failure, seconds: shrinkSeconds)
                let folder = try explorer.writeCase(shrunk, failure: last, name: "seed-\(seed + k)", in: out)
                print("shrunk to \(shrunk.steps.count) step\(shrunk.steps.count == 1 ? "" : "s"), failing with \(describe(last)):")
                print(shrunk.json5, terminator: "")
                print("written as a golden case: \(folder.relativePath)/ (case.json5, script.json5, document.md)")
                return 1
            }
            if !quiet && Terminal.stderrIsTerminal {
                Terminal.write("\r\(k + 1)/\(runs) runs passed", to: STDERR_FILENO)
            }
        }
        if !quiet {
            if Terminal.stderrIsTerminal { Terminal.write("\r", to: STDERR_FILENO) }
            let elapsed = String(format: "%.1f", Date().timeIntervalSince(start))
            print("\(passed) run\(passed == 1 ? "" : "s") passed in \(elapsed) s (seeds \(seed)…\(seed + passed - 1)); no failure")
        }
        return 0
    }

    static func describe(_ failure: ScriptCheck.Failure) -> String {
        "\(failure.check)\(failure.frame.map { " at frame \($0)" } ?? ""): \(failure.message)"
    }

    /// The child's side: checks one script and prints the failure (or `{}`) as JSON.
    static func runCandidate(_ documentURL: URL, script url: URL, budget: Budget) throws -> Int32 {
        let document = try TextDocument(contentsOf: documentURL)
        let script = try ScrollScript(contentsOf: url)
        let count = try ScriptRunner(view: TextView(document: document, viewportSize: CGSize(width: 100, height: 100)), script: script).frameCount
        // The middle third of the frames, drawn alone, must equal the same frames of the full run.
        let range = count >= 3 ? (count / 3 + 1)...(2 * count / 3 + 1) : nil
        var failure: ScriptCheck.Failure?
        do {
            failure = try ScriptCheck.run(document: document, script: script, budget: budget, frames: range)
        } catch let error as TextReelError {
            failure = ScriptCheck.Failure(check: "invalid", frame: nil, message: error.message)
        } catch {
            failure = ScriptCheck.Failure(check: "error", frame: nil, message: "\(error)")
        }
        let data = try failure.map { try JSONEncoder().encode($0) } ?? Data("{}".utf8)
        print(String(decoding: data, as: UTF8.self))
        return 0
    }
}
