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
        AtomicFile.removeStaleTemporaries(in: url)
        // A full run replaces the frames of an earlier, longer one.
        if fullRun, let names = try? FileManager.default.contentsOfDirectory(atPath: url.path) {
            for name in names where name.wholeMatch(of: /frame-\d{5}\.png/) != nil {
                try? FileManager.default.removeItem(at: url.appendingPathComponent(name))
            }
        }
        return lock
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

    func append(_ line: Data) throws {
        if let failure = AtomicFile.writeAll(line, to: fd) {
            throw TextReelError(file: url.path, "cannot write (\(String(cString: strerror(failure))))")
        }
    }

    deinit { close(fd) }
}
