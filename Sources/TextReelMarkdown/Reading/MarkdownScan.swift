import CMark
import Foundation
import TextReel

struct MarkdownScan: @unchecked Sendable {
    let bytes: UnsafeRawBufferPointer
    let sectionBytes: Int
    let limits: ReadingLimits
    let trusted: TrustedAttachmentURL
    var sections: [MarkdownIndex.Section] = []

    // File-level state.
    var splitting = true
    var fence: (byte: UInt8, length: Int)?
    /// Lines inside the open fence, and how many of the last were empty (cmark-gfm's literal
    /// drops them): a block longer than `MarkdownReader.codeBandLines` is read as a paragraph
    /// per band of lines.
    var fenceLines = 0, fenceTrailingEmpty = 0
    var previousBlank = true
    var inParagraph = false
    var line = 1

    // The section being scanned.
    var current: MarkdownIndex.Section
    var sure = true
    var count = 0
    // The block being scanned: its first byte and how many nesting delimiters it has.
    var blockStart = 0
    var delimiters = 0

    /// The lines to scan, as if the file began at its start.
    let range: Range<Int>

    init(bytes: UnsafeRawBufferPointer, range: Range<Int>, sectionBytes: Int, limits: ReadingLimits, trusted: TrustedAttachmentURL) {
        self.bytes = bytes
        self.trusted = trusted
        self.range = range
        self.sectionBytes = sectionBytes
        self.limits = limits
        current = MarkdownIndex.Section(bytes: range.lowerBound..<range.lowerBound, firstLine: 1)
    }

    subscript(i: Int) -> UInt8 { bytes[i] }

    mutating func run() {
        let end = range.upperBound
        var start = range.lowerBound
        while start < end {
            let lineEnd = bytes.baseAddress.flatMap { base in
                memchr(base + start, 0x0A, end - start).map { base.distance(to: UnsafeRawPointer($0)) }
            } ?? end
            if splitting, previousBlank, fence == nil, start - current.bytes.lowerBound >= sectionBytes, startsTopLevel(start, lineEnd) {
                close(at: start)
                current = MarkdownIndex.Section(bytes: start..<start, firstLine: line)
                sure = true
                count = 0
            }
            self.line(start, lineEnd)
            start = lineEnd + 1
            line += 1
        }
        if fence != nil { countBands() }
        if inParagraph || fence != nil { checkBlockSize(upTo: end) }
        close(at: end)
        if mustStayWhole { sections = [MarkdownIndex.Section(bytes: range, firstLine: 1)] }
    }

    /// The paragraphs a fenced block reads into beyond its first (see `MarkdownReader.addCode`).
    mutating func countBands() {
        let lines = fenceLines - fenceTrailingEmpty
        count += max((lines + MarkdownReader.codeBandLines - 1) / MarkdownReader.codeBandLines, 1) - 1
    }

    /// Set by hazards that reach across the whole file (link definitions, stray carriage returns).
    var mustStayWhole = false

    mutating func close(at end: Int) {
        current.bytes = current.bytes.lowerBound..<end
        current.paragraphs = sure ? count : nil
        if !sure { current.attachmentIDs = []; current.plainHeadings = [] }
        sections.append(current)
    }

    /// A line at column 0 that no open block can continue and that starts no list item.
    func startsTopLevel(_ start: Int, _ end: Int) -> Bool {
        guard start < end else { return false }
        let c = self[start]
        switch c {
        case 0x20, 0x09, 0x0D, 0x3C: return false                         // indent, CR, "<"
        case 0xEF where start + 2 < end && self[start + 1] == 0xBB && self[start + 2] == 0xBF:
            return false                                                  // a BOM: cmark-gfm skips one at the start of a parse
        case 0x2D, 0x2B, 0x2A, 0x5F: return false                         // - + * _
        case 0x30...0x39: return !isOrderedMarker(start, end)
        default: return true
        }
    }

    func isOrderedMarker(_ start: Int, _ end: Int) -> Bool {
        var i = start
        while i < end, i - start < 10, (0x30...0x39).contains(self[i]) { i += 1 }
        guard i > start, i - start <= 9, i < end, self[i] == 0x2E || self[i] == 0x29 else { return false }
        return i + 1 == end || [0x20, 0x09, 0x0B, 0x0C, 0x0D].contains(self[i + 1])   // cmark-gfm's spaces
    }

    // MARK: Lines

