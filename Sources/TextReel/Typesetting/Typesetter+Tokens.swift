import Foundation

/// Where a line may wrap: the tokens of code and prose a browser keeps whole, found in the bytes
/// Pango is given (`keepTokensWhole` holds them together).
extension Typesetter {
    /// The longest source line whose tokens are held whole when it wraps, in bytes.
    static let maximumKeptLine = 8_192

    /// The pieces of a paragraph's code spans between their spaces and every break Pango must
    /// make (`separates`: a piece held whole across a vertical tab made Pango abort, found by the
    /// fuzzer), ASCII only, as prose tokens are (UTF-8 offsets).
    static func codeSpanPieces(_ paragraph: TextParagraph) -> [Range<Int>] {
        let bytes = Array(paragraph.text.utf8)
        var pieces: [Range<Int>] = []
        for run in paragraph.runs where run.style.contains(.code) {
            var start: Int?, ascii = true
            for k in run.range.lowerBound...min(run.range.upperBound, bytes.count) {
                let ends = k == run.range.upperBound || k >= bytes.count || separates(bytes, at: k)
                if ends {
                    if let s = start, ascii, k - s > 1 { pieces.append(s..<k) }
                    start = nil
                    ascii = true
                } else {
                    if start == nil { start = k }
                    if bytes[k] >= 0x80 { ascii = false }
                }
            }
        }
        return pieces
    }

    /// The byte ranges of a code text's tokens: runs without spaces, each also ended by `,` or `;`.
    static func codeTokens(_ text: String) -> [Range<Int>] {
        var tokens: [Range<Int>] = []
        var start: Int?
        let bytes = Array(text.utf8)
        for (offset, byte) in bytes.enumerated() {
            if separates(bytes, at: offset) {
                if let s = start, offset - s > 1 { tokens.append(s..<offset) }
                start = nil
            } else {
                if start == nil { start = offset }
                if byte == UInt8(ascii: ",") || byte == UInt8(ascii: ";") {
                    if let s = start, offset + 1 - s > 1 { tokens.append(s..<offset + 1) }
                    start = nil
                }
            }
        }
        if let s = start, text.utf8.count - s > 1 { tokens.append(s..<text.utf8.count) }
        return tokens
    }

    /// The byte ranges of prose's runs without spaces that a browser keeps on one line and Pango
    /// would break (after a `/` or `$`, inside `--option` or `${name}`): ASCII runs holding `/`,
    /// `\\`, `$` or `{`, or starting with `-`. Hyphenated words still break after their hyphen,
    /// and text without spaces (Chinese, Japanese) is never a token.
    static func proseTokens(_ text: String) -> [Range<Int>] {
        var tokens: [Range<Int>] = []
        var start = 0, ascii = true, marked = false
        func end(_ offset: Int) {
            if ascii, marked, offset - start > 1 { tokens.append(start..<offset) }
            start = offset + 1
            ascii = true
            marked = false
        }
        let bytes = Array(text.utf8)
        for (offset, byte) in bytes.enumerated() {
            switch byte {
            case _ where separates(bytes, at: offset): end(offset)
            case UInt8(ascii: "/"), UInt8(ascii: "\\"), UInt8(ascii: "$"), UInt8(ascii: "{"): marked = true
            case UInt8(ascii: "-") where offset == start: marked = true
            case 0x80...: ascii = false
            default: break
            }
        }
        end(text.utf8.count)
        return tokens
    }

    /// Whether the byte at `offset` is white space, a control character or part of a line or
    /// paragraph separator (U+0085, U+2028, U+2029): where a token ends. A token kept whole
    /// across a break Pango must make (a vertical tab is one) fails Pango's own assertion.
    static func separates(_ bytes: [UInt8], at offset: Int) -> Bool {
        func at(_ k: Int) -> UInt8? { bytes.indices.contains(k) ? bytes[k] : nil }
        // U+0085 is C2 85; U+2028 and U+2029 are E2 80 A8 and E2 80 A9.
        switch bytes[offset] {
        case 0...0x20, 0x7F: return true
        case 0xC2: return at(offset + 1) == 0x85
        case 0x85: return at(offset - 1) == 0xC2
        case 0xE2: return at(offset + 1) == 0x80 && (at(offset + 2) == 0xA8 || at(offset + 2) == 0xA9)
        case 0x80: return at(offset - 1) == 0xE2 && (at(offset + 1) == 0xA8 || at(offset + 1) == 0xA9)
        case 0xA8, 0xA9: return at(offset - 1) == 0x80 && at(offset - 2) == 0xE2
        default: return false
        }
    }

    /// Longest run without a space that still wraps by words.
    static let longestWord = 2_000

    static func hasLongWord(_ text: String) -> Bool {
        guard text.utf8.count > longestWord else { return false }
        var run = 0
        for byte in text.utf8 {
            if byte == 0x20 || byte == 0x0A || byte == 0x09 { run = 0 } else {
                run += 1
                if run > longestWord { return true }
            }
        }
        return false
    }
}
