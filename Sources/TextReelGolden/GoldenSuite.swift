import Foundation
import TextReelMarkdown

/// Runs golden cases: renders each, compares structure, then pixels, and reports what changed,
/// where, and whether the environment drifted.
public enum GoldenSuite {
    /// When goldens are written, as Playwright's `--update-snapshots`.
    public enum UpdateMode: String, Sendable, CaseIterable {
        /// Only where none exist: new cases, and frames whose golden is gone.
        case missing
        /// Also for cases that fail, replacing their goldens.
        case changed
        /// For every case, passing or not.
        case all
        /// Never: a missing golden fails (the default when `CI` is set). Written `none` on the
        /// command line and in `TEXTREEL_RECORD` (`never` is read too); named so that it never
        /// reads as `Optional.none`.
        case never = "none"

        /// The mode named `text`; `source` says where it was written, for the error
        /// ("--update", "TEXTREEL_RECORD").
        public init(parsing text: String, from source: String) throws {
            guard let mode = text == "never" ? .never : UpdateMode(rawValue: text) else {
                throw TextReelError("\(source) expects missing, changed, all or never (also written none), got '\(text)'", exitStatus: 2)
            }
            self = mode
        }

        /// The mode as Swift code spells it (`.never`, not `none`).
        public var swiftName: String { self == .never ? ".never" : ".\(rawValue)" }

        /// Why Swift tests run in this mode, for messages: "record: .never, because CI is set".
        public static func explained(_ mode: UpdateMode) -> String {
            let environment = ProcessInfo.processInfo.environment
            if GoldenRecording.scoped == nil, environment["TEXTREEL_RECORD"] == nil, environment["CI"] != nil, mode == .never {
                return "record: .never, because CI is set"
            }
            return "record: \(mode.swiftName)"
        }

        /// The mode of Swift tests: the innermost `withGoldenRecording` scope's, else
        /// `TEXTREEL_RECORD`, else `missing` (`none` when `CI` is set).
        public static func fromEnvironment() throws -> UpdateMode {
            if let scoped = GoldenRecording.scoped { return scoped }
            let environment = ProcessInfo.processInfo.environment
            if let raw = environment["TEXTREEL_RECORD"] { return try UpdateMode(parsing: raw, from: "TEXTREEL_RECORD") }
            return environment["CI"] == nil ? .missing : .never
        }
    }

    /// How a suite runs.
    public struct Options: Sendable {
        /// When goldens are written.
        public var update: UpdateMode
        /// (i, n): run the cases whose position k in name order has k % n == i - 1.
        public var shard: (index: Int, count: Int)?
        /// The fonts frames are rendered with.
        public var fontSet: FontSet = .standard
        /// Cases rendered at once, each on its own thread with its own font system; results,
        /// reports and progress come in case order whatever the number.
        public var workers = ProcessInfo.processInfo.activeProcessorCount
        /// Remove golden frames no case produces any more (a passing case's goldens are rewritten
        /// without them, atomically).
        public var prune = false

        /// Options; by default goldens are recorded where missing (never when `CI` is set), all cases run.
        public init(update: UpdateMode = ProcessInfo.processInfo.environment["CI"] == nil ? .missing : .never,
                    shard: (index: Int, count: Int)? = nil) {
            self.update = update
            self.shard = shard
        }
    }

