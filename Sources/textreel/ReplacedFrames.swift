import Foundation
import Synchronization

/// The frames of an earlier render that a full run replaces. They are moved aside at once, a
/// rename each, into a hidden folder of the output folder. Those that are files of their own
/// (not hard links of repeated frames) are handed to the new frames to be overwritten and renamed
/// into place (`take()`): a new file costs the file system an inode and blocks, and after many
/// deletions finding a free inode was a sixth of a 300-frame render. The rest are deleted on a
/// thread of their own while the new frames are drawn. `finish()` waits for that and deletes what
/// was not taken; a run killed meanwhile leaves the hidden folder, which the next render into that
/// folder deletes.
final class ReplacedFrames: Sendable {
    /// The hidden folders' names begin with this, then six characters of their own.
    static let prefix = ".textreel-replaced-"

    /// The hidden folder (nil when it could not be made: the frames are then deleted at once).
    private let aside: String?
    /// Set-aside files no other name refers to, free to be overwritten.
    private let reusable = Mutex<[String]>([])
    private let done = DispatchGroup()

    /// Moves `frames` (names in `folder`, and whether each is its file's only name) aside and
    /// starts deleting the linked ones, and the hidden folders named in `stale`, which killed runs
    /// left. Call it only while holding the folder's lock.
    init(_ frames: [(name: String, only: Bool)], stale: [String], in folder: String) {
        // A name of its own (a killed run's folder is never this one, whatever its process id).
        var template = Array((folder + "/" + Self.prefix + "XXXXXX").utf8CString)
        let aside = frames.isEmpty ? nil : template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }.map { String(cString: $0) }
        self.aside = aside
        var moved: [String] = [], linked: [String] = []
        if let aside {
            for (name, only) in frames {
                // One that cannot be moved is deleted where it is.
                if rename(folder + "/" + name, aside + "/" + name) == 0 {
                    if only { moved.append(aside + "/" + name) } else { linked.append(aside + "/" + name) }
                } else {
                    unlink(folder + "/" + name)
                }
            }
        } else {
            for (name, _) in frames { unlink(folder + "/" + name) }
        }
        // Taken from the end: the first frames' files first.
        reusable.withLock { $0 = moved.reversed() }
        let folders = stale.map { folder + "/" + $0 }
        guard !linked.isEmpty || !folders.isEmpty else { return }
        DispatchQueue.global(qos: .utility).async(group: done) { [linked] in
            for file in linked { unlink(file) }
            for folder in folders { try? FileManager.default.removeItem(atPath: folder) }
        }
    }

    /// Keeps no more than `count` files to be taken (the frames a render will write) and deletes
    /// the rest on the deleting thread, not at the end.
    func keep(_ count: Int) {
        let surplus = reusable.withLock { files -> [String] in
            let cut = max(files.count - max(count, 0), 0)
            defer { files.removeFirst(cut) }
            return Array(files.prefix(cut))
        }
        guard !surplus.isEmpty else { return }
        DispatchQueue.global(qos: .utility).async(group: done) { for file in surplus { unlink(file) } }
    }

    /// A set-aside file to overwrite and rename into place (then it is the caller's), or nil.
    func take() -> String? { reusable.withLock { $0.popLast() } }

    /// Waits until the replaced frames are deleted, and deletes those not taken.
    func finish() {
        done.wait()
        for file in reusable.withLock({ files in defer { files.removeAll() }; return files }) { unlink(file) }
        if let aside { rmdir(aside) }
    }
}
