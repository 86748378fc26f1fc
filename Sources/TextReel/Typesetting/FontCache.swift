import Foundation

/// Where the hermetic font configuration keeps its fontconfig cache: a folder per font set
/// (named by a hash of its file list) holding `fonts/` (symbolic links to the files) and
/// `cache/` (fontconfig's cache files for that folder). Under `$TEXTREEL_FONT_CACHE`, else
/// `$XDG_CACHE_HOME/textreel`, else `~/.cache/textreel`; `TEXTREEL_FONT_CACHE=off` turns it off.
/// The fonts and every pixel are the same with or without it.
enum FontCache {
    static func folder(for fontSet: FontSet) -> (fonts: URL, cache: URL)? {
        let environment = ProcessInfo.processInfo.environment
        if environment["TEXTREEL_FONT_CACHE"] == "off" { return nil }
        let base: URL
        if let explicit = environment["TEXTREEL_FONT_CACHE"], !explicit.isEmpty {
            base = URL(fileURLWithPath: explicit)
        } else if let xdg = environment["XDG_CACHE_HOME"], !xdg.isEmpty {
            base = URL(fileURLWithPath: xdg).appendingPathComponent("textreel")
        } else if let home = environment["HOME"], !home.isEmpty {
            base = URL(fileURLWithPath: home).appendingPathComponent(".cache/textreel")
        } else {
            return nil
        }
        // Named by the files' paths, sizes and times: a font file that changes gets a new
        // folder (fontconfig itself checks only the folder's time).
        let identity = fontSet.files.map { file -> String in
            let attributes = try? FileManager.default.attributesOfItem(atPath: file)
            let size = (attributes?[.size] as? Int) ?? -1
            let time = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? -1
            return "\(file)|\(size)|\(time)"
        }
        let name = String(StableHash.of(identity.joined(separator: "\n")), radix: 16)
        let folder = base.appendingPathComponent("fonts-\(name)")
        let fonts = folder.appendingPathComponent("fonts"), cache = folder.appendingPathComponent("cache")
        let fm = FileManager.default
        if !fm.fileExists(atPath: fonts.path) {
            // Built aside and renamed into place, so concurrent first runs never see half a folder.
            // Unique per attempt: threads of one process may build it at the same time.
            let staging = base.appendingPathComponent(".fonts-\(name).\(getpid()).\(UUID().uuidString)")
            try? fm.removeItem(at: staging)
            do {
                try fm.createDirectory(at: staging.appendingPathComponent("fonts"), withIntermediateDirectories: true)
                try fm.createDirectory(at: staging.appendingPathComponent("cache"), withIntermediateDirectories: true)
                for (i, file) in fontSet.files.enumerated() {
                    // Numbered, so the folder lists the files in the font set's order.
                    let link = staging.appendingPathComponent("fonts").appendingPathComponent(String(format: "%02d-", i) + URL(fileURLWithPath: file).lastPathComponent)
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
        return (fonts, cache)
    }

    /// A path inside fontconfig's XML.
    static func escape(_ path: String) -> String {
        path.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
