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
        let name = String(StableHash.of(fontSet.files.joined(separator: "\n")), radix: 16)
        let folder = base.appendingPathComponent("fonts-\(name)")
        let fonts = folder.appendingPathComponent("fonts"), cache = folder.appendingPathComponent("cache")
        let fm = FileManager.default
        if !fm.fileExists(atPath: fonts.path) {
            // Built aside and renamed into place, so concurrent first runs never see half a folder.
            let staging = base.appendingPathComponent(".fonts-\(name).\(getpid())")
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
        guard fm.fileExists(atPath: fonts.path), fm.isWritableFile(atPath: cache.path) || fm.fileExists(atPath: cache.path) else { return nil }
        return (fonts, cache)
    }

    /// A path inside fontconfig's XML.
    static func escape(_ path: String) -> String {
        path.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
