import Foundation

/// GitHub's emoji shortcodes (`:tada:`, `:+1:`, `:white_check_mark:`) as emoji. The names come
/// from Debian's ruby-tanuki-emoji (GitLab's emoji data: EmojiOne's alpha codes and their
/// aliases, which hold GitHub's gemoji names), read once, when the first paragraph with a
/// shortcode-like run is read; not a table typed by hand. Unknown names stay text, and code (a
/// code span or block) is never touched.
enum EmojiShortcodes {
    /// Where the package keeps the names (its folder carries the gem's version).
    static let folder = "/usr/share/rubygems-integration/all/gems"

    /// Name (with its colons) → the emoji, fully qualified. Empty when the package is missing.
    static let table: [String: String] = {
        guard let gem = (try? FileManager.default.contentsOfDirectory(atPath: folder))?.filter({ $0.hasPrefix("tanuki_emoji-") }).sorted().last,
              let data = FileManager.default.contents(atPath: "\(folder)/\(gem)/vendor/emojione-alpha-codes/eac.json"),
              let entries = try? JSONDecoder().decode([String: Entry].self, from: data) else { return [:] }
        var table: [String: String] = [:]
        // Sorted, so a name two entries claim always maps to the same one.
        for (_, entry) in entries.sorted(by: { $0.key < $1.key }) {
            let scalars = entry.output.split(separator: "-").compactMap { UInt32($0, radix: 16).flatMap(Unicode.Scalar.init) }
            let emoji = String(String.UnicodeScalarView(scalars))
            for name in [entry.alpha_code] + entry.aliases.split(separator: "|").map(String.init) where !name.isEmpty && table[name] == nil {
                table[name] = emoji
            }
        }
        return table
    }()

    private struct Entry: Decodable {
        let output: String
        let alpha_code: String
        let aliases: String
    }

    /// The known shortcodes in `text` outside `excluded` byte ranges, with their emoji.
    static func matches(in text: String, excluding excluded: [Range<Int>]) -> [(range: Range<Int>, emoji: String)] {
        guard text.utf8.count >= 3, UTF8Text.contains(UInt8(ascii: ":"), in: text) else { return [] }
        let bytes = Array(text.utf8)
        var found: [(Range<Int>, String)] = []
        var i = 0
        while i < bytes.count {
            guard bytes[i] == UInt8(ascii: ":") else { i += 1; continue }
            var j = i + 1
            while j < bytes.count, j - i <= 64, isNameByte(bytes[j]) { j += 1 }
            if j < bytes.count, j > i + 1, bytes[j] == UInt8(ascii: ":"), !excluded.contains(where: { $0.overlaps(i..<j + 1) }),
               let emoji = table[String(decoding: bytes[i...j], as: UTF8.self)] {
                found.append((i..<j + 1, emoji))
                i = j + 1
            } else {
                i = j
            }
        }
        return found
    }

    private static func isNameByte(_ b: UInt8) -> Bool {
        (0x61...0x7A).contains(b) || (0x30...0x39).contains(b) || b == 0x5F || b == 0x2B || b == 0x2D
    }
}
