import Foundation
import TextReelMarkdown

/// Creates the output folder and checks that it is writable, before any work is done.
enum OutputFolder {
    /// An exclusive lock on an output folder, so two renders never write into it at once.
    final class Lock {
        let fd: Int32
        let path: String
        /// The earlier render's frames, set aside: reused or deleted while this render draws.
        var replaced: ReplacedFrames?
        init(fd: Int32, path: String) { self.fd = fd; self.path = path }
        func release() {
            replaced?.finish()
            unlink(path)
            close(fd)
        }
    }

    /// Whether `name` is a frame's (`frame-00001.png`): checked by hand, as a regex literal is
    /// parsed anew at each use, for each name of a folder.
    static func isFrameName(_ name: String) -> Bool {
        name.utf8.count == 15 && name.hasPrefix("frame-") && name.hasSuffix(".png")
            && name.utf8.dropFirst(6).prefix(5).allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// A frame's file name (`frame-00001.png`), padded by hand: `String(format:)` cost a render
    /// of 300 frames 7 ms on the thread that draws.
    static func frameName(_ number: Int) -> String {
        let digits = String(number)
        return "frame-" + String(repeating: "0", count: max(0, 5 - digits.utf8.count)) + digits + ".png"
    }

    /// Locks `url` for a render whose inputs are `inputs`. A full run replaces the frames of an
    /// earlier render in the folder (see `ReplacedFrames`); a `--frames` run (`fullRun` false) may
    /// only complete a render of the same inputs. Frames TextReel did not write (no
    /// `summary.json` beside them) are never deleted or mixed with: the render is refused.
    @discardableResult
    /// `keepingFrames`: the folder's frames are this process's own render of the same command
    /// (`render --watch`), to be written over in place: none is set aside, whatever its inputs.
    static func prepare(_ url: URL, removingFramesOf fullRun: Bool, inputs: String? = nil, keepingFrames: Bool = false) throws -> Lock {
        guard url.standardizedFileURL.path != "/" else {
            throw TextReelError(file: "/", "is the root folder; --out names the folder the frames go into")
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw TextReelError(file: url.path, "this is a file, not a folder; --out names the folder the frames go into")
        }
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw TextReelError(file: url.path, "cannot create the output folder; expected a writable path")
        }
        guard FileManager.default.isWritableFile(atPath: url.path) else {
            throw TextReelError(file: url.path, "the output folder is not writable")
        }
        let lockPath = url.appendingPathComponent(".textreel.lock").path
        let fd = open(lockPath, O_CREAT | O_RDWR, 0o644)
        guard fd >= 0 else { throw TextReelError(file: url.path, "cannot create a lock file in the output folder") }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            throw TextReelError(file: url.path, "another textreel render is writing into this folder; wait for it, or choose another --out")
        }
        let lock = Lock(fd: fd, path: lockPath)
        let folder = url.path, names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        // Temporaries and set-aside frames of a killed run are TextReel's only in a folder a render has described.
        let described = FileManager.default.fileExists(atPath: folder + "/summary.json")
        if described {
            for name in names where AtomicFile.isTemporaryName(name) { unlink(folder + "/" + name) }
        }
        let stale = described ? names.filter { $0.hasPrefix(ReplacedFrames.prefix) } : []
        // Frames are regular files only: a folder or a link of that name is never TextReel's. A
        // file is its frame's only when no other name refers to it (counted, and checked: two
        // names of one file found here are never both its only one).
        var files = Set<[UInt64]>()
        let frames = names.compactMap { name -> (name: String, only: Bool)? in
            guard isFrameName(name), let status = FileStatus(path: folder + "/" + name, followingLinks: false), status.kind == .regular else { return nil }
            return (name, files.insert(status.identity).inserted && status.links == 1)
        }
        if !frames.isEmpty {
            // A summary TextReel wrote: it has a status.
            let summary = (try? Data(contentsOf: url.appendingPathComponent("summary.json")))
                .flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
                .flatMap { $0["status"] is String ? $0 : nil }
            guard let summary else {
                lock.release()
                throw TextReelError(file: folder, "holds \(frames.count) frame-*.png file\(frames.count == 1 ? "" : "s") and no summary.json of a TextReel render beside them, and TextReel never deletes files it did not write; choose another --out")
            }
            if !fullRun, !keepingFrames, inputs == nil || summary["inputs"] as? String != inputs {
                lock.release()
                throw TextReelError(file: folder, "holds \(frames.count) frames of another render (another document, script, options or environment); --frames only completes a render of the same inputs: render all frames, or choose another --out")
            }
        }
        let replaced = fullRun ? frames : []
        if !replaced.isEmpty || !stale.isEmpty { lock.replaced = ReplacedFrames(replaced, stale: stale, in: folder) }
        return lock
    }

    /// Removes the frame files numbered past `last` (a watched script that got shorter); how many.
    static func removeFrames(of url: URL, after last: Int) -> Int {
        var removed = 0
        for name in (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? [] where isFrameName(name) {
            if let number = Int(name.dropFirst("frame-".count).prefix { $0.isNumber }), number > last, unlink(url.path + "/" + name) == 0 { removed += 1 }
        }
        return removed
    }
}