    mutating func line(_ start: Int, _ rawEnd: Int) {
        var end = rawEnd
        if end > start, self[end - 1] == 0x0D { end -= 1 }
        scanBytes(start, end)
        if let open = fence {
            if isClosingFence(start, end, open) {
                fence = nil
                countBands()
                checkBlockSize(upTo: rawEnd)
            } else {
                fenceLines += 1
                fenceTrailingEmpty = end == start ? fenceTrailingEmpty + 1 : 0
            }
            previousBlank = false
            return
        }
        // Leading whitespace, in columns (a tab goes to the next multiple of 4), after the BOM
        // cmark-gfm skips at the start of the file.
        var s = start, column = 0
        if start == 0, end >= 3, self[0] == 0xEF, self[1] == 0xBB, self[2] == 0xBF { s = 3 }
        while s < end, self[s] == 0x20 || self[s] == 0x09 {
            column = self[s] == 0x09 ? (column / 4 + 1) * 4 : column + 1
            s += 1
        }
        defer { previousBlank = s == end }
        if s == end {
            if inParagraph { checkBlockSize(upTo: start) }
            inParagraph = false
            return
        }
        if column >= 4 {
            if !inParagraph { sure = false }      // indented code
            return
        }
        let c = self[s]
        if c == 0x3C { splitting = false; sure = false; inParagraph = false; return }   // an HTML block may follow
        if (c == 0x60 || c == 0x7E), let length = fenceOpening(s, end) {
            if column > 0 { splitting = false; sure = false }
            // A `math` block may warn when read, a `mermaid` block holds numbered diagrams: only
            // a parse reads them. The reader takes the language in any case (`matH` too).
            var info = s + length
            while info < end, self[info] == 0x20 { info += 1 }
            if startsWithoutCase("math", at: info, end) || startsWithoutCase("mermaid", at: info, end) { sure = false }
            endParagraph(at: start)
            fence = (c, length)
            fenceLines = 0
            fenceTrailingEmpty = 0
            count += 1
            blockStart = start
            return
        }
        switch c {
        case 0x23 where atxHeading(s, end):
            endParagraph(at: start)
            if end - start > limits.paragraphBytes / 2 { sure = false }
            count += 1
            return
        case 0x3E:                                                        // >
            sure = false
        case _ where (c == 0x2D || c == 0x3A) && onlyDelimiterRow(s, end):   // "-:", ":-:" — maybe a one-column table
            sure = false
        case 0x2D, 0x2B, 0x2A, 0x5F:                                      // - + * _
            let next = s + 1 < end ? self[s + 1] : 0x20
            if c != 0x5F && (next == 0x20 || next == 0x09) { sure = false }
            else if onlyRepeats(of: c, s, end) && (c == 0x2D || repeats(of: c, s, end) >= 3) { sure = false }
        case 0x3D where inParagraph && isUnderline(s, end):               // a setext underline: =+ then spaces
            current.styledHeadings = true
            endParagraph(at: start)
            return
        case 0x3D where onlyRepeats(of: c, s, end):                       // "= =": text to cmark, but close to it
            sure = false
        case 0x30...0x39 where isOrderedMarker(s, end):
            sure = false
        default:
            break
        }
        if !inParagraph {
            inParagraph = true
            count += 1
            blockStart = start
            delimiters = 0
        }
        delimiters += lineDelimiters
        if delimiters > MarkdownScan.nestingBound(limits) { sure = false }
    }

    /// A section the scan is sure of nests no deeper than this, so parsing it later needs no
    /// deep stack and cannot pass the nesting limit.
    /// (Three levels are kept for what no delimiter shows: an autolink inside an image's alt text.)
    static func nestingBound(_ limits: ReadingLimits) -> Int { min(limits.nesting - 3, 48) }

    mutating func endParagraph(at start: Int) {
        if inParagraph { checkBlockSize(upTo: start) }
        inParagraph = false
    }

    /// A block whose text might pass the paragraph limit (entities can lengthen text a little)
    /// is left to a parse, which reports it at its line.
    mutating func checkBlockSize(upTo end: Int) {
        if end - blockStart > limits.paragraphBytes / 2 { sure = false }
    }

    /// Counted by `scanBytes` for the current line: * _ ~ [, which open nesting inline styles.
    var lineDelimiters = 0

    /// Set when a line is not valid UTF-8 (or holds a NUL): the reader then reports where.
    var invalidUTF8 = false

    /// Every byte of the line: file-level hazards, tables, attachments, nesting delimiters and
    /// UTF-8. The bytes that matter are rare: a C loop finds them sixteen at a time, and lines of
    /// ASCII need no UTF-8 check.
    mutating func scanBytes(_ start: Int, _ end: Int) {
        lineDelimiters = 0
        var nonASCII: Int32 = 0
        var i = start
        let base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        while i < end {
            i += textreel_scan_next(base + i, end - i, &nonASCII)
            if i < end { i = special(at: i, end, &nonASCII) }
        }
        if nonASCII != 0, UTF8Text.firstInvalidByte(in: UnsafeRawBufferPointer(start: base + start, count: end - start)) != nil {
            invalidUTF8 = true
        }
    }

