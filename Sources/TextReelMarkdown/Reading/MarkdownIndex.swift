import CMark
import Foundation
import TextReel

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
