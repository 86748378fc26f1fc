import Foundation

/// The project's one way to write a file so that no half file is ever seen under its real name:
/// written under `.<name>.<pid>.tmp` in the same folder (open, write, fsync), then renamed into
/// place by `commit()`. Dropped if never committed. We write the temporary file ourselves rather
/// than through Foundation's `.atomic` option, whose temporary names we do not control: a run
/// killed mid-write leaves only names that `isTemporaryName(_:)` recognises.
public final class AtomicFile {
    /// The file's real name, where `commit()` puts it.
    public let url: URL
    /// Its path, worked on as a string: `URL.appendingPathComponent` asks the file system whether
    /// the name is a folder, a stat for every file written.
    private let path: String
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
        path = url.path
        self.durable = durable
        if let kind = FileStatus(path: path)?.kind, kind != .regular, kind != .directory {
            temporary = nil
            fd = open(path, O_WRONLY | O_CLOEXEC)
        } else {
            let temporary = Self.temporaryPath(for: path)
            self.temporary = temporary
            fd = open(temporary, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0o644)
        }
        guard fd >= 0 else {
            throw TextReelError(file: path, "cannot write (\(String(cString: strerror(errno)))); expected a writable folder")
        }
    }

    /// `.<name>.<pid>.<n>.tmp` beside `path`: the process and a number of its own, so two
    /// threads writing one name never share a temporary.
    private static func temporaryPath(for path: String) -> String {
        let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        return "\(path[..<slash]).\(path[slash...]).\(getpid()).\(nextNumber()).tmp"
    }

    /// Gives the finished file at `source` the name `url` too (a hard link), as atomically as
    /// writing it: straight to the name when it is free, else beside it and renamed over it.
    /// False when that cannot be done (a file system without links, another device, `url` a
    /// device or pipe): the caller writes the bytes instead.
    public static func link(_ source: String, to url: URL) -> Bool {
        let path = url.path
        if Foundation.link(source, path) == 0 { return true }
        guard errno == EEXIST, FileStatus(path: path)?.kind == .regular else { return false }
        let temporary = temporaryPath(for: path)
        guard Foundation.link(source, temporary) == 0 else { return false }
        // Renaming onto another name of the same file leaves the temporary in place.
        defer { unlink(temporary) }
        return rename(temporary, path) == 0
    }

    /// Writes `data` over `old`, a finished file no visible name refers to (an earlier render's
    /// frame, set aside), and renames it to `url`: the file system reuses its inode and, for bytes
    /// of about its size, its blocks, instead of finding new ones. As atomic as `write`: `url`
    /// appears whole or not at all. False when `old` cannot be written or moved (it is then
    /// gone): the caller writes a new file. Not flushed (`durable` false only).
    public static func overwrite(_ old: String, with data: Data, to url: URL) -> Bool {
        let fd = open(old, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        let written = writeAll(data, to: fd) == nil && ftruncate(fd, off_t(data.count)) == 0
        close(fd)
        guard written, rename(old, url.path) == 0 else { unlink(old); return false }
        return true
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
            throw TextReelError(file: path, "cannot write (\(String(cString: strerror(failure))))")
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
        guard !durable || fsync(fd) == 0 else { throw TextReelError(file: path, "cannot write (\(String(cString: strerror(errno))))") }
        close(fd)
        fd = -1
        guard rename(temporary, path) == 0 else {
            throw TextReelError(file: path, "cannot move the finished file into place (\(String(cString: strerror(errno))))")
        }
        committed = true
    }

    deinit {
        if fd >= 0 { close(fd) }
        if !committed, let temporary { unlink(temporary) }
    }

    /// A per-process number in each temporary name.
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
