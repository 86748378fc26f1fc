import Foundation
import TextReel

/// A Markdown file's sections as a store's lazy sections: those the index counted stay bytes of
/// the file until a paragraph of theirs is needed, then `MarkdownReader` parses them.
struct MarkdownSections: LazySections {
    let source: Data
    let sections: [MarkdownIndex.Section]
    let fileName: String
    let baseURL: URL?
    let limits: ReadingLimits
    let kinds: AttachmentKinds

    /// Thrown when a section parsed at open names an id a lazy section names too.
    struct RepeatedID: Error {}

    /// The store of `index`'s sections: those it is unsure of are parsed now, in order, by
    /// `reader` (which collects their warnings); the others when first needed.
    static func store(source: Data, index: MarkdownIndex, reader: inout MarkdownReader) throws -> ParagraphStore {
        var sections = index.sections
        // A repeated attachment id must be warned about where it repeats: read all such files whole.
        var lazyIDs = Set<UInt64>()
        let lazyCount = sections.reduce(0) { $0 + ($1.paragraphs == nil ? 0 : $1.attachmentIDs.count) }
        for section in sections where section.paragraphs != nil { lazyIDs.formUnion(section.attachmentIDs) }
        if lazyIDs.count != lazyCount { sections = MarkdownIndex(unsure: index).sections }
        var segments: [ParagraphStore.Segment] = [], parsedAtOpen = 0
        try source.withUnsafeBytes { raw in
            var next = 0
            for (k, section) in sections.enumerated() {
                if let count = section.paragraphs {
                    segments.append(ParagraphStore.Segment(section: k, count: count, paragraphs: nil, kept: false, firstID: next))
                } else {
                    let paragraphs = try reader.read(section: UnsafeRawBufferPointer(rebasing: raw[section.bytes]),
                                                     firstLine: section.firstLine, firstID: next)
                    segments.append(ParagraphStore.Segment(section: nil, count: paragraphs.count, paragraphs: paragraphs, kept: true, firstID: next))
                    parsedAtOpen += 1
                }
                next += segments[segments.count - 1].count
            }
        }
        // Every id the reader saw, also of images it dropped (one inside another's alt text).
        if reader.attachmentIDsSeen.contains(where: { lazyIDs.contains(StableHash.of($0)) }) { throw RepeatedID() }
        let lazy = MarkdownSections(source: source, sections: sections, fileName: reader.fileName, baseURL: reader.baseURL,
                                    limits: reader.limits, kinds: reader.kinds)
        return ParagraphStore(segments: segments, lazy: lazy, parsedAtOpen: parsedAtOpen)
    }

    func paragraphs(ofSection k: Int, firstID: Int, count: Int) -> [TextParagraph] {
        let section = sections[k]
        var reader = MarkdownReader(fileName: fileName, baseURL: baseURL, limits: limits, kinds: kinds)
        let parsed = try? source.withUnsafeBytes {
            try reader.read(section: UnsafeRawBufferPointer(rebasing: $0[section.bytes]), firstLine: section.firstLine, firstID: firstID)
        }
        if let parsed, parsed.count == count { return parsed }
        // A lazy parse that disagrees with the index (an index bug: the fuzzer compares every
        // document read in sections with the same one read whole) still yields the paragraphs
        // the document was promised, so ids and counts already handed out hold: the section's
        // source as written, then empty paragraphs. A render never ends here, and what it draws
        // depends on the input alone.
        let text = String(decoding: source[section.bytes], as: UTF8.self)
        return (0..<count).map { n in
            TextParagraph(id: ParagraphID(firstID + n), kind: n == 0 ? .codeBlock(language: nil) : .body,
                          text: n == 0 ? text : "", sourceLine: section.firstLine)
        }
    }

    func mayHoldAttachment(_ id: String, inSection k: Int) -> Bool {
        sections[k].attachmentIDs.contains(StableHash.of(id))
    }

    func heading(_ match: HeadingMatch, inSection k: Int) -> SectionSearch {
        let section = sections[k]
        guard !section.styledHeadings else { return .unknown }
        for (paragraph, range) in section.plainHeadings {
            if source.withUnsafeBytes({ match.matches(UnsafeRawBufferPointer(rebasing: $0[range])) }) { return .found(paragraph) }
        }
        return .absent
    }
}

extension TextDocument {
    /// The Markdown file's sections as the index cut them, in order: each one's bytes, how many
    /// paragraphs it holds, and whether the index was sure of it (it was left to parse on
    /// demand: its paragraphs depend on its bytes alone; one parsed when the file was read
    /// shares the reader's numbering of formulas and images with the sections before it). Nil
    /// for a document not read from Markdown, or edited since.
    package var markdownSections: [(bytes: Range<Int>, paragraphs: Int, sure: Bool)]? {
        guard let (lazy, segments) = paragraphStore.readSegments, let sections = lazy as? MarkdownSections,
              sections.sections.count == segments.count else { return nil }
        return zip(sections.sections, segments).map { ($0.bytes, $1.count, $1.section != nil) }
    }
}
