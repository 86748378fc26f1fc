import Foundation
import TextReel

/// YAML front matter (`---` … `---` at the very top of a file), which GitHub shows as a table:
/// a header row of keys over a row of values. Only the subset GitHub's table shows is read, by
/// hand: top-level `key: value` lines, quoted or not, with indented or `- ` lines joined to the
/// key above (a list becomes "a, b"); comments are skipped. A YAML library would read nested
/// maps that the table flattens anyway, and Debian's (libyaml) is an event parser this would
/// still have to walk.
struct FrontMatter {
    /// Keys and values, in order.
    let fields: [(key: String, value: String)]
    /// Bytes and lines the block takes, closing fence included.
    let byteCount: Int
    let lineCount: Int

    /// The front matter at the start of `bytes`, or nil when the file does not start with one
    /// (a `---` line, then lines up to a closing `---` or `...` line).
    init?(_ bytes: UnsafeRawBufferPointer) {
        // Most files have none: only a first line of exactly `---` is worth decoding lines for.
        guard bytes.starts(with: "---\n".utf8) || bytes.starts(with: "---\r".utf8) else { return nil }
        var lines: [Substring] = []
        var offset = 0
        let text = String(decoding: bytes.prefix(64 << 10), as: UTF8.self)
        var closed = false
        // Split as bytes: in a String, "\r\n" is one Character and never equals "\n".
        for bytes in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            let line = Substring(bytes)
            offset += line.utf8.count + 1
            let trimmed = line.hasSuffix("\r") ? line.dropLast() : line
            if lines.isEmpty && offset == line.utf8.count + 1 {
                guard trimmed == "---" else { return nil }
                lines.append(trimmed)
                continue
            }
            if trimmed == "---" || trimmed == "..." { closed = true; break }
            lines.append(trimmed)
        }
        guard closed, lines.count > 1 else { return nil }
        var fields: [(key: String, value: String)] = []
        for line in lines.dropFirst() where !line.trimmingCharacters(in: .whitespaces).hasPrefix("#") && !line.allSatisfy(\.isWhitespace) {
            if let first = line.first, first != " ", first != "\t", first != "-", let colon = line.firstIndex(of: ":") {
                fields.append((String(line[..<colon]).trimmingCharacters(in: .whitespaces), Self.unquoted(line[line.index(after: colon)...])))
            } else if !fields.isEmpty {
                let item = line.trimmingCharacters(in: .whitespaces)
                let isListItem = item.hasPrefix("- ")
                let piece = Self.unquoted(isListItem ? item.dropFirst(2) : Substring(item))
                let value = fields[fields.count - 1].value
                fields[fields.count - 1].value = value.isEmpty ? piece : value + (isListItem ? ", " : " ") + piece
            }
        }
        guard !fields.isEmpty else { return nil }
        self.fields = fields
        byteCount = min(offset, bytes.count)
        lineCount = lines.count + 1
    }

    private static func unquoted(_ text: Substring) -> String {
        let value = text.trimmingCharacters(in: .whitespaces)
        if value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first {
            return String(value.dropFirst().dropLast())
        }
        return value
    }
}
