import Foundation
import TextReelMarkdown
import TextReelGolden

/// `textreel test`: golden-image suites.
enum TestCommand {
    static let help = """
    Usage: textreel test <suite folder>… [options]

    Renders each golden case (a folder with case.json5: document, script, viewport, frames,
    tolerance) and compares it with its expected/ goldens: structure first (line breaks, fragment
    positions, attachment events), then pixels. A failing case writes actual/ and diff/ images
    beside expected/, and says which paragraph, line or attachment each differing region shows.
    A mismatch in a different environment (libraries, fonts, font options) is reported as drift.

    Options:
      --update MODE     missing (default), changed, all or none (the default when CI is set):
                        which goldens to write, atomically
      --shard I/N       run the I-th of N deterministic shares of the cases; without it the
                        shard comes from the CI's environment: Bazel's TEST_SHARD_INDEX/
                        TEST_TOTAL_SHARDS, GitLab's CI_NODE_INDEX/CI_NODE_TOTAL, CircleCI's
                        CIRCLE_NODE_INDEX/CIRCLE_NODE_TOTAL, Buildkite's BUILDKITE_PARALLEL_JOB/
                        BUILDKITE_PARALLEL_JOB_COUNT, a Kubernetes Indexed Job's
                        JOB_COMPLETION_INDEX (with JOB_COMPLETIONS), and it says which
      --workers N       cases rendered at once (default: the number of cores), each more than
                        one in a worker process of its own, so a case that crashes fails alone;
                        output, reports and exit status are the same for every N
      --report DIR      write a self-contained HTML report to DIR/index.html
      --junit FILE      write JUnit XML (image paths as attachments)
      --json FILE       write a JSON summary
      --theme, --text-size, --direction
                        run the cases without a variant matrix in that look, with goldens of
                        their own in expected/<look>/ (see `textreel render --help`)
      --prune           remove goldens no case produces any more (frames past a script's end,
                        expected/ folders without a case, variants no longer in a matrix);
                        without it they are listed
      --fail-on-update  with --update: write the new goldens, list them, and still exit 1 (for CI
                        jobs that collect them as artifacts)
      --blob FILE       also write everything a report needs (for merge-reports), e.g. per shard
      --quiet           print only failures
      --watch           after the run, follow every case's inputs (case.json5, document, its
                        images, script, theme file): each save runs again only the cases whose
                        inputs changed, printing their verdicts and keeping the reports current;
                        Ctrl-C stops
      -h, --help        show this help

    Under Bazel (`bazel test`), JUnit goes to XML_OUTPUT_FILE, the actual and diff images of
    failing cases to TEST_UNDECLARED_OUTPUTS_DIR, and TEST_SHARD_STATUS_FILE is touched. Under
    GitHub Actions (GITHUB_ACTIONS=true), a table of failing cases goes to GITHUB_STEP_SUMMARY
    and each failing case gets an ::error annotation on its case.json5.

    Exit status: 0 all passed, 1 any failed, 2 bad input.

    Example:
      textreel test Fixtures/golden --report Output/report
    """