/// events.jsonl, written as the render goes: one complete line per finished frame (a single
/// write each), so that a render stopped at any point leaves lines for exactly the frames it
/// finished.
final class EventLog {
    let url: URL
    private let fd: Int32

    init(_ url: URL) throws {
        self.url = url
        fd = open(url.path, O_CREAT | O_TRUNC | O_WRONLY | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw TextReelError(file: url.path, "cannot write (\(String(cString: strerror(errno))))") }
    }

    /// The bytes of whole lines written so far.
    private var length: off_t = 0

    /// Appends `line` whole, or not at all: a write cut short (a full disk) is truncated away.
    func append(_ line: Data) throws {
        if let failure = AtomicFile.writeAll(line, to: fd) {
            ftruncate(fd, length)
            throw TextReelError(file: url.path, "cannot write (\(String(cString: strerror(failure))))")
        }
        length += off_t(line.count)
    }

    deinit { close(fd) }
}

/// What a render's frames depend on, as one string kept in `summary.json`: the document and
/// script (path, size, modification time), the options that change frames, and the library and
/// font versions. A `--frames` run into a folder completes it only when this is the same.
enum RenderInputs {
    /// Options that change where frames go or what is printed, not what they hold.
    static let ignored: Set<String> = ["out", "frames", "shard", "quiet", "verbose", "serial", "contact-sheet", "video", "animation", "chart",
                                       "format", "compression"]

    static func key(document: String, script: ScrollScript?, args: Arguments) -> String? {
        guard document != "-" else { return nil }   // standard input cannot be compared
        func file(_ path: String) -> String {
            let url = URL(fileURLWithPath: path).standardizedFileURL
            let status = FileStatus(path: url.path)
            return "\(url.path) \(status?.size ?? -1) \(status?.modified ?? 0)"
        }
        let options = args.values.filter { !ignored.contains($0.key) }.sorted { $0.key < $1.key }.map { "--\($0.key)=\($0.value)" }
            + args.flags.subtracting(ignored).sorted().map { "--\($0)" }
        let environment = EnvironmentFingerprint.current(helperLibraries: HelperProcess.libraries).canonicalText
        // A theme file, named on the command line (from the working folder) or by the script
        // (from the script's folder), counts like the script.
        let scriptFolder = script.map { URL(fileURLWithPath: $0.fileName).deletingLastPathComponent() }
        let theme = args.values["theme"].map { URL(fileURLWithPath: $0) }
            ?? script?.appearance.theme.map { $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : scriptFolder!.appendingPathComponent($0) }
        let themeFile = theme.flatMap { FileManager.default.fileExists(atPath: $0.path) ? file($0.path) : nil } ?? "no theme file"
        let whole = [file(document), script.map { file($0.fileName) } ?? "no script", themeFile, options.joined(separator: " "), environment]
            .joined(separator: "\n")
        return String(StableHash.of(whole), radix: 16)
    }
}

/// What a render's folder says about it, kept true as the render goes: `summary.json` says
/// "running" from the start, `events.jsonl` gets a frame's line once its file is on disk, and
/// at the end the summary says "complete", or "failed" / "interrupted" with the reason, counting
/// exactly the frames the folder holds.
///
/// The "running" summary is flushed to disk before any frame is renamed into place, so no crash
/// of the system leaves an earlier render's "complete" beside this one's frames; it is written
/// on a thread of its own while the first frame is drawn (`started()` waits for it), since its
/// fsync was a tenth of a first frame. The last summary is not flushed: the frames are (the
/// writer's `finish`), and losing the summary that claims them errs on the safe side ("running").
final class RenderRecord {
    let folder: URL
    private let events: EventLog
    private var partial = RunSummary()
    private let encoder = JSONEncoder()
    /// Events held back until their frame's file is on disk, each with that file and its place
    /// in the writer's hand-over order (nil: no file to wait for); `first` is the next to write.
    private var pending: [(file: (index: Int, url: URL)?, line: Data, event: FrameEvent, drawn: Bool)] = []
    private var first = 0

