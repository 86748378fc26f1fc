import Foundation

/// Writes frames as PNG files, or only encodes them (a golden case compares bytes and writes
/// none). In parallel mode, frames are encoded (and written) by two worker threads while the next
/// frames are laid out and drawn (drawing takes well under a millisecond, encoding several); at
/// most two frames are in flight, and the bytes are the same as in serial mode (each frame owns
/// its surface, and the one state encoders share, the band cache, changes how much work a frame
/// costs, never its bytes).
public final class FrameWriter: @unchecked Sendable {
    /// Whether frames are encoded and written on worker threads.
    public let parallel: Bool
    /// How hard PNGs are compressed.
    public let compression: PNGCompression
    private let queue = DispatchQueue(label: "textreel.frame-writer", attributes: .concurrent)
    private let workers = DispatchSemaphore(value: 2)
    private let group = DispatchGroup()
    private let lock = NSLock()
    /// The failure of the earliest frame (by hand-over order) that failed: which frame a
    /// message names must not depend on which worker finished first.
    private var failure: (index: Int, error: Error)?
    /// Frames handed over, and which of them are on disk (by hand-over order).
    private var handedOver = 0
    private var onDisk = Set<Int>()
    private var leadingOnDisk = 0
    /// The folders frames went to, flushed to disk once by `finish()`.
    private var folders = Set<String>()

    /// How many of the frames handed over so far, counted from the first, have their files on
    /// disk: a frame is reported (counted, its event line written) only once this passes it.
    public var framesOnDisk: Int { lock.withLock { leadingOnDisk } }

    /// Files of an earlier render a frame may be written over instead of a new file (see
    /// `AtomicFile.overwrite`); set before the first frame is handed over.
    public var reusableFile: (@Sendable () -> String?)? {
        get { lock.withLock { reusable } }
        set { lock.withLock { reusable = newValue } }
    }
    private var reusable: (@Sendable () -> String?)?

    /// A writer, parallel and fast-compressing unless told otherwise.
    public init(parallel: Bool = true, compression: PNGCompression = .fast) {
        self.parallel = parallel
        self.compression = compression
    }

    /// Hands the frame over and returns its place in hand-over order (compare `framesOnDisk`);
    /// a failure of an earlier frame is thrown here or by `finish()`.
    @discardableResult
    public func write(_ frame: RenderedFrame, to url: URL) throws -> Int {
        let compression = compression, reusable = reusableFile, keepsUnchanged = keepsUnchangedFiles
        return try submit(frame, folder: url.deletingLastPathComponent().path) { [self] frame in
            if keepsUnchanged, let old = try? Data(contentsOf: url), old == (try frame.pngData(compression: compression)) {
                lock.withLock { unchanged += 1 }
                return
            }
            try frame.write(to: url, compression: compression, durable: false, reusing: reusable)
        }
    }

    /// Leaves a file that already holds a frame's bytes as it is (not written again, its time
    /// kept): a watched render rewrites only the frames an edit changed, so an image viewer
    /// beside the source reloads only those.
    public var keepsUnchangedFiles = false
    /// How many frames were already on disk as they are, with `keepsUnchangedFiles`.
    public var unchangedFiles: Int { lock.withLock { unchanged } }
    private var unchanged = 0

    /// Hands the frame over to be encoded only: its `pngData(compression:)` is ready (cached on
    /// the frame) once `finish()` returns. Returns its place in hand-over order.
    @discardableResult
    public func encode(_ frame: RenderedFrame) throws -> Int {
        let compression = compression
        return try submit(frame, folder: nil) { _ = try $0.pngData(compression: compression) }
    }

    private func submit(_ frame: RenderedFrame, folder: String?, work: @escaping @Sendable (RenderedFrame) throws -> Void) throws -> Int {
        try rethrow()
        let index = lock.withLock { defer { handedOver += 1 }; if let folder { folders.insert(folder) }; return handedOver }
        guard parallel else {
            try work(frame)
            written(index)
            return index
        }
        workers.wait()
        let job = Job(frame: frame)
        queue.async(group: group) { [self] in
            defer { workers.signal() }
            do {
                try work(job.frame)
                written(index)
            } catch {
                lock.withLock { if failure.map({ index < $0.index }) ?? true { failure = (index, error) } }
            }
        }
        return index
    }

    private func written(_ index: Int) {
        lock.withLock {
            onDisk.insert(index)
            while onDisk.remove(leadingOnDisk) != nil { leadingOnDisk += 1 }
        }
    }

    /// Waits for every frame to be written, then flushes them to disk: one `syncfs` of each
    /// folder's file system instead of an fsync a frame. (A frame is "on disk" for the event log
    /// once renamed into place: a killed process leaves whole files; only a crash of the system
    /// before the end could lose what the summary, written after this, does not yet claim.)
    public func finish() throws {
        group.wait()
        try rethrow()
        for folder in lock.withLock({ folders }).sorted() {
            let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            guard syncfs(fd) == 0 else { throw TextReelError(file: folder, "cannot flush the frames to disk (\(String(cString: strerror(errno))))") }
        }
        lock.withLock { folders.removeAll() }
    }

    /// Throws the earliest frame's failure once every frame in flight has finished (an earlier
    /// one may still fail).
    private func rethrow() throws {
        guard lock.withLock({ failure }) != nil else { return }
        group.wait()
        if let failure = lock.withLock({ failure }) { throw failure.error }
    }

    /// A frame in flight: only the writer thread touches it once handed over.
    private struct Job: @unchecked Sendable { let frame: RenderedFrame }
}

/// Linux's `syncfs(2)` (Glibc declares it only under _GNU_SOURCE, which Swift's Glibc module
/// leaves out): flushes the file system holding `fd`.
@_silgen_name("syncfs") private func syncfs(_ fd: Int32) -> Int32