    static func run(_ raw: [String]) throws -> Int32 {
        let args = try Arguments(raw, command: .test)
        if args.flags.contains("help") { print(help); return 0 }
        guard !args.positional.isEmpty else { throw Arguments.UsageError(message: "test needs at least one suite folder") }
        var options = GoldenSuite.Options()
        let runner = TestRunnerEnvironment()
        if let mode = args.values["update"] {
            do { options.update = try GoldenSuite.UpdateMode(parsing: mode, from: "--update") } catch let error as TextReelError {
                throw Arguments.UsageError(message: error.message)
            }
        }
        if args.flags.contains("fail-on-update") && options.update == .never {
            throw Arguments.UsageError(message: "--fail-on-update has nothing to catch when no golden is written (update mode none, the default when CI is set); add --update missing, changed or all")
        }
        if let shard = args.values["shard"] {
            let parts = shard.split(separator: "/").compactMap { Int($0) }
            guard parts.count == 2, parts[1] >= 1, (1...parts[1]).contains(parts[0]) else {
                throw Arguments.UsageError(message: "--shard expects I/N with 1 ≤ I ≤ N, got '\(shard)'")
            }
            options.shard = (parts[0], parts[1])
        } else if let shard = try runner.shard() {
            options.shard = (shard.index, shard.count)
            Terminal.error("shard \(shard.index)/\(shard.count) from \(shard.source)")
        }
        runner.acknowledgeSharding()
        if let text = args.values["workers"] {
            guard let workers = Int(text), workers >= 1, workers <= 256 else {
                throw Arguments.UsageError(message: "--workers expects a whole number from 1 to 256, got '\(text)'")
            }
            options.workers = workers
        }
        let quiet = args.flags.contains("quiet")
        options.prune = args.flags.contains("prune")
        var look = try Appearance.parse(theme: args.values["theme"], textSize: args.values["text-size"], direction: args.values["direction"])
        // A theme file on the command line is relative to where the command runs, not to each case.
        if let theme = look.theme, Theme.builtIn[theme] == nil {
            look.theme = URL(fileURLWithPath: theme).standardizedFileURL.path
            _ = try look.resolve()
        }
        let suites = args.positional.map { URL(fileURLWithPath: $0) }
        let scope = GoldenWriteScope(suites: suites.map(\.path))
        // Worker processes (see CaseWorkers) start before the cases are read, so that their
        // start-up (a process, its fonts) overlaps the reading: as many as the suites have case
        // folders, which is no more than their cases. A shard's share is known only once they are read.
        // One share of the cases runs in this process (LocalShare), the rest in workers; after
        // a crash of this process's share, all of them run in workers.
        let rerun = LocalShare.rerun
        let local = rerun == nil ? 1 : 0
        let early = options.shard == nil ? min(options.workers, GoldenSuite.caseFolderCount(in: suites)) - local : 0
        let hello = CaseWorkers.Hello(version: CaseWorkers.protocolVersion, suites: suites.map(\.path), theme: look.theme,
                                      textSize: look.textSize?.rawValue, direction: look.direction?.rawValue,
                                      update: options.update.rawValue, prune: options.prune)
        var pool = early + local > 1 && early > 0 ? try CaseWorkers.Pool(hello: hello, count: early) : nil
        defer { pool?.shutDown() }
        let discovered = Result { try GoldenSuite.cases(in: suites) }
        if case .failure = discovered { pool?.shutDown(quietly: true); pool = nil }
        // Goldens of Swift tests are compared by `swift test`; here their last run is read.
        if case .failure = discovered, case let swift = SwiftGoldens.results(in: suites), !swift.isEmpty {
            for result in swift { show(result, quiet: quiet) }
            try writeReports(swift, scope: scope, args)
            let failed = swift.filter(\.isFailure).count
            print("\(swift.count - failed) passed, \(failed) failed: goldens of Swift tests, as their last `swift test` run left them "
                  + "(run it to compare them again; textreel review accepts)")
            return failed == 0 ? 0 : 1
        }
        let cases = try discovered.get().map { $0.restyled(look) }
        for warning in cases.flatMap(\.warnings) { Terminal.error(warning) }
        let selected = options.shard.map { GoldenSuite.shard(cases, index: $0.index, count: $0.count).count } ?? cases.count
        let progress = Progress(total: selected, enabled: true, unit: "cases")
        defer { progress.finish() }
        Interruption.install()
        // More than one worker for more than one case: worker processes, each a thread's (see
        // CaseWorkers); the pool starts more if variants made more cases than folders.
        if min(options.workers, selected) <= 1 {
            pool?.shutDown(quietly: true)
            pool = nil
        } else if pool == nil {
            pool = try CaseWorkers.Pool(hello: hello, count: min(options.workers, selected) - local)
        }
        var caseRunner: GoldenSuite.CaseRunner?
        if let pool {
            if local == 1 { LocalShare.install() }
            let caseOptions = options
            caseRunner = { index, golden in
                local == 1 && LocalShare.runsHere() ? LocalShare.run(index, golden, options: caseOptions) : pool.run(index, golden)
            }
        }
        if let rerun {
            Terminal.error("textreel: case \(rerun.crashed < cases.count ? cases[rerun.crashed].name : "\(rerun.crashed)") crashed the test process; "
                           + "every case runs again in worker processes (the \(rerun.shown) verdicts shown are not shown again)")
        }
        var shownBefore = rerun?.shown ?? 0
        var watch = args.flags.contains("watch") ? try TestWatch(args: args, suites: suites, look: look, options: options, scope: scope) : nil
        let results = try GoldenSuite.run(cases, options: options, runner: caseRunner) { result in
            progress.clear()
            defer { progress.step() }
            if let text = pool?.takeStderr(of: result), !text.isEmpty { Terminal.write(text, to: STDERR_FILENO) }
            if shownBefore > 0 { shownBefore -= 1 } else { show(result, quiet: quiet) }
            LocalShare.didShow()
            try Interruption.check("after case \(result.name)")
        }
        let orphans = GoldenSuite.orphans(in: suites, cases: cases)
        let obsolete = results.flatMap(\.obsolete).filter { line in !results.contains { $0.pruned.contains(line) } }
        for result in results { for line in result.pruned { print("removed obsolete golden \(line)") } }
        if options.prune {
            let removed = try GoldenSuite.prune(orphans.map(\.path))
            for orphan in orphans { print("obsolete golden \(orphan.path): \(orphan.reason)") }
            for file in removed { print("removed \(file)") }
        } else {
            for line in obsolete { print("obsolete golden \(line)") }
            for orphan in orphans { print("obsolete golden \(orphan.path): \(orphan.reason)") }
            if !obsolete.isEmpty || !orphans.isEmpty { print("(run with --prune to remove them)") }
        }
        let written = results.filter(\.written)
        if args.flags.contains("fail-on-update") {
            for result in written { print("wrote goldens: \(result.expected ?? result.folder)") }
        }
        if let file = args.values["blob"] {
            try Reports.writeBlob(.init(shard: args.values["shard"], suite: cases.map(\.name), scope: scope, results: results), to: URL(fileURLWithPath: file))
        }
        try writeReports(results, scope: scope, args, junit: args.values["junit"] ?? runner.junitFile)
        try runner.collectOutputs(results)
        try runner.reportToGitHub(results)
        let failed = results.filter(\.isFailure).count
        print("\(results.count - failed) passed, \(failed) failed" + (options.shard.map { " (shard \($0.index)/\($0.count))" } ?? ""))
        var status: Int32 = failed == 0 ? 0 : 1
        if args.flags.contains("fail-on-update") && !written.isEmpty {
            print("\(written.count) case\(written.count == 1 ? "" : "s") had goldens written; failing as --fail-on-update asks")
            status = 1
        }
        if sayUnrunnable(results) { status = 2 }
        if args.flags.contains("watch") {
            pool?.shutDown(quietly: true)
            pool = nil
            return try watch!.run(after: results)
        }
        return status
    }