    /// The cases under `folders`: each folder is a case (it holds case.json5) or a suite of them.
    public static func cases(in folders: [URL]) throws -> [GoldenCase] {
        var cases: [GoldenCase] = []
        for folder in folders {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw TextReelError(file: folder.path, "no such suite folder")
            }
            let found = try caseFolders(in: folder)
            guard !found.isEmpty else {
                // A Swift test's goldens: their cases are the test's calls, not files.
                let swift = folder.pathComponents.contains("__Goldens__")
                throw TextReelError(file: folder.path, swift
                    ? "these are the goldens of Swift tests (assertGoldenFrames): their cases are the tests' calls, so run them with swift test; textreel test runs folders of case.json5 files"
                    : "no golden cases here (folders with a case.json5)")
            }
            cases += found.flatMap { folder -> [GoldenCase] in
                do { return try GoldenCase(folder: folder).variants } catch { return [GoldenCase(unreadable: folder, error: error)] }
            }
        }
        // A case named twice (`test a a`, or a suite and one of its cases) runs once: two runs
        // at once would race for its folder.
        var seen = Set<String>()
        return cases.sorted { ($0.folder.path, $0.name) < ($1.folder.path, $1.name) }
            .filter { seen.insert($0.folder.standardizedFileURL.resolvingSymlinksInPath().path + "\u{0}" + $0.name).inserted }
    }

    /// The case folders `folder` names: itself when it holds a case.json5, else those of its
    /// folders that do, by name.
    private static func caseFolders(in folder: URL) throws -> [URL] {
        let holdsCase = { (folder: URL) in FileManager.default.fileExists(atPath: folder.appendingPathComponent("case.json5").path) }
        if holdsCase(folder) { return [folder] }
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().map { folder.appendingPathComponent($0) }.filter(holdsCase)
    }

    /// How many case folders `folders` hold, found without reading them (0 where one is not a
    /// suite; a folder named twice counts once): no more than the cases `cases(in:)` finds
    /// (variants add cases), so a runner can start that many workers before the cases are read.
    public static func caseFolderCount(in folders: [URL]) -> Int {
        Set(folders.flatMap { (try? caseFolders(in: $0)) ?? [] }.map { $0.standardizedFileURL.resolvingSymlinksInPath().path }).count
    }

    /// Goldens no case produces any more, with the reason: an `expected/` folder in a suite
    /// whose case.json5 is gone, a variant's folder the matrix no longer lists, frames left at the
    /// top of `expected/` by a case that now has variants. (Frames past a script's end are found
    /// by running the case: `CaseResult.obsolete`.) Only what TextReel wrote is listed: a folder
    /// counts when it holds an `index.json` TextReel can read, a file when such an index names
    /// it (or it is that index's own `layout.json` or `fingerprint.json`); nothing is reached
    /// through a symbolic link.
    public static func orphans(in folders: [URL], cases: [GoldenCase]) -> [(path: String, reason: String)] {
        let fm = FileManager.default
        var found: [(String, String)] = []
        let caseFolders = Set(cases.map { $0.folder.standardizedFileURL.path })
        for folder in folders where !fm.fileExists(atPath: folder.appendingPathComponent("case.json5").path) {
            for name in ((try? fm.contentsOfDirectory(atPath: folder.path)) ?? []).sorted() {
                let sub = folder.appendingPathComponent(name)
                let expected = sub.appendingPathComponent("expected")
                if !isLink(sub), writtenFiles(in: expected) != nil, !caseFolders.contains(sub.standardizedFileURL.path) {
                    found.append((expected.path, "no case.json5 in \(sub.lastPathComponent) produces it any more"))
                }
            }
        }
        for (folder, group) in Dictionary(grouping: cases.filter { $0.variantSpecsCount > 0 }, by: { $0.folder }) {
            let expected = folder.appendingPathComponent("expected")
            let wanted = Set(group.compactMap { $0.variant?.folderName })
            for name in ((try? fm.contentsOfDirectory(atPath: expected.path)) ?? []).sorted() where !name.hasPrefix(".") && !wanted.contains(name) {
                let path = expected.appendingPathComponent(name)
                if writtenFiles(in: path) != nil { found.append((path.path, "the variant \(name) is not in the case's matrix any more")) }
            }
            for file in writtenFiles(in: expected, recursive: false) ?? [] {
                found.append((file.path, "left from before the case had variants"))
            }
        }
        // Frames in a case's goldens that its index.json does not name: no comparison reads them.
        for golden in cases {
            let expected = folder("expected", of: golden.folder, variant: golden.variant?.folderName)
            guard !isLink(expected), let index = try? ExpectedFolder.index(at: expected) else { continue }
            let named = Set(index.frames.values)
            for name in ((try? fm.contentsOfDirectory(atPath: expected.path)) ?? []).sorted()
            where isFrameName(name) && !named.contains(name) && !isLink(expected.appendingPathComponent(name)) {
                found.append((expected.appendingPathComponent(name).path, "index.json names no frame with this image"))
            }
        }
        return found.sorted { $0.0 < $1.0 }
    }

    /// The files TextReel wrote in a golden folder (its readable `index.json`, the frames it
    /// names, `layout.json`, `fingerprint.json`; with `recursive`, those of the variant folders
    /// in it too); nil when `folder` is a link or holds no index TextReel can read.
    static func writtenFiles(in folder: URL, recursive: Bool = true) -> [URL]? {
        guard !isLink(folder), let index = try? ExpectedFolder.index(at: folder) else { return nil }
        let fm = FileManager.default
        var files = (["index.json", "layout.json", "fingerprint.json"] + Set(index.frames.values).sorted())
            .filter { !$0.contains("/") }.map { folder.appendingPathComponent($0) }
            .filter { !isLink($0) && FileStatus(path: $0.path)?.kind == .regular }
        if recursive {
            for name in ((try? fm.contentsOfDirectory(atPath: folder.path)) ?? []).sorted() where !name.hasPrefix(".") {
                files += writtenFiles(in: folder.appendingPathComponent(name)) ?? []
            }
        }
        return files
    }

    /// A frame's file name as TextReel writes it (`frame-00012.png`, `frame-00012.added.png`).
    static func isFrameName(_ name: String) -> Bool { name.hasPrefix("frame-") && name.hasSuffix(".png") }

    static func isLink(_ url: URL) -> Bool { FileStatus(path: url.path, followingLinks: false)?.kind == .other }

    /// Removes what `orphans` listed, and only what TextReel wrote in it (`writtenFiles`): a
    /// folder loses its golden files and is removed only if nothing else is left in it. Each file
    /// is renamed aside first, so nothing is left half-removed under its name. Returns the files
    /// removed.
    @discardableResult
    public static func prune(_ paths: [String]) throws -> [String] {
        let fm = FileManager.default
        var removed: [String] = []
        for path in paths {
            let url = URL(fileURLWithPath: path)
            guard !isLink(url) else { continue }
            let isFolder = FileStatus(path: path)?.kind == .directory
            let files = isFolder ? writtenFiles(in: url) ?? [] : [url]
            for file in files {
                let aside = file.deletingLastPathComponent().appendingPathComponent(".\(file.lastPathComponent).pruned.\(getpid())")
                try fm.moveItem(at: file, to: aside)
                try fm.removeItem(at: aside)
                removed.append(file.path)
            }
            // Emptied folders go, deepest first; rmdir leaves any folder something else is in.
            guard isFolder else { continue }
            for folder in Set(files.map { $0.deletingLastPathComponent().path } + [path]).sorted(by: { $0.count > $1.count }) {
                rmdir(folder)
            }
        }
        return removed
    }

    /// The share of `cases` for shard `index` of `count`: no overlap and no gap across shards.
    public static func shard<Case>(_ cases: [Case], index: Int, count: Int) -> [Case] {
        cases.enumerated().filter { $0.offset % count == index - 1 }.map(\.element)
    }

    /// Runs one case: its position in the list given to `run(_:options:runner:progress:)`, and
    /// the case. The default renders it here; the CLI hands it to a worker process.
    public typealias CaseRunner = @Sendable (_ index: Int, _ testCase: GoldenCase) throws -> CaseResult

    /// Runs `cases` on `options.workers` threads, calling `progress` after each, in case order.
    /// A throw (from a case or from `progress`) stops new cases from starting and is rethrown once
    /// the cases under way have finished. `runner` runs each case (by default, on the thread).
    public static func run(_ cases: [GoldenCase], options: Options, runner: CaseRunner? = nil,
                           progress: (CaseResult) throws -> Void = { _ in }) throws -> [CaseResult] {
        let runner = runner ?? { _, golden in run(golden, options: options) }
        let all = Array(cases.indices)
        let selected = options.shard.map { shard(all, index: $0.index, count: $0.count) } ?? all
        let workers = max(1, min(options.workers, selected.count))
        guard workers > 1 else {
            return try selected.map { index in
                let result = try runner(index, cases[index])
                try progress(result)
                return result
            }
        }
        let pool = CasePool(count: selected.count)
        var threads: [Thread] = []
        for _ in 0..<workers {
            let thread = Thread {
                while let index = pool.take() {
                    pool.finish(index, Result { try runner(selected[index], cases[selected[index]]) })
                }
                FontSet.releaseThreadFonts()
                pool.workerDone()
            }
            thread.stackSize = 16 << 20
            threads.append(thread)
            thread.start()
        }
        defer { pool.stop(); pool.waitForWorkers(workers) }
        var results: [CaseResult] = []
        for index in selected.indices {
            let result = try pool.wait(index).get()
            try progress(result)
            results.append(result)
        }
        return results
    }

    /// Hands out case indexes to worker threads and gives results back in order.
    private final class CasePool: @unchecked Sendable {
        private let condition = NSCondition()
        private var next = 0, stopped = false, done = 0
        private var results: [Result<CaseResult, Error>?]
        init(count: Int) { results = Array(repeating: nil, count: count) }

        func take() -> Int? {
            condition.withLock {
                guard !stopped, next < results.count else { return nil }
                defer { next += 1 }
                return next
            }
        }
        func finish(_ index: Int, _ result: Result<CaseResult, Error>) {
            condition.withLock { results[index] = result; condition.broadcast() }
        }
        func wait(_ index: Int) -> Result<CaseResult, Error> {
            condition.withLock {
                while results[index] == nil { condition.wait() }
                if case .failure = results[index]! { stopped = true }
                return results[index]!
            }
        }
        func stop() { condition.withLock { stopped = true } }
        func workerDone() { condition.withLock { done += 1; condition.broadcast() } }
        func waitForWorkers(_ count: Int) { condition.withLock { while done < count { condition.wait() } } }
    }

    /// Renders and compares one case; a case that cannot run is a failed result, not a throw.
    public static func run(_ testCase: GoldenCase, options: Options) -> CaseResult {
        let start = DispatchTime.now().uptimeNanoseconds
        var result: CaseResult
        do {
            result = try compare(testCase, options: options)
        } catch {
            // A case that cannot run (a missing script, a step that fails, a full disk) fails
            // alone; the other cases still run, and the run exits 2 at the end.
            result = CaseResult(name: testCase.name, folder: testCase.folder.path, status: .failed, frames: 0)
            result.error = "\(error)"
            result.structure = ["the case cannot run: \(error)"]
        }
        result.seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return result
    }

    private static func compare(_ testCase: GoldenCase, options: Options) throws -> CaseResult {
        if let readError = testCase.readError { throw TextReelError(readError) }
        var result = try compare(testCase.render(fontSet: options.fontSet), name: testCase.name, folder: testCase.folder,
                                 variant: testCase.variant?.folderName, tolerance: testCase.tolerance, update: options.update,
                                 prune: options.prune)
        if testCase.variantSpecsCount == 0, let look = testCase.variant?.appearance {
            result.look = [look.theme, look.textSize?.rawValue, look.direction?.rawValue]
        }
        // Structural messages name the variant ("dark · XXXL · 375: paragraph 12 …").
        if let label = testCase.variant?.label { result.structure = result.structure.map { "\(label): \($0)" } }
        return result
    }
}
