import Foundation

/// The project's one way to write a file so that no half file is ever seen under its real name:
/// written under `.<name>.<pid>.tmp` in the same folder (open, write, fsync), then renamed into
/// place by `commit()`. Dropped if never committed. We write the temporary file ourselves rather
/// than through Foundation's `.atomic` option, whose temporary names we do not control: a run
/// killed mid-write leaves only names that `isTemporaryName(_:)` recognises.
public final class AtomicFile {
    /// The file's real name, where `commit()` puts it.
    public let url: URL
    /// nil when writing straight to a device or pipe (`/dev/null`, `/dev/stdout`, a FIFO):
    /// renaming over one would replace it with a plain file.
    private let temporary: String?
    private var fd: Int32
    private var committed = false
    /// Whether `commit()` flushes the file to disk before renaming it (else the caller flushes
    /// many at once, as `FrameWriter` does: one fsync a frame was a fifth of a render's time).
    private let durable: Bool

    /// Opens a temporary file beside `url` (or a device or pipe at `url` itself) for writing.
    public init(_ url: URL, durable: Bool = true) throws {
        self.url = url
        self.durable = durable
        if let kind = FileStatus(path: url.path)?.kind, kind != .regular, kind != .directory {
            temporary = nil
            fd = open(url.path, O_WRONLY | O_CLOEXEC)
        } else {
            // The process and a number of its own: two threads writing one name never share a temporary.
            let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).\(Self.nextNumber()).tmp").path
            self.temporary = temporary
            fd = open(temporary, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0o644)
        }
        guard fd >= 0 else {
            throw TextReelError(file: url.path, "cannot write (\(String(cString: strerror(errno)))); expected a writable folder")
        }
    }

    /// Writes `data` at once, atomically (and flushed to disk unless `durable` is false).
    public static func write(_ data: Data, to url: URL, durable: Bool = true) throws {
        let file = try AtomicFile(url, durable: durable)
        try file.append(data)
        try file.commit()
    }

    /// Writes all of `data` at the end of the temporary file.
    public func append(_ data: Data) throws {
        if let failure = AtomicFile.writeAll(data, to: fd) {
            throw TextReelError(file: url.path, "cannot write (\(String(cString: strerror(failure))))")
        }
    }

    /// Writes all of `data` to `fd` (again after a signal or a short write); the errno of a
    /// failure, or nil.
    public static func writeAll(_ data: Data, to fd: Int32) -> Int32? {
        data.withUnsafeBytes { raw -> Int32? in
            var offset = 0
            while offset < raw.count {
                let n = Foundation.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return errno }
                offset += n
            }
            return nil
        }
    }

    /// Flushes the file to disk (when durable) and renames it into place.
    public func commit() throws {
        guard let temporary else {
            close(fd)
            fd = -1
            committed = true
            return
        }
        guard !durable || fsync(fd) == 0 else { throw TextReelError(file: url.path, "cannot write (\(String(cString: strerror(errno))))") }
        close(fd)
        fd = -1
        guard rename(temporary, url.path) == 0 else {
            throw TextReelError(file: url.path, "cannot move the finished file into place (\(String(cString: strerror(errno))))")
        }
        committed = true
    }

    deinit {
        if fd >= 0 { close(fd) }
        if !committed, let temporary { unlink(temporary) }
    }

    /// A per-process number in each temporary name, so two threads writing one name never share a temporary.
    private static let counterLock = NSLock()
    nonisolated(unsafe) private static var counter = 0
    private static func nextNumber() -> Int { counterLock.withLock { counter += 1; return counter } }

    /// Whether `name` is a temporary of ours (`.<name>.<pid>.<n>.tmp`, or `.<name>.<pid>.tmp` of
    /// earlier versions) or of Foundation's (`.dat.nosync…`), left by a run that died (SIGKILL, a
    /// crash): remove such files only while holding the folder's lock, when no other run writes
    /// there. Checked by hand, not with a regex literal, which Swift parses anew at each use:
    /// that was a tenth of rendering again into a folder of 300 frames.
    public static func isTemporaryName(_ name: String) -> Bool {
        if name.hasPrefix(".dat.nosync") { return true }
        guard name.hasPrefix("."), name.hasSuffix(".tmp") else { return false }
        let core = name.utf8.dropFirst().dropLast(4)
        guard let dot = core.lastIndex(of: UInt8(ascii: ".")) else { return false }
        let number = core[core.index(after: dot)...]
        return dot > core.startIndex && !number.isEmpty && number.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }
}