    /// Says which cases could not run, and why; whether there were any.
    static func sayUnrunnable(_ results: [CaseResult]) -> Bool {
        let unrunnable = results.filter { $0.error != nil }
        guard !unrunnable.isEmpty else { return false }
        for result in unrunnable { Terminal.error("textreel: \(result.error ?? "")") }
        Terminal.error("\(unrunnable.count) case\(unrunnable.count == 1 ? "" : "s") could not run (the others ran): \(unrunnable.map(\.name).joined(separator: ", "))")
        return true
    }

    /// The reports the command line asks for, of `results`; `junit`: where JUnit goes (the
    /// command line's, or a test runner's such as Bazel's).
    static func writeReports(_ results: [CaseResult], scope: GoldenWriteScope, _ args: Arguments,
                             junit: String? = nil) throws {
        if let folder = args.values["report"] { try Reports.writeHTML(results, scope: scope, to: URL(fileURLWithPath: folder)) }
        if let file = junit ?? args.values["junit"] { try Reports.writeJUnit(results, to: URL(fileURLWithPath: file)) }
        if let file = args.values["json"] { try Reports.writeJSON(results, to: URL(fileURLWithPath: file)) }
    }

    /// One case's line, and its reasons when it failed.
    static func show(_ result: CaseResult, quiet: Bool) {
        let mark = switch result.status {
        case .passed: "✓"
        case .recorded: "+"
        case .updated: "↻"
        case .failed, .drift: "✗"
        }
        if quiet && !result.isFailure { return }
        print("\(mark) \(result.name) — \(result.status.rawValue), \(result.frames) frame\(result.frames == 1 ? "" : "s"), \(String(format: "%.1f", result.seconds)) s")
        if result.isFailure || result.status == .updated {
            // A case that changed everywhere says so in a screenful; the reports hold the rest.
            let reasons = Reports.reasons(result), shown = 40
            for line in reasons.prefix(shown) { print("    \(line)") }
            if reasons.count > shown {
                print("    … and \(reasons.count - shown) more (all of them in --report, --json and --junit)")
            }
        }
        if result.written, !result.recordedFrames.isEmpty {
            print("    wrote \(Reports.framesWritten(result)) in \(result.expected ?? result.folder)")
        }
        if let first = result.firstDivergingFrame, result.isFailure {
            let written = result.diffs.contains { $0.diff != nil } ? "actual/ and diff/" : "actual/"
            print("    first diverging frame: \(first); images in \(result.folder)/\(written)")
        }
        if !result.drift.isEmpty && !result.isFailure && result.status == .passed {
            print("    note: environment differs from the goldens' (\(result.drift.joined(separator: "; "))) but pixels match")
        }
    }
}