    /// Handles the special byte at `i`; returns where to go on (past an attachment).
    mutating func special(at i: Int, _ end: Int, _ nonASCII: inout Int32) -> Int {
        switch self[i] {
        case 0x00: invalidUTF8 = true
        case 0x0B, 0x0C: sure = false                                         // cmark-gfm counts them as spaces after list markers
        case 0x0D: mustStayWhole = true; splitting = false                   // a CR inside a line
        case 0x5D where i + 1 < end && self[i + 1] == 0x3A:                   // "]:" — maybe a link definition
            mustStayWhole = true; splitting = false
        case 0x7C: if fence == nil { sure = false }                          // "|" — maybe a table
        case 0x24: if fence == nil { sure = false }                          // "$" — maybe math, typeset (and warned about) by a parse
        case 0x3C where fence == nil && i + 1 < end:                          // "<" and a letter, "/" or "!": maybe inline HTML (an <img> warns)
            let next = self[i + 1] | 0x20
            if (next >= 0x61 && next <= 0x7A) || self[i + 1] == 0x2F || self[i + 1] == 0x21 { sure = false }
        case 0x21 where fence == nil && i + 1 < end && self[i + 1] == 0x5B:   // "!["
            if let after = attachment(from: i, end, &nonASCII) { return after }
            sure = false
        case 0x5B:
            lineDelimiters += 1
            // "^[" — Apple's attribute syntax, whose list only a parse reads (and may warn about).
            if fence == nil, i > 0, self[i - 1] == 0x5E { sure = false }
        case 0x2A, 0x5F, 0x7E: lineDelimiters += 1
        default: break
        }
        return i + 1
    }

    // MARK: Blocks

    func fenceOpening(_ s: Int, _ end: Int) -> Int? {
        let c = self[s]
        var i = s
        while i < end, self[i] == c { i += 1 }
        guard i - s >= 3 else { return nil }
        if c == 0x60 { for j in i..<end where self[j] == 0x60 { return nil } }
        return i - s
    }

    func isClosingFence(_ start: Int, _ end: Int, _ open: (byte: UInt8, length: Int)) -> Bool {
        var i = start
        while i < end, i - start < 4, self[i] == 0x20 { i += 1 }
        guard i - start < 4 else { return false }
        let first = i
        while i < end, self[i] == open.byte { i += 1 }
        guard i - first >= open.length else { return false }
        while i < end, self[i] == 0x20 || self[i] == 0x09 { i += 1 }
        return i == end
    }

    /// An ATX heading; records its text when it has no inline syntax.
    mutating func atxHeading(_ s: Int, _ end: Int) -> Bool {
        var i = s
        while i < end, self[i] == 0x23 { i += 1 }
        guard i - s <= 6, i == end || self[i] == 0x20 || self[i] == 0x09 else { return false }
        // The text: trimmed, without a closing run of #s that follows whitespace (or is all of it).
        var a = i, b = end
        while a < b, self[a] == 0x20 || self[a] == 0x09 { a += 1 }
        while b > a, self[b - 1] == 0x20 || self[b - 1] == 0x09 { b -= 1 }
        var k = b
        while k > a, self[k - 1] == 0x23 { k -= 1 }
        if k == a { b = a } else if k < b, self[k - 1] == 0x20 || self[k - 1] == 0x09 {
            b = k
            while b > a, self[b - 1] == 0x20 || self[b - 1] == 0x09 { b -= 1 }
        }
        // A run of spaces or a tab is one space in the read text (as HTML sets it): not the source's bytes.
        if (a..<b).contains(where: { MarkdownScan.inlineSyntax[Int(self[$0])] != 0 || self[$0] == 0x09 || (self[$0] == 0x20 && self[$0 + 1] == 0x20) }) {
            current.styledHeadings = true
        } else {
            current.plainHeadings.append((count, a..<b))
        }
        if lineDelimiters > MarkdownScan.nestingBound(limits) { sure = false }
        return true
    }

    static let inlineSyntax: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 256)
        // ":" too: an emoji shortcode (`:tada:`) becomes its emoji in the parsed text.
        for c in "\\&*_`[]<>!~:".utf8 { table[Int(c)] = 1 }
        return table
    }()

    /// `=`s then nothing but spaces and tabs, as cmark-gfm reads a setext underline.
    func isUnderline(_ s: Int, _ end: Int) -> Bool {
        var i = s
        while i < end, self[i] == 0x3D { i += 1 }
        return (i..<end).allSatisfy { self[$0] == 0x20 || self[$0] == 0x09 }
    }

    /// Whether the bytes at `s` start with the lowercase ASCII `word`, in any case.
    func startsWithoutCase(_ word: StaticString, at s: Int, _ end: Int) -> Bool {
        let count = word.utf8CodeUnitCount
        guard end - s >= count else { return false }
        return (0..<count).allSatisfy { self[s + $0] | 0x20 == word.utf8Start[$0] }
    }

    func onlyRepeats(of c: UInt8, _ s: Int, _ end: Int) -> Bool {
        (s..<end).allSatisfy { self[$0] == c || self[$0] == 0x20 || self[$0] == 0x09 }
    }

    func onlyDelimiterRow(_ s: Int, _ end: Int) -> Bool {
        (s..<end).contains { self[$0] == 0x2D } && (s..<end).allSatisfy { [0x2D, 0x3A, 0x20, 0x09].contains(self[$0]) }
    }

    func repeats(of c: UInt8, _ s: Int, _ end: Int) -> Int {
        (s..<end).reduce(0) { $0 + (self[$1] == c ? 1 : 0) }
    }
}
