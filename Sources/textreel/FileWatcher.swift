import Foundation
import TextReelMarkdown

/// Waits for a file to change, as editors save it: written in place, written to a temporary
/// name and renamed over it, deleted and created again. inotify on the file's folder (a rename
/// replaces the file's inode, so the file itself cannot be watched); waiting costs nothing.
/// A burst of events (a save is often several) is one change: events within `settle` of the
/// last are read together.
final class FileWatcher {
    private let descriptor: Int32
    private let name: String
    static let settle: Int32 = 30   // milliseconds

    init(_ url: URL) throws {
        descriptor = inotify_init1(Int32(IN_CLOEXEC))
        name = url.lastPathComponent
        let folder = url.deletingLastPathComponent().path
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MODIFY | IN_ATTRIB)
        guard descriptor >= 0, inotify_add_watch(descriptor, folder.isEmpty ? "." : folder, mask) >= 0 else {
            throw TextReelError(file: url.path, "cannot watch its folder (\(String(cString: strerror(errno))))")
        }
    }

    deinit { close(descriptor) }

    /// Waits until the file changed (true), or until `stop()` says to stop (false), checking it
    /// every tenth of a second.
    func waitForChange(stop: () -> Bool) -> Bool {
        var changed = false
        while true {
            var watched = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&watched, 1, changed ? Self.settle : 100)
            if ready < 0 && errno != EINTR { return false }
            if ready > 0 {
                changed = readEvents() || changed
                continue
            }
            if changed { return true }
            if stop() { return false }
        }
    }

    /// Reads the pending events; whether one names the file.
    private func readEvents() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return false }
        var offset = 0, named = false
        let header = MemoryLayout<inotify_event>.size
        while offset + header <= count {
            let length = buffer.withUnsafeBytes { Int($0.load(fromByteOffset: offset, as: inotify_event.self).len) }
            let nameBytes = buffer[(offset + header)..<min(offset + header + length, count)].prefix { $0 != 0 }
            if String(decoding: nameBytes, as: UTF8.self) == name { named = true }
            offset += header + length
        }
        return named
    }
}
