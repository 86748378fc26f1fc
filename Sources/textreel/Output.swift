import Foundation
import TextReel

/// Creates the output folder and checks that it is writable, before any work is done.
enum OutputFolder {
    /// An exclusive lock on an output folder, so two renders never write into it at once.
    final class Lock {
        let fd: Int32
        let path: String
        init(fd: Int32, path: String) { self.fd = fd; self.path = path }
        func release() {
            unlink(path)
            close(fd)
        }
    }

    @discardableResult
    static func prepare(_ url: URL, removingFramesOf fullRun: Bool) throws -> Lock {
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
        // A full run replaces the frames of an earlier, longer one.
        if fullRun, let names = try? FileManager.default.contentsOfDirectory(atPath: url.path) {
            for name in names where name.wholeMatch(of: /frame-\d{5}\.png/) != nil {
                try? FileManager.default.removeItem(at: url.appendingPathComponent(name))
            }
        }
        return lock
    }
}

/// A file written under a temporary name and renamed into place by `commit()`; dropped if the
/// run fails first, so no half file is ever left under the real name.
final class AtomicFile {
    let url: URL
    private let temporary: URL
    private let handle: FileHandle
    private var committed = false

    init(_ url: URL) throws {
        self.url = url
        temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil),
              let handle = FileHandle(forWritingAtPath: temporary.path) else {
            throw TextReelError(file: url.path, "cannot write; expected a writable output folder")
        }
        self.handle = handle
    }

    func append(_ data: Data) throws {
        do { try handle.write(contentsOf: data) } catch {
            throw TextReelError(file: url.path, "cannot write (\(error.localizedDescription))")
        }
    }

    func commit() throws {
        try handle.close()
        guard rename(temporary.path, url.path) == 0 else {
            throw TextReelError(file: url.path, "cannot move the finished file into place")
        }
        committed = true
    }

    deinit {
        if !committed {
            try? handle.close()
            unlink(temporary.path)
        }
    }
}
