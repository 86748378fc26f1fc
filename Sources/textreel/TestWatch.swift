import Foundation
import TextReelGolden
import TextReelMarkdown

/// `test --watch`: after a suite's run, follows every case's inputs (its case.json5, document,
/// the document's images, script and theme file) and, after each save, runs again only the cases
/// whose inputs changed: a case's inputs are known by each file's identity, size and time, so a
/// save that rewrites a file with the same bytes still counts; a case folder made meanwhile
/// runs at the next save of a watched file. Each verdict is printed as it comes; the reports asked for are rewritten with
/// the suite's latest results. Cases run in this process, one at a time.
struct TestWatch {
    let args: Arguments
    let suites: [URL]
    let look: Appearance
    let options: GoldenSuite.Options
    let scope: GoldenWriteScope
    /// Every case's latest result, by name.
    private var latest: [String: CaseResult] = [:]
    private var order: [String] = []
    /// The cases' inputs as they were before the first run, and their watcher: a save during
    /// that run is the first change.
    private var known: [String: Signature] = [:]
    private var watcher: FileWatcher?

    /// Made before the suite's first run.
    init(args: Arguments, suites: [URL], look: Appearance, options: GoldenSuite.Options, scope: GoldenWriteScope) throws {
        self.args = args
        self.suites = suites
        self.look = look
        self.options = options
        self.scope = scope
        known = signatures(of: cases())
        watcher = try FileWatcher(known.values.flatMap(\.files))
    }

    /// Follows the inputs after the first run gave `results`.
    mutating func run(after results: [CaseResult]) throws -> Int32 {
        latest = Dictionary(results.map { ($0.name, $0) }, uniquingKeysWith: { $1 })
        order = results.map(\.name)
        guard let watcher else { return 0 }
        print("watching the inputs of \(known.count) case\(known.count == 1 ? "" : "s") (Ctrl-C stops)")
        fflush(nil)
        while let changed = watcher.waitForChange(stop: { (try? Interruption.check("")) == nil }) {
            let cases = self.cases()
            let now = signatures(of: cases)
            let again = cases.filter { known[$0.name] != now[$0.name] }
            known = now
            try watcher.watch(now.values.flatMap(\.files))
            guard !again.isEmpty else {
                print("\(changed.joined(separator: ", ")) saved: no case's inputs changed")
                fflush(nil)
                continue
            }
            print("\(changed.joined(separator: ", ")) saved: running \(again.count) case\(again.count == 1 ? "" : "s") again")
            var options = options
            options.workers = 1
            options.shard = nil
            let quiet = args.flags.contains("quiet")
            let results = try GoldenSuite.run(again, options: options, runner: nil) { result in
                TestCommand.show(result, quiet: quiet)
                try Interruption.check("after case \(result.name)")
            }
            for result in results {
                if latest[result.name] == nil { order.append(result.name) }
                latest[result.name] = result
            }
            // Cases whose folders are gone leave the suite's results.
            let names = Set(cases.map(\.name))
            order.removeAll { !names.contains($0) }
            let all = order.compactMap { latest[$0] }
            try TestCommand.writeReports(all, scope: scope, args, junit: TestRunnerEnvironment().junitFile)
            _ = TestCommand.sayUnrunnable(results)
            let failed = all.filter(\.isFailure).count
            print("the suite: \(all.count - failed) passed, \(failed) failed")
            fflush(nil)
        }
        return 0
    }

    /// The suites' cases as they are now (none when they cannot be read: that is said).
    private func cases() -> [GoldenCase] {
        do { return try GoldenSuite.cases(in: suites).map { $0.restyled(look) } } catch {
            Terminal.error("textreel: \(error)")
            return []
        }
    }

    /// What a case reads, and each file's identity, size and time.
    private struct Signature: Equatable {
        var files: [URL]
        var stamps: [String]
    }

    private func signatures(of cases: [GoldenCase]) -> [String: Signature] {
        Dictionary(cases.map { golden in
            var files = [golden.folder.appendingPathComponent("case.json5"), golden.document]
            if let script = golden.script { files.append(script) }
            if let theme = golden.appearance.theme, Theme.builtIn[theme] == nil { files.append(URL(fileURLWithPath: theme)) }
            if let document = try? TextDocument(contentsOf: golden.document) {
                files += document.paragraphs.flatMap { $0.attachments.compactMap(\.file) }
            }
            let stamps = files.map { file in
                FileStatus(path: file.path).map { "\($0.identity) \($0.size) \($0.modified)" } ?? "missing"
            }
            return (golden.name, Signature(files: files, stamps: stamps))
        }, uniquingKeysWith: { $1 })
    }
}
