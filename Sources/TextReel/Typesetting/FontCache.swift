import Foundation
import Synchronization

/// Where the hermetic font configuration keeps its fontconfig cache: a folder per font set
/// (named by a hash of its file list) holding `fonts/` (symbolic links to the files) and
/// `cache/` (fontconfig's cache files for that folder). Under `$TEXTREEL_FONT_CACHE`, else
/// `$XDG_CACHE_HOME/textreel`, else `~/.cache/textreel`; `TEXTREEL_FONT_CACHE=off` turns it off.
/// The fonts and every pixel are the same with or without it.
package enum FontCache {
    /// The cache's root folder, or nil when it is off or there is no home.
    package static func baseFolder() -> URL? {
        let environment = ProcessInfo.processInfo.environment
        if environment["TEXTREEL_FONT_CACHE"] == "off" { return nil }
        if let explicit = environment["TEXTREEL_FONT_CACHE"], !explicit.isEmpty { return URL(fileURLWithPath: explicit) }
        if let xdg = environment["XDG_CACHE_HOME"], !xdg.isEmpty { return URL(fileURLWithPath: xdg).appendingPathComponent("textreel") }
        if let home = environment["HOME"], !home.isEmpty { return URL(fileURLWithPath: home).appendingPathComponent(".cache/textreel") }
        return nil
    }

    static func folder(for fontSet: FontSet, rebuilding: Bool = false) -> (fonts: URL, cache: URL)? {
        guard let base = baseFolder() else { return nil }
        // Named by the files' paths, sizes and times, so a font file that changes gets a new
        // folder (fontconfig itself checks only the folder's time); "fonts2": the links'
        // numbering changed.
        let name = identity(of: fontSet.files)
        let folder = base.appendingPathComponent("fonts2-\(name)")
        let fonts = folder.appendingPathComponent("fonts"), cache = folder.appendingPathComponent("cache")
        let fm = FileManager.default
        if !fm.fileExists(atPath: fonts.path) {
            // Built aside and renamed into place, so concurrent first runs never see half a folder.
            // Unique per attempt: threads of one process may build it at the same time.
            let staging = base.appendingPathComponent(".fonts2-\(name).\(getpid()).\(UUID().uuidString)")
            try? fm.removeItem(at: staging)
            do {
                try fm.createDirectory(at: staging.appendingPathComponent("fonts"), withIntermediateDirectories: true)
                try fm.createDirectory(at: staging.appendingPathComponent("cache"), withIntermediateDirectories: true)
                // Numbered with as many digits as the last number, so that fontconfig's scan
                // (sorted by name) lists the files in the font set's order: with 193 files,
                // two digits sorted "100-" before "11-".
                let digits = String(max(fontSet.files.count - 1, 0)).count
                for (i, file) in fontSet.files.enumerated() {
                    let link = staging.appendingPathComponent("fonts").appendingPathComponent(String(format: "%0*d-", digits, i) + URL(fileURLWithPath: file).lastPathComponent)
                    try fm.createSymbolicLink(atPath: link.path, withDestinationPath: file)
                }
                if rename(staging.path, folder.path) != 0 { try? fm.removeItem(at: staging) }
            } catch {
                try? fm.removeItem(at: staging)
            }
        }
        // Only a complete folder is used (one link per file); anything else falls back to adding files.
        guard (try? fm.contentsOfDirectory(atPath: fonts.path))?.count == fontSet.files.count,
              fm.fileExists(atPath: cache.path) else { return nil }
        // Each link must still point at its pinned file: one re-pointed at another font would
        // change pixels silently. Such a folder is set aside and built again, once.
        guard linksPoint(in: fonts, at: fontSet.files) else {
            guard !rebuilding else { return nil }
            let aside = base.appendingPathComponent(".fonts2-\(name).tampered.\(getpid()).\(UUID().uuidString)")
            if rename(folder.path, aside.path) == 0 { try? fm.removeItem(at: aside) }
            return self.folder(for: fontSet, rebuilding: true)
        }
        return (fonts, cache)
    }

    /// Whether the links in `fonts`, in name order, point at `files`, in order.
    private static func linksPoint(in fonts: URL, at files: [String]) -> Bool {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: fonts.path).sorted(), names.count == files.count else { return false }
        return zip(names, files).allSatisfy { name, file in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: fonts.appendingPathComponent(name).path)) == file
        }
    }

    /// The SHA-256 of each file, remembered in the cache folder under the files' paths, sizes
    /// and times (a changed file gets a new entry), so that golden fingerprints do not hash 60 MB
    /// of fonts in every process. One entry for the whole list: one file read per process (an
    /// entry per font was 23 reads of a first frame). nil for a file that cannot be read.
    static func knownHashes(of files: [String], compute: (String) -> String?) -> [String?] {
        guard let base = baseFolder() else { return files.map(compute) }
        let entry = base.appendingPathComponent("hashes").appendingPathComponent(identity(of: files))
        if let data = FileManager.default.contents(atPath: entry.path) {
            // Checked as bytes: counting 193 hashes' characters as Strings was a millisecond.
            let known = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            if known.count == files.count, known.allSatisfy({ $0.count == 64 || $0.elementsEqual("-".utf8) }) {
                return known.map { $0.count == 64 ? String(decoding: $0, as: UTF8.self) : nil }
            }
        }
        let hashes = files.map(compute)
        try? FileManager.default.createDirectory(at: entry.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? AtomicFile.write(Data(hashes.map { $0 ?? "-" }.joined(separator: "\n").utf8), to: entry)
        return hashes
    }

    /// A hash of the files' paths, sizes and modification times, in hexadecimal: made once per
    /// process for each list (the font thread and the fingerprint both ask).
    private static func identity(of files: [String]) -> String {
        let key = files.joined(separator: "\n")
        if let found = identities.withLock({ $0[key] }) { return found }
        let lines = zip(files, statuses(of: files)).map { file, status in "\(file)|\(status?.size ?? -1)|\(status?.modified ?? -1)" }
        let made = String(StableHash.of(lines.joined(separator: "\n")), radix: 16)
        identities.withLock { $0[key] = made }
        return made
    }

    private static let identities = Mutex<[String: String]>([:])

    /// Each file's status (nil: missing), found once per process for each list, under the lock
    /// (two threads setting up fonts at once stat them once): every thread's font system asks,
    /// and a font set of 190 files was 1,100 `stat` calls of a first frame.
    package static func statuses(of files: [String]) -> [FileStatus?] {
        known.withLock { known in
            let key = files.joined(separator: "\n")
            if let found = known[key] { return found }
            let found = files.map { FileStatus(path: $0) }
            known[key] = found
            return found
        }
    }

    private static let known = Mutex<[String: [FileStatus?]]>([:])

    /// A path inside fontconfig's XML.
    static func escape(_ path: String) -> String {
        path.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
