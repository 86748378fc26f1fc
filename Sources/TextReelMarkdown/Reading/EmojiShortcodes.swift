import Foundation
import TextReel

/// GitHub's emoji shortcodes (`:tada:`, `:+1:`, `:white_check_mark:`) as emoji. The names come
/// from Debian's ruby-tanuki-emoji (GitLab's emoji data: EmojiOne's alpha codes and their
/// aliases, which hold GitHub's gemoji names), read once, when the first paragraph with a
/// shortcode-like run is read; not a table typed by hand. Names it lacks (emoji since Unicode
/// 12, such as `:smiling_face_with_tear:`, and gemoji's own, such as `:hugs:` and `:fu:`) come
/// from Debian's python3-emoji, whose data holds each emoji's CLDR name and GitHub's aliases.
/// Unknown names stay text, and code (a code span or block) is never touched.
enum EmojiShortcodes {
    /// Where the package keeps the names (its folder carries the gem's version).
    static let folder = "/usr/share/rubygems-integration/all/gems"

    /// Name (with its colons) → the emoji, fully qualified. Empty when neither package is there.
    /// Kept, as lines of a name and its emoji, in the cache folder the fonts use, under a name
    /// made from the two files' paths, sizes and times: reading both files took 35 ms of a
    /// render whose document had one shortcode.
    static let table: [String: String] = {
        let sources = [tanukiData, pythonEmojiData].compactMap { $0 }
        let identity = zip(sources, FontCache.statuses(of: sources)).map { "\($0)|\($1?.size ?? -1)|\($1?.modified ?? -1)" }
        let cached = FontCache.baseFolder()?.appendingPathComponent("emoji").appendingPathComponent(String(StableHash.of(identity.joined(separator: "\n")), radix: 16))
        if let cached, let data = FileManager.default.contents(atPath: cached.path) {
            var table: [String: String] = [:]
            for line in data.split(separator: UInt8(ascii: "\n")) {
                guard let tab = line.firstIndex(of: UInt8(ascii: "\t")) else { continue }
                table[String(decoding: line[..<tab], as: UTF8.self)] = String(decoding: line[(tab + 1)...], as: UTF8.self)
            }
            return table
        }
        let table = built()
        if let cached {
            try? FileManager.default.createDirectory(at: cached.deletingLastPathComponent(), withIntermediateDirectories: true)
            let lines = table.sorted { $0.key < $1.key }.map { "\($0.key)\t\($0.value)\n" }.joined()
            try? AtomicFile.write(Data(lines.utf8), to: cached, durable: false)
        }
        return table
    }()

    /// The table from the two packages' files: tanuki's names first.
    static func built() -> [String: String] {
        var table: [String: String] = [:]
        for (name, emoji) in tanukiNames() + (FileManager.default.contents(atPath: pythonEmojiData).map { pythonEmojiNames([UInt8]($0)) } ?? [])
        where table[name] == nil {
            table[name] = emoji
        }
        return table
    }

    /// ruby-tanuki-emoji's table (its folder carries the gem's version), if installed.
    static let tanukiData: String? = (try? FileManager.default.contentsOfDirectory(atPath: folder))?
        .filter { $0.hasPrefix("tanuki_emoji-") }.sorted().last.map { "\(folder)/\($0)/vendor/emojione-alpha-codes/eac.json" }

    /// The names of ruby-tanuki-emoji's table, each entry's in the order of their keys (so a
    /// name two entries claim always goes to the same one).
    static func tanukiNames() -> [(name: String, emoji: String)] {
        guard let tanukiData, let data = FileManager.default.contents(atPath: tanukiData),
              let entries = try? JSONDecoder().decode([String: Entry].self, from: data) else { return [] }
        return entries.sorted { $0.key < $1.key }.flatMap { _, entry in
            let scalars = entry.output.split(separator: "-").compactMap { UInt32($0, radix: 16).flatMap(Unicode.Scalar.init) }
            let emoji = String(String.UnicodeScalarView(scalars))
            return ([entry.alpha_code] + entry.aliases.split(separator: "|").map(String.init)).filter { !$0.isEmpty }.map { ($0, emoji) }
        }
    }

    private struct Entry: Decodable {
        let output: String
        let alpha_code: String
        let aliases: String
    }

    /// python3-emoji's table of every emoji (a Python source file).
    static let pythonEmojiData = "/usr/lib/python3/dist-packages/emoji/unicode_codes/data_dict.py"

    /// The names (with their colons) of each fully qualified emoji in python3-emoji's table, in
    /// the file's order. Read as lines of bytes, without starting Python (2 MB: as Swift
    /// strings it took 160 ms): an entry opens with its key (`u'\U0001F917': {`), then has
    /// `'en' : ':name:'`, `'status' : fully_qualified` and `'alias' : [':a:', ':b:']` lines.
    static func pythonEmojiNames(_ source: [UInt8]) -> [(name: String, emoji: String)] {
        var found: [(String, String)] = []
        var emoji: String?, names: [String] = [], qualified = false
        func close() {
            if let emoji, qualified { found += names.map { ($0, emoji) } }
            emoji = nil; names = []; qualified = false
        }
        /// The runs between single quotes.
        func quoted(_ line: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
            line.split(separator: UInt8(ascii: "'"), omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        }
        for raw in source.split(separator: UInt8(ascii: "\n")) {
            let line = raw.drop { $0 == UInt8(ascii: " ") }
            if line.starts(with: "u'\\".utf8) || line.starts(with: "'\\".utf8) {
                close()
                emoji = quoted(line).first.flatMap(decodeEscapes)
            } else if line.starts(with: "'en' :".utf8) || line.starts(with: "'alias' :".utf8) {
                names += quoted(line).dropFirst().filter { $0.count > 2 && $0.first == UInt8(ascii: ":") && $0.last == UInt8(ascii: ":") }
                    .map { String(decoding: $0, as: UTF8.self) }
            } else if line.starts(with: "'status' : fully_qualified".utf8) {
                qualified = true
            }
        }
        close()
        return found
    }

    /// `\U0001F917` and `\u2764` escapes, as Python reads them in a string literal.
    private static func decodeEscapes(_ literal: ArraySlice<UInt8>) -> String? {
        var scalars = String.UnicodeScalarView()
        var i = literal.startIndex
        while i < literal.endIndex {
            guard literal[i] == UInt8(ascii: "\\"), i + 1 < literal.endIndex else { return nil }
            let digits = literal[i + 1] == UInt8(ascii: "U") ? 8 : literal[i + 1] == UInt8(ascii: "u") ? 4 : 0
            guard digits > 0, i + 2 + digits <= literal.endIndex,
                  let value = UInt32(String(decoding: literal[(i + 2)..<(i + 2 + digits)], as: UTF8.self), radix: 16),
                  let scalar = Unicode.Scalar(value) else { return nil }
            scalars.append(scalar)
            i += 2 + digits
        }
        return scalars.isEmpty ? nil : String(scalars)
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
