import Foundation
import TextReel

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

    /// A case's `expected`, `actual` or `diff` folder, or a variant's folder in it.
    static func folder(_ kind: String, of folder: URL, variant: String?) -> URL {
        variant.map { folder.appendingPathComponent(kind).appendingPathComponent($0) } ?? folder.appendingPathComponent(kind)
    }

    /// Compares a render with the goldens in `folder/expected`, writing `actual/` and `diff/`
    /// images for frames that differ, and goldens as `update` says.
    static func compare(_ rendered: GoldenCase.Rendered, name: String, folder: URL, variant: String? = nil,
                        tolerance: GoldenCase.Tolerance, update: UpdateMode, prune: Bool = false) throws -> CaseResult {
        let fm = FileManager.default
        func place(_ kind: String) -> URL { Self.folder(kind, of: folder, variant: variant) }
        let expectedFolder = place("expected")
        let actualFolder = place("actual")
        let diffFolder = place("diff")
        try? fm.removeItem(at: actualFolder)
        try? fm.removeItem(at: diffFolder)
        var result = CaseResult(name: name, folder: folder.path, status: .passed, frames: rendered.frames.count)
        result.expected = expectedFolder.path
        result.chart = rendered.chart
        // Budgets first: a frame that breaks one fails the case before any pixel is compared.
        if !rendered.violations.isEmpty {
            result.status = .failed
            result.structure = rendered.violations.prefix(8).map { "\($0.check == "invariant" ? "invariant" : "budget \($0.check)"): \($0)" }
            if rendered.violations.count > 8 { result.structure.append("… and \(rendered.violations.count - 8) more") }
            return result
        }

        guard let expected = try ExpectedFolder.read(at: expectedFolder) else {
            if update == .never {
                result.status = .failed
                result.structure = ["no goldens yet in \(expectedFolder.path); record them with update mode missing"]
            } else {
                try ExpectedFolder.write(rendered, to: expectedFolder)
                result.status = .recorded
                result.written = true
                result.recordedFrames = rendered.frames.keys.sorted()
            }
            return result
        }

        // The same bytes as stored are the same structure: decoding 300 frames' layout.json was a
        // tenth of a test of an unchanged case.
        let layoutBytes = try rendered.layout.json()
        result.structure = layoutBytes == expected.layoutData ? [] : rendered.layout.changes(from: try expected.layout())
        result.drift = expected.fingerprint.map { rendered.fingerprint.differences(from: $0) } ?? ["no fingerprint was recorded"]
        var diffOptions = ImageDiff.Options()
        diffOptions.threshold = tolerance.threshold
        diffOptions.includeAA = tolerance.includeAA
        let numbers = Set(rendered.frames.keys).union(expected.index.frames.keys.compactMap { Int($0) }).sorted()
        var sameBytes: Set<Int> = []
        for number in numbers {
            let name = String(format: "frame-%05d.png", number)
            let actualPath = actualFolder.appendingPathComponent(name)
            guard let output = rendered.frames[number] else {
                // Not a failure: a golden nothing produces any more (listed; removed by --prune).
                let why = number > rendered.frameCount ? "past the end of the script (\(rendered.frameCount) frames)" : "no longer among the frames the case keeps"
                result.obsolete.append("\(expectedFolder.path): frame \(number) (\(expected.index.frames[String(number)] ?? name)) is \(why)")
                continue
            }
            // The same bytes are the same pixels: nothing to decode.
            if let file = expected.imageURL(frame: number), let bytes = FileManager.default.contents(atPath: file.path),
               bytes == output.png { sameBytes.insert(number); continue }
            let actual = output.image
            guard let file = expected.imageURL(frame: number), FileManager.default.fileExists(atPath: file.path) else {
                try write(actual, to: actualPath)
                result.diffs.append(FrameDiff(frame: number, reason: "no golden for this frame", actual: actualPath.path))
                continue
            }
            let golden: RGBAImage
            do { golden = try RGBAImage(contentsOf: file) } catch let error as TextReelError {
                try write(actual, to: actualPath)
                result.diffs.append(FrameDiff(frame: number, reason: "the golden is damaged (\(error.message)); re-record it", expected: file.path, actual: actualPath.path))
                continue
            }
            guard golden.width == actual.width, golden.height == actual.height else {
                try write(actual, to: actualPath)
                result.diffs.append(FrameDiff(frame: number, reason: "size \(actual.width)×\(actual.height) instead of \(golden.width)×\(golden.height)",
                                              expected: file.path, actual: actualPath.path))
                continue
            }
            // Counted first without a diff image: a frame within its tolerance (another engine's
            // anti-aliasing) needs none; a failing one's is made while it is compressed.
            let comparison = ImageDiff.compare(golden, actual, options: diffOptions, makeImage: false)
            let allowed = max(tolerance.maxDiffPixels, Int((Double(comparison.total) * tolerance.maxDiffPixelRatio).rounded(.down)))
            guard comparison.mismatch > allowed else { continue }
            try write(actual, to: actualPath)
            let diffPath = diffFolder.appendingPathComponent(name)
            try write(ImageDiff.compareEncodingDiffImage(golden, actual, options: diffOptions).png, to: diffPath)
            let scale = rendered.layout.frames[number]?.scale ?? 1
            let regions = comparison.regions.prefix(20).map { box -> Region in
                let points = CGRect(x: box.minX / scale, y: box.minY / scale, width: box.width / scale, height: box.height / scale)
                return Region(x: Int(box.minX), y: Int(box.minY), width: Int(box.width), height: Int(box.height),
                              what: rendered.layout.describe(points, inFrame: number))
            }
            result.diffs.append(FrameDiff(frame: number, reason: "\(comparison.mismatch) pixels differ (\(allowed) allowed)",
                                          mismatch: comparison.mismatch, total: comparison.total, regions: Array(regions),
                                          expected: file.path, actual: actualPath.path, diff: diffPath.path))
        }
        for k in result.diffs.indices { result.diffs[k].snapshot = rendered.snapshots[result.diffs[k].frame] }
        result.firstDivergingFrame = result.diffs.map(\.frame).min()
        let failed = !result.diffs.isEmpty || !result.structure.isEmpty
        if failed {
            result.status = result.drift.isEmpty ? .failed : .drift
        }
        // Frames whose golden was deleted are recorded by `missing`, like a new case's.
        let onlyMissing = failed && result.structure.isEmpty && result.diffs.allSatisfy { $0.reason == "no golden for this frame" }
        if onlyMissing && update == .missing {
            // Only the missing frames are written: the others stay exactly as they were.
            try ExpectedFolder.add(Dictionary(uniqueKeysWithValues: result.diffs.compactMap { diff in
                rendered.frames[diff.frame].map { (diff.frame, $0.png) }
            }), to: expectedFolder)
            result.status = .recorded
            result.written = true
            result.recordedFrames = result.diffs.map(\.frame)
        } else if (failed && update == .changed) || (update == .all && (failed || sameBytes.count != numbers.count || !result.drift.isEmpty)) {
            // `all` leaves a case whose every frame has the same bytes as it is, in the same
            // environment, as it is: nothing to write. (In another one, the fingerprint is new.)
            try ExpectedFolder.write(rendered, to: expectedFolder)
            if failed { result.status = .updated }
            result.written = true
            result.recordedFrames = rendered.frames.keys.sorted().filter { !sameBytes.contains($0) }
        } else if prune && !failed && !result.obsolete.isEmpty {
            try ExpectedFolder.write(rendered, to: expectedFolder)
            result.pruned = result.obsolete
        } else if !result.structure.isEmpty {
            // Accepting one frame later takes its structure from here along with its image.
            try fm.createDirectory(at: actualFolder, withIntermediateDirectories: true)
            try AtomicFile.write(rendered.layout.json(), to: actualFolder.appendingPathComponent("layout.json"))
        }
        return result
    }

    private static func write(_ image: RGBAImage, to url: URL) throws {
        try write(image.pngData(), to: url)
    }

    private static func write(_ png: Data, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try AtomicFile.write(png, to: url)
    }
}
