import Foundation

/// Splits a large Markdown file into pieces that cmark can parse one at a time, so its syntax
/// tree never holds the whole document. A piece starts only where a new top-level block must
/// start whatever came before: a blank line, then an ATX heading at column 0, outside any fenced
/// code block. Documents with link reference definitions or raw HTML blocks (whose scope can
/// cross blank lines) are never split. Written by hand: cmark has no streaming block API.
enum MarkdownChunks {
    struct Chunk {
        var range: Range<Int>
        /// 1-based line of the chunk's first line in the file.
        var firstLine: Int
    }

    /// Pieces of at least `minimumBytes` (except the last).
    static func split(_ bytes: UnsafeRawBufferPointer, minimumBytes: Int = 1 << 20) -> [Chunk] {
        let count = bytes.count
        guard count > minimumBytes, !mayCrossBlankLines(bytes) else { return [Chunk(range: 0..<count, firstLine: 1)] }
        var chunks: [Chunk] = []
        var start = 0, startLine = 1
        var line = 1, lineStart = 0
        var fence: UInt8? = nil
        var previousBlank = false
        while lineStart < count {
            var end = lineStart
            while end < count && bytes[end] != 0x0A { end += 1 }
            var first = lineStart
            while first < end && (bytes[first] == 0x20 || bytes[first] == 0x09 || bytes[first] == 0x0D) { first += 1 }
            let blank = first == end
            // Fences: ``` or ~~~ after at most three spaces.
            var i = lineStart, spaces = 0
            while i < end && bytes[i] == 0x20 && spaces < 4 { i += 1; spaces += 1 }
            if spaces < 4, i + 2 < end, (bytes[i] == 0x60 || bytes[i] == 0x7E), bytes[i + 1] == bytes[i], bytes[i + 2] == bytes[i] {
                if fence == nil { fence = bytes[i] } else if fence == bytes[i] { fence = nil }
            }
            if fence == nil, previousBlank, lineStart - start >= minimumBytes, bytes[lineStart] == 0x23 {
                chunks.append(Chunk(range: start..<lineStart, firstLine: startLine))
                start = lineStart
                startLine = line
            }
            previousBlank = blank
            lineStart = end + 1
            line += 1
        }
        chunks.append(Chunk(range: start..<count, firstLine: startLine))
        return chunks
    }

    /// Link reference definitions (`[x]: url`) and HTML blocks can reach across pieces.
    private static func mayCrossBlankLines(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var lineStart = 0
        while lineStart < bytes.count {
            var i = lineStart
            while i < bytes.count && bytes[i] == 0x20 && i - lineStart < 4 { i += 1 }
            if i < bytes.count, bytes[i] == 0x5B || bytes[i] == 0x3C { // "[" or "<" opening a line
                if bytes[i] == 0x3C { return true }
                var j = i + 1
                while j < bytes.count, bytes[j] != 0x0A, bytes[j] != 0x5D { j += 1 }
                if j + 1 < bytes.count, bytes[j] == 0x5D, bytes[j + 1] == 0x3A { return true }
            }
            while i < bytes.count && bytes[i] != 0x0A { i += 1 }
            lineStart = i + 1
        }
        return false
    }
}