    init(folder: URL, inputs: String?) throws {
        self.folder = folder
        events = try EventLog(folder.appendingPathComponent("events.jsonl"))
        encoder.outputFormatting = [.sortedKeys]
        partial.inputs = inputs
        partial.status = "running"
        summaryURL = folder.appendingPathComponent("summary.json")
        let running = partial, url = summaryURL
        start = Background { Result { try Self.write(running, to: url, durable: true) } }
        try? FileManager.default.removeItem(at: folder.appendingPathComponent("contact-sheet.png"))   // an earlier render's
    }

    /// The folder's `summary.json`.
    private let summaryURL: URL
    /// The "running" summary being written and flushed.
    private let start: Background<Result<Void, Error>>

    /// Waits until the "running" summary is on disk: before a frame goes to its file, and
    /// before any later summary (which must not be overwritten by it).
    func started() throws { try start.value.get() }

    /// Frame `event`'s line, written once its file (if any) is among the first `onDisk` written.
    func add(_ event: FrameEvent, file: (index: Int, url: URL)?, drawn: Bool, onDisk: Int) throws {
        pending.append((file, Data(try event.jsonLine() + [0x0A]), event, drawn))
        try flush(onDisk: onDisk)
    }

    /// The render finished. It is "complete" when the folder holds every frame of `expected`
    /// (the script's, or a shard's part; nil when frames go to standard output), else "partial"
    /// with the frames missing named: a `--frames` run after a killed one completes nothing.
    /// Returns the frames missing, if any.
    func complete(_ summary: RunSummary, onDisk: Int, expected: ClosedRange<Int>?) throws -> String? {
        try started()
        try flush(onDisk: onDisk)
        var summary = summary
        let missing = expected.map { $0.filter { !FileManager.default.fileExists(atPath: folder.appendingPathComponent(OutputFolder.frameName($0)).path) } } ?? []
        summary.status = missing.isEmpty ? "complete" : "partial"
        summary.missingFrames = missing.isEmpty ? nil : Self.ranges(missing)
        summary.inputs = partial.inputs
        try Self.write(summary, to: summaryURL, durable: false)
        return summary.missingFrames
    }

    /// "3-7, 9" for [3, 4, 5, 6, 7, 9].
    static func ranges(_ numbers: [Int]) -> String {
        var parts: [String] = []
        var start = numbers.first ?? 0, last = start
        for n in numbers.dropFirst() + [Int.min] {
            if n == last + 1 { last = n; continue }
            parts.append(start == last ? "\(start)" : "\(start)-\(last)")
            start = n; last = n
        }
        return parts.joined(separator: ", ")
    }

    /// The render stopped with `error`: the frames on disk are counted, the files of frames
    /// written but not counted (past a failed frame, or whose line could not be written) are
    /// removed, and the summary says why.
    func stopped(by error: Error, onDisk: Int, documentHeight: Double, paragraphs: Int) {
        _ = try? started()
        try? flush(onDisk: onDisk)
        for entry in pending[first...] {
            if let file = entry.file { try? FileManager.default.removeItem(at: file.url) }
        }
        partial.documentHeight = documentHeight
        partial.paragraphs = paragraphs
        let status = (error as? TextReelError)?.exitStatus
        partial.status = status == 130 || status == 143 ? "interrupted" : "failed"
        partial.error = "\(error)"
        try? Self.write(partial, to: summaryURL, durable: false)
    }

    /// Writes and counts the leading events whose files are among the first `onDisk` written.
    private func flush(onDisk: Int) throws {
        while first < pending.count {
            let next = pending[first]
            if let file = next.file, file.index >= onDisk { break }
            try events.append(next.line)
            partial.add(next.event, written: next.drawn)
            first += 1
        }
        if first > 256 { pending.removeFirst(first); first = 0 }
    }

    private static func write(_ summary: RunSummary, to url: URL, durable: Bool) throws {
        let pretty = JSONEncoder()
        pretty.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        try AtomicFile.write(pretty.encode(summary) + Data("\n".utf8), to: url, durable: durable)
    }
}
