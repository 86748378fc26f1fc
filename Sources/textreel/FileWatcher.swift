import Foundation
import TextReelMarkdown

/// Waits for files to change, as editors save them: written in place, written to a temporary
/// name and renamed over it, deleted and created again (a change is a file closed after writing,
/// renamed into place or touched). inotify on each file's folder (a rename
/// replaces the file's inode, so the file itself cannot be watched); waiting costs nothing.
/// A burst of events (a save is often several) is one change: events within `settle` of the
/// last are read together.
final class FileWatcher {
    private let descriptor: Int32
    /// Each watched folder, as given, and the names watched in it, by watch descriptor.
    private var folders: [Int32: (path: String, names: Set<String>)] = [:]
    static let settle: Int32 = 5   // milliseconds: an editor's save (write, rename) takes about one

    convenience init(_ url: URL) throws { try self.init([url]) }

    init(_ urls: [URL]) throws {
        descriptor = inotify_init1(Int32(IN_CLOEXEC))
        guard descriptor >= 0 else { throw TextReelError("cannot watch files (\(String(cString: strerror(errno))))") }
        do { try watch(urls) } catch {
            close(descriptor)
            throw error
        }
    }

    deinit { close(descriptor) }

    /// Watches `urls` too (files a new version names: its images). A folder watched already is
    /// the same watch.
    func watch(_ urls: [URL]) throws {
        // A file closed after writing, renamed into place, or touched: never one still being
        // written (an editor truncates, writes and closes; a version read between would be cut).
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_ATTRIB)
        for url in urls {
            let folder = url.deletingLastPathComponent().relativePath
            let watch = inotify_add_watch(descriptor, folder.isEmpty ? "." : folder, mask)
            // A folder not made yet (an image's): watched once a later look finds it.
            if watch < 0 && (errno == ENOENT || errno == ENOTDIR) { continue }
            guard watch >= 0 else { throw TextReelError(file: url.path, "cannot watch its folder (\(String(cString: strerror(errno))))") }
            folders[watch, default: (folder, [])].names.insert(url.lastPathComponent)
        }
    }

    /// Waits until watched files changed, and gives their paths (folder as given, then name);
    /// nil when `stop()` says to stop
    /// (asked every tenth of a second).
    func waitForChange(stop: () -> Bool) -> [String]? {
        var changed = Set<String>()
        while true {
            var watched = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&watched, 1, changed.isEmpty ? 100 : Self.settle)
            if ready < 0 && errno != EINTR { return nil }
            if ready > 0 {
                changed.formUnion(readEvents())
                continue
            }
            if !changed.isEmpty { return changed.sorted() }
            if stop() { return nil }
        }
    }

    /// The watched files changed since the last look, without waiting for one (a burst still
    /// arriving is waited for, `settle` at a time); nil when none did.
    func pendingChange() -> [String]? {
        var changed = Set<String>()
        while true {
            var watched = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&watched, 1, changed.isEmpty ? 0 : Self.settle) > 0 else { break }
            changed.formUnion(readEvents())
        }
        return changed.isEmpty ? nil : changed.sorted()
    }

    /// Reads the pending events: the paths of the watched files they name.
    private func readEvents() -> Set<String> {
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return [] }
        var offset = 0, named = Set<String>()
        let header = MemoryLayout<inotify_event>.size
        while offset + header <= count {
            let event = buffer.withUnsafeBytes { $0.load(fromByteOffset: offset, as: inotify_event.self) }
            let length = Int(event.len)
            let name = String(decoding: buffer[(offset + header)..<min(offset + header + length, count)].prefix { $0 != 0 }, as: UTF8.self)
            func path(_ folder: String, _ name: String) -> String { folder == "." || folder.isEmpty ? name : folder + "/" + name }
            if event.mask & UInt32(IN_Q_OVERFLOW) != 0 {
                // Events were lost: any watched file may have changed.
                for folder in folders.values { named.formUnion(folder.names.map { path(folder.path, $0) }) }
            } else if event.mask & UInt32(IN_IGNORED) != 0, let folder = folders.removeValue(forKey: event.wd) {
                // The folder itself went (a branch switched): its files changed; `watch` adds it again.
                named.formUnion(folder.names.map { path(folder.path, $0) })
            } else if let folder = folders[event.wd], folder.names.contains(name) {
                named.insert(path(folder.path, name))
            }
            offset += header + length
        }
        return named
    }
}
