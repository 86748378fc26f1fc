import Foundation
import TextReel

/// GitHub's math in Markdown source (`$…$`, `$$…$$`), found before cmark-gfm reads it: cmark
/// would take `\\` as an escaped `\` and `_` as emphasis. Each formula is replaced, byte for byte,
/// by a private-use marker naming it and `x`s (its newlines kept), so cmark reads one word where
/// it was and every line and column of the file stays where it was. Fenced code and code spans
/// are left alone, as is `\$`.
struct MathSpans {
    struct Span: Equatable {
        var tex: String
        var display: Bool
        var line: Int, column: Int
    }
    private(set) var spans: [Span] = []

    /// The first marker (U+E000); formula k is U+E000 + k, up to the private-use area's end.
    static let firstMarker: UInt32 = 0xE000, capacity = 6400

    /// The formula a marker names, if it is one.
    func span(marker: Unicode.Scalar) -> Span? {
        let k = Int(marker.value) - Int(Self.firstMarker)
        return k >= 0 && k < spans.count ? spans[k] : nil
    }

    /// `text` with every formula's marker and placeholder put back as the source wrote it: for
    /// code the scan did not see as code (a fence indented inside a list item), which must show
    /// its `$` as written, never a marker.
    func restored(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { span(marker: $0) != nil }) else { return text }
        var out = String.UnicodeScalarView()
        var skip = 0
        for scalar in text.unicodeScalars {
            if skip > 0 { skip -= 1; continue }
            guard let span = span(marker: scalar) else { out.append(scalar); continue }
            let fence = span.display ? "$$" : "$"
            out.append(contentsOf: (fence + span.tex + fence).unicodeScalars)
            skip = Self.placeholderLength(span)
        }
        return String(out)
    }

    /// How many placeholder characters follow a formula's marker (its bytes less the marker's 3).
    static func placeholderLength(_ span: Span) -> Int { span.tex.utf8.count + (span.display ? 4 : 2) - 3 }

    /// The source with its formulas replaced, and the formulas; nil when it has none.
    static func protect(_ bytes: UnsafeRawBufferPointer) -> (Data, MathSpans)? {
        guard UTF8Text.contains(0x24, in: bytes) else { return nil }
        var out = Data(bytes)
        var found = MathSpans()
        var fence: (byte: UInt8, length: Int)?
        var line = 1, lineStart = 0
        var i = 0
        let n = bytes.count
        func lineEnd(_ from: Int) -> Int { var e = from; while e < n && bytes[e] != 0x0A { e += 1 }; return e }
        func replace(_ start: Int, _ end: Int, display: Bool, line: Int, column: Int) {
            guard found.spans.count < capacity else { return }
            let inner = display ? (start + 2)..<(end - 2) : (start + 1)..<(end - 1)
            let tex = String(decoding: bytes[inner], as: UTF8.self)
            let marker = Array(String(Unicode.Scalar(firstMarker + UInt32(found.spans.count))!).utf8)
            found.spans.append(Span(tex: tex, display: display, line: line, column: column))
            if !bytes[start..<start + 3].contains(0x0A) {
                for k in start..<end { out[k] = k - start < 3 ? marker[k - start] : bytes[k] == 0x0A ? 0x0A : 0x78 }
            } else {
                // "$$" then a line break: the marker's three bytes would take the break (and every
                // later line number with it, found by the fuzzer). The breaks go last, each before
                // an "x" (no blank line), which fits: every line of a formula holds a byte.
                let breaks = bytes[start..<end].filter { $0 == 0x0A }.count
                let head = end - start - 3 - 2 * breaks
                for k in 0..<3 { out[start + k] = marker[k] }
                for k in 0..<head { out[start + 3 + k] = 0x78 }
                for k in 0..<breaks { out[start + 3 + head + 2 * k] = 0x0A; out[start + 3 + head + 2 * k + 1] = 0x78 }
            }
        }
        /// Past the line `i` is in, to the next one's start.
        func nextLine() {
            i = lineEnd(i)
            if i < n { i += 1; line += 1; lineStart = i }
        }
        /// The run of three or more backticks or tildes the line starting at `start` begins with,
        /// after at most three spaces, if it may be a fence (`inFence`: a closing one).
        func fenceRun(at start: Int, inFence: Bool) -> (s: Int, e: Int)? {
            var s = start, spaces = 0
            while s < n, bytes[s] == 0x20, spaces < 3 { s += 1; spaces += 1 }
            guard s < n, bytes[s] == 0x60 || bytes[s] == 0x7E else { return nil }
            var e = s
            while e < n, bytes[e] == bytes[s] { e += 1 }
            // A backtick fence's info string holds no backtick (else cmark reads a code span).
            return e - s >= 3 && (bytes[s] == 0x7E || inFence || !bytes[e..<lineEnd(e)].contains(0x60)) ? (s, e) : nil
        }
        while i < n {
            // At a line's start: fences open and close; a fenced block's lines (blank ones
            // too: the fuzzer found the endless loop one made) are skipped.
            if i == lineStart {
                if let (s, e) = fenceRun(at: i, inFence: fence != nil) {
                    // A closing fence holds nothing after its run but spaces (else it is code).
                    let bare = bytes[e..<lineEnd(e)].allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
                    if let open = fence { if open.byte == bytes[s] && e - s >= open.length && bare { fence = nil } } else { fence = (bytes[s], e - s) }
                    nextLine()
                    continue
                }
                if fence != nil { nextLine(); continue }
                // A run of backticks that opens no fence only for a backtick in its info: a
                // formula taken from the line could take that backtick away and make it one
                // (the fuzzer's "```$$`$$" was a fence read whole, a paragraph in sections).
                if fenceRun(at: i, inFence: true) != nil { nextLine(); continue }
            }
            let b = bytes[i]
            if b == 0x0A {
                i += 1; line += 1; lineStart = i
                continue
            }
            if b == 0x5C { i += i + 1 < n && bytes[i + 1] != 0x0A ? 2 : 1; continue }    // "\$" and every other escape
            if b == 0x60 {                               // a code span: to the same run of backticks
                var e = i
                while e < n, bytes[e] == 0x60 { e += 1 }
                let run = e - i, end = lineEnd(e)
                var k = e, close: Int?
                while k < end {
                    if bytes[k] == 0x60 {
                        var r = k
                        while r < end, bytes[r] == 0x60 { r += 1 }
                        if r - k == run { close = r; break }
                        k = r
                    } else { k += 1 }
                }
                i = close ?? e
                continue
            }
            guard b == 0x24 else { i += 1; continue }
            let column = String(decoding: bytes[lineStart..<i], as: UTF8.self).unicodeScalars.count + 1
            if i + 1 < n, bytes[i + 1] == 0x24 {
                // Display: to the next "$$", not past a blank line (one of spaces and tabs is
                // blank too: the fuzzer's "$$", " ", "$$" was one formula read whole, two
                // paragraphs read in sections) nor into a fence, which ends the paragraph as a
                // blank line does (the fuzzer's "$$$", "```$$$" took the fence into a formula
                // read whole; read in sections it was a code block).
                var k = i + 2, close: Int?
                while k + 1 < n {
                    if bytes[k] == 0x0A {
                        var e = k + 1
                        while e < n, bytes[e] == 0x20 || bytes[e] == 0x09 || bytes[e] == 0x0D { e += 1 }
                        if e < n && bytes[e] == 0x0A { break }
                        if fenceRun(at: k + 1, inFence: false) != nil { break }
                    }
                    // An escape, but not of a line break: a "\" ending a line hid the blank line
                    // after it, and the formula ran across it (found by the fuzzer).
                    if bytes[k] == 0x5C, bytes[k + 1] != 0x0A { k += 2; continue }
                    if bytes[k] == 0x24, bytes[k + 1] == 0x24 { close = k + 2; break }
                    k += 1
                }
                if let close, close - i > 4 {
                    replace(i, close, display: true, line: line, column: column)
                    for k in i..<close where bytes[k] == 0x0A { line += 1; lineStart = k + 1 }
                    i = close
                } else { i += 2 }
                continue
            }
            // Inline: "$" then no space; a closing "$" after no space, not before a digit.
            let end = lineEnd(i)
            if i + 1 < end, bytes[i + 1] != 0x20, bytes[i + 1] != 0x09 {
                var k = i + 1, close: Int?
                while k < end {
                    if bytes[k] == 0x5C { k += 2; continue }
                    if bytes[k] == 0x60 { break }        // a code span binds first
                    if bytes[k] == 0x24 {
                        if bytes[k - 1] != 0x20, bytes[k - 1] != 0x09, !(k + 1 < n && (0x30...0x39).contains(bytes[k + 1])) { close = k + 1 }
                        break
                    }
                    k += 1
                }
                if let close, close - i >= 3 {
                    replace(i, close, display: false, line: line, column: column)
                    i = close
                    continue
                }
            }
            i += 1
        }
        return found.spans.isEmpty ? nil : (out, found)
    }
}
