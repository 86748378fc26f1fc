import CPango
import Foundation

/// What a golden frame depends on besides the document: library versions, the font files (by
/// SHA-256) and the font options. A different fingerprint explains a mismatch as environment
/// drift rather than a regression.
public struct EnvironmentFingerprint: Codable, Equatable, Sendable {
    /// Pango's version.
    public var pango: String
    /// HarfBuzz's version.
    public var harfbuzz: String
    /// Cairo's version.
    public var cairo: String
    /// FreeType's version ("unknown" when it cannot start).
    public var freetype: String
    /// fontconfig's version.
    public var fontconfig: String
    /// Font file name → SHA-256.
    public var fonts: [String: String]
    /// Antialiasing, hinting and resolution the fonts are rendered with.
    public var fontOptions: String
    /// The PNG writer that wrote the goldens: a different one writes other bytes for the same
    /// pixels (drift, not a failure; frames are then compared by decoding).
    public var pngEncoder: String?
    /// The helper process's libraries ("Pygments 2.14.0, matplotlib 3.6.3"): code's colours and
    /// math's outlines come from them.
    public var helperLibraries: String?

    /// The fingerprint of this machine for `fontSet`: hashing 60 MB of font files takes a tenth
    /// of a second, so it is done once per process (a suite asks for it once per case).
    /// `helperLibraries`: the versions of what the document reader's helper draws with
    /// (`HelperProcess.libraries`), which the engine cannot know.
    public static func current(fontSet: FontSet = .standard, helperLibraries: String?) -> EnvironmentFingerprint {
        let key = fontSet.files.joined(separator: "\n")
        // Computed under the lock: two workers asking at once hash the fonts once, not twice.
        var fingerprint = cacheLock.withLock {
            if let known = cache[key] { return known }
            let made = compute(fontSet: fontSet)
            cache[key] = made
            return made
        }
        fingerprint.helperLibraries = helperLibraries
        return fingerprint
    }

    nonisolated(unsafe) private static var cache: [String: EnvironmentFingerprint] = [:]
    private static let cacheLock = NSLock()

    private static func compute(fontSet: FontSet) -> EnvironmentFingerprint {
        var library: FT_Library?
        var freetype = "unknown"
        if FT_Init_FreeType(&library) == 0, let library {
            var major: FT_Int = 0, minor: FT_Int = 0, patch: FT_Int = 0
            FT_Library_Version(library, &major, &minor, &patch)
            freetype = "\(major).\(minor).\(patch)"
            FT_Done_FreeType(library)
        }
        let fc = Int(FcGetVersion())
        var fonts: [String: String] = [:]
        for (file, hash) in zip(fontSet.files, FontCache.knownHashes(of: fontSet.files, compute: sha256(ofFile:))) {
            // The name by splitting: `URL(fileURLWithPath:)` asks the file system whether each
            // of the font set's files is a folder.
            fonts[file.split(separator: "/").last.map(String.init) ?? file] = hash ?? "missing"
        }
        return EnvironmentFingerprint(
            pango: String(cString: pango_version_string()),
            harfbuzz: String(cString: hb_version_string()),
            cairo: String(cString: cairo_version_string()),
            freetype: freetype,
            fontconfig: "\(fc / 10000).\(fc / 100 % 100).\(fc % 100)",
            fonts: fonts,
            fontOptions: FontSystem.optionsDescription,
            pngEncoder: PNGWriter.encoderDescription,
            helperLibraries: nil)
    }

    /// Every field as a line, fonts sorted by name: the same fingerprint always gives the same
    /// text, for keys hashed from it (a JSON encoder with sorted keys took a millisecond).
    public var canonicalText: String {
        let libraries = [pango, harfbuzz, cairo, freetype, fontconfig, fontOptions, pngEncoder ?? "libpng", helperLibraries ?? "no helper"]
        return (libraries + fonts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }).joined(separator: "\n")
    }

    /// What differs from `other`, one line per item.
    public func differences(from other: EnvironmentFingerprint) -> [String] {
        var lines: [String] = []
        for (name, a, b) in [("Pango", pango, other.pango), ("HarfBuzz", harfbuzz, other.harfbuzz), ("Cairo", cairo, other.cairo),
                             ("FreeType", freetype, other.freetype), ("fontconfig", fontconfig, other.fontconfig),
                             ("font options", fontOptions, other.fontOptions),
                             ("PNG encoder", pngEncoder ?? "libpng", other.pngEncoder ?? "libpng"),
                             // Goldens recorded before the helper's libraries were named say nothing of them.
                             ("helper libraries", helperLibraries ?? "none", other.helperLibraries ?? helperLibraries ?? "none")] where a != b {
            lines.append("\(name) \(b) → \(a)")
        }
        // Font files by what happened to them; a long list is said in a line, with a few names.
        let names = Set(fonts.keys).union(other.fonts.keys).sorted()
        for (what, group) in [("added", names.filter { other.fonts[$0] == nil }), ("removed", names.filter { fonts[$0] == nil }),
                              ("changed", names.filter { fonts[$0] != nil && other.fonts[$0] != nil && fonts[$0] != other.fonts[$0] })] where !group.isEmpty {
            lines += group.count <= 3 ? group.map { "font file \($0) \(what)" }
                                      : ["\(group.count) font files \(what) (\(group.prefix(3).joined(separator: ", ")) …)"]
        }
        return lines
    }

    /// SHA-256 through GLib's checksum, streamed so large font files are not read at once.
    static func sha256(ofFile path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        let checksum = g_checksum_new(G_CHECKSUM_SHA256)
        defer { g_checksum_free(checksum) }
        while let chunk = try? handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            chunk.withUnsafeBytes { g_checksum_update(checksum, $0.baseAddress?.assumingMemoryBound(to: guchar.self), chunk.count) }
        }
        return String(cString: g_checksum_get_string(checksum))
    }
}
