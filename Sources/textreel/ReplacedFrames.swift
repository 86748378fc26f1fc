import Foundation

/// The frames of an earlier render that a full run replaces. They are moved aside at once, a
/// rename each, into a hidden folder of the output folder, and deleted there on a thread of their
/// own while the new frames are drawn: deleting a file frees its blocks and, on a file system
/// mounted with `discard`, waits for the device, which cost a render into a folder of 300 frames
/// a sixth of its time before its first frame. `finish()` waits for the deletion; a run killed
/// meanwhile leaves the hidden folder, which the next render into that folder deletes.
final class ReplacedFrames: Sendable {
    /// The hidden folders' names begin with this, then the process id.
    static let prefix = ".textreel-replaced-"

    private let done = DispatchGroup()

    /// Moves `frames` (names in `folder`) aside and starts deleting them, and the hidden folders
    /// named in `stale`, which killed runs left. Call it only while holding the folder's lock.
    init(_ frames: [String], stale: [String], in folder: String) {
        let aside = Self.prefix + "\(getpid())"
        var moved = false
        if !frames.isEmpty, mkdir(folder + "/" + aside, 0o700) == 0 || errno == EEXIST {
            for name in frames {
                // One that cannot be moved is deleted where it is.
                if rename(folder + "/" + name, folder + "/" + aside + "/" + name) == 0 { moved = true } else { unlink(folder + "/" + name) }
            }
        } else {
            for name in frames { unlink(folder + "/" + name) }
        }
        let folders = ((moved ? [aside] : []) + stale.filter { $0 != aside }).map { folder + "/" + $0 }
        guard !folders.isEmpty else { return }
        DispatchQueue.global(qos: .utility).async(group: done) {
            for folder in folders { try? FileManager.default.removeItem(atPath: folder) }
        }
    }

    /// Waits until the replaced frames are deleted.
    func finish() { done.wait() }
}
