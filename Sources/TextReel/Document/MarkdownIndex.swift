import CMark
import Foundation

/// One scan over a Markdown file that splits it into sections cmark-gfm parses alike alone or
/// within the whole file, and counts each section's paragraphs without parsing it wherever the
/// scan can be sure. Opening a huge document is this scan; a section is parsed when layout first
/// needs one of its paragraphs. Written by hand: cmark-gfm has no block index and no streaming API.
///
/// A section ends only before a line that must start a new top-level block whatever came before:
/// after a blank line, outside any fence, at column 0, and not a list marker (a list continued
/// across the split would number its items differently). A link reference definition anywhere
/// (links resolve across the whole file) or a stray carriage return keeps the file one section; an
/// HTML block or an indented fence, whose end the scan does not follow, ends splitting from there.
///
/// The scan is sure of a section's count when it holds only paragraphs of text, ATX headings,
/// fenced code and setext headings, and attachments that name their id and read no file
/// (`video:`, `drawing:`, `control:` with known keys): such a section reads the same paragraphs,
/// no warnings and no errors whenever it is parsed. Any other section is parsed when the file is
/// opened, in order, as before.
struct MarkdownIndex {
    struct Section: Sendable {
        var bytes: Range<Int>
        /// 1-based line of its first line in the file.
        var firstLine: Int
        /// How many paragraphs it reads into; nil when only a parse can tell.
        var paragraphs: Int?
        /// `StableHash` of each attachment id it names (for sections the scan is sure of).
        var attachmentIDs: [UInt64] = []
        /// The text of each ATX heading without inline syntax, with its paragraph number in the
        /// section: what a heading search compares without parsing.
        var plainHeadings: [(paragraph: Int, text: Range<Int>)] = []
        /// It holds a heading whose text only a parse gives (setext, or inline syntax).
        var styledHeadings = false
    }

    /// Settable so a test can give the store a miscounted section.
    var sections: [Section] = []
    /// Some line is not valid UTF-8: `MarkdownReader.validateUTF8` says where.
    private(set) var invalidUTF8 = false

    /// The same sections, none of them counted: each parsed when the file is opened.
    init(unsure index: MarkdownIndex) {
        sections = index.sections.map { var s = $0; s.paragraphs = nil; return s }
        invalidUTF8 = index.invalidUTF8
    }

    /// Files from this size on are scanned in two halves at once, on two cores.
    static let parallelBytes = 4 << 20

    /// `trusted` says which attachment URLs may be taken without a parse.
    init(_ bytes: UnsafeRawBufferPointer, sectionBytes: Int, limits: ReadingLimits, trusted: TrustedAttachmentURL, parallel: Bool = true) {
        let sectionBytes = max(sectionBytes, 1)
        // Front matter is read with the file's first lines, before any Markdown: the scan starts
        // after it, its own section first (found by the fuzzer: a fence inside front matter
        // shifted every fence the scan saw after it; a blank line inside it cut a section).
        if let front = FrontMatter(bytes) {
            var scan = MarkdownScan(bytes: bytes, range: front.byteCount..<bytes.count, sectionBytes: sectionBytes, limits: limits, trusted: trusted)
            scan.run()
            let head = UnsafeRawBufferPointer(rebasing: bytes[..<front.byteCount])
            sections = [Section(bytes: 0..<front.byteCount, firstLine: 1)]
                + scan.sections.map { var s = $0; s.firstLine += front.lineCount; return s }.filter { !$0.bytes.isEmpty }
            invalidUTF8 = scan.invalidUTF8 || UTF8Text.firstInvalidByte(in: head) != nil
            return
        }
        let whole = 0..<bytes.count
        if parallel, bytes.count >= Self.parallelBytes, let middle = Self.middle(of: bytes) {
            // The second half is scanned as if the file began there: right when the first half
            // ends outside any fence or HTML block, as a split after a blank line must. When it
            // does not, the second half is scanned again after the first.
            let halves = [Half(MarkdownScan(bytes: bytes, range: 0..<middle, sectionBytes: sectionBytes, limits: limits, trusted: trusted)),
                          Half(MarkdownScan(bytes: bytes, range: middle..<bytes.count, sectionBytes: sectionBytes, limits: limits, trusted: trusted))]
            DispatchQueue.concurrentPerform(iterations: 2) { halves[$0].scan.run() }
            let (first, second) = (halves[0].scan, halves[1].scan)
            if first.fence == nil, first.splitting, !first.mustStayWhole {
                if second.mustStayWhole {
                    sections = [Section(bytes: whole, firstLine: 1)]
                } else {
                    sections = first.sections + second.sections.map { var s = $0; s.firstLine += first.line - 1; return s }
                }
                invalidUTF8 = first.invalidUTF8 || second.invalidUTF8
                return
            }
        }
        var scan = MarkdownScan(bytes: bytes, range: whole, sectionBytes: sectionBytes, limits: limits, trusted: trusted)
        scan.run()
        sections = scan.sections
        invalidUTF8 = scan.invalidUTF8
    }


    /// Where the second half starts: after the first blank line past the middle, before a line
    /// that starts a top-level block whatever came before.
    private static func middle(of bytes: UnsafeRawBufferPointer) -> Int? {
        let probe = MarkdownScan(bytes: bytes, range: 0..<0, sectionBytes: 1, limits: .standard, trusted: .none)
        guard let base = bytes.baseAddress else { return nil }
        func lineEnd(from start: Int) -> Int {
            memchr(base + start, 0x0A, bytes.count - start).map { base.distance(to: UnsafeRawPointer($0)) } ?? bytes.count
        }
        var start = lineEnd(from: bytes.count / 2) + 1
        while start < min(bytes.count, bytes.count / 2 + (1 << 20)) {
            let end = lineEnd(from: start)
            if end == start, end + 1 < bytes.count, probe.startsTopLevel(end + 1, lineEnd(from: end + 1)) { return end + 1 }
            start = end + 1
        }
        return nil
    }

    /// One half's scan, in a box of its own: each core writes only its box.
    private final class Half: @unchecked Sendable {
        var scan: MarkdownScan
        init(_ scan: MarkdownScan) { self.scan = scan }
    }
}

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
            // A `math` block is typeset when read, and may warn: only a parse reads it. The
            // reader takes the language in any case (`matH` too).
            var info = s + length
            while info < end, self[info] == 0x20 { info += 1 }
            if end - info >= 4, self[info] | 0x20 == 0x6D, self[info + 1] | 0x20 == 0x61, self[info + 2] | 0x20 == 0x74,
               self[info + 3] | 0x20 == 0x68 { sure = false }
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
