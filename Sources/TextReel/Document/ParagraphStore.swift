import Foundation

/// The paragraphs behind a `TextDocument`, section by section. A section the index is sure of
/// stays bytes of the source until one of its paragraphs is first asked for; it is then parsed and
/// kept while it is among the `keptSections` most recently used (a parse gives the same
/// paragraphs again, so dropping it changes nothing but memory). Sections parsed when the file was
/// opened, and edited ones, keep their paragraphs for good.
///
/// A class under `TextDocument`'s value semantics: a document copies it before editing one it
/// shares, and reads lock it: a document value may be read from several threads (golden cases
/// and tests share one).
final class ParagraphStore: @unchecked Sendable {
    struct Segment {
        /// Its source; nil for paragraphs given as values.
        var section: MarkdownIndex.Section?
        var count: Int
        /// Nil while the section is only bytes.
        var paragraphs: [TextParagraph]?
        /// Its paragraphs are the only copy (parsed at open or edited): never dropped.
        var kept: Bool
        /// Changed since reading: ids may no longer run from `firstID` one by one.
        var edited = false
        /// The id of its first paragraph when read.
        var firstID: Int
    }

    /// How many lazily parsed sections stay parsed.
    static let keptSections = 64

    private let source: Data
    private let fileName: String
    private let baseURL: URL?
    private let limits: ReadingLimits
    private let kinds: AttachmentKinds?
    private var segments: [Segment]
    /// `starts[k]`: the index of segment k's first paragraph; the last entry is the count.
    private var starts: [Int]
    /// Lazily parsed segments, least recently used first.
    private var recent: [Int] = []
    private let lock = NSLock()

    /// Paragraphs given as values.
    init(paragraphs: [TextParagraph]) {
        source = Data()
        fileName = ""
        baseURL = nil
        limits = .standard
        kinds = nil
        let firstID = paragraphs.first?.id.rawValue ?? 0
        let consecutive = paragraphs.indices.allSatisfy { paragraphs[$0].id.rawValue == firstID + $0 }
        segments = [Segment(section: nil, count: paragraphs.count, paragraphs: paragraphs, kept: true,
                            edited: !consecutive, firstID: firstID)]
        starts = [0, paragraphs.count]
    }

    /// The sections of `index`: those it is unsure of are parsed now, in order, by `reader`
    /// (which collects their warnings); the others when first needed.
    init(source: Data, index: MarkdownIndex, reader: inout MarkdownReader) throws {
        self.source = source
        fileName = reader.fileName
        baseURL = reader.baseURL
        limits = reader.limits
        kinds = reader.kinds
        segments = []
        starts = [0]
        var sections = index.sections
        // A repeated attachment id must be warned about where it repeats: read all such files whole.
        var lazyIDs = Set<UInt64>()
        let lazyCount = sections.reduce(0) { $0 + ($1.paragraphs == nil ? 0 : $1.attachmentIDs.count) }
        for section in sections where section.paragraphs != nil { lazyIDs.formUnion(section.attachmentIDs) }
        if lazyIDs.count != lazyCount { sections = MarkdownIndex(unsure: index).sections }
        try source.withUnsafeBytes { raw in
            var next = 0
            for section in sections {
                if let count = section.paragraphs {
                    segments.append(Segment(section: section, count: count, paragraphs: nil, kept: false, firstID: next))
                } else {
                    let paragraphs = try reader.read(section: UnsafeRawBufferPointer(rebasing: raw[section.bytes]),
                                                     firstLine: section.firstLine, firstID: next)
                    segments.append(Segment(section: section, count: paragraphs.count, paragraphs: paragraphs, kept: true, firstID: next))
                    parsedAtOpen += 1
                }
                next += segments[segments.count - 1].count
                starts.append(next)
            }
        }
        // Every id the reader saw, also of images it dropped (one inside another's alt text).
        if reader.attachmentIDsSeen.contains(where: { lazyIDs.contains(StableHash.of($0)) }) { throw RepeatedID() }
    }

    /// Thrown when a section parsed at open names an id a lazy section names too.
    struct RepeatedID: Error {}

    func copy() -> ParagraphStore {
        lock.lock(); defer { lock.unlock() }
        return ParagraphStore(copying: self)
    }

    private init(copying other: ParagraphStore) {
        source = other.source
        fileName = other.fileName
        baseURL = other.baseURL
        limits = other.limits
        kinds = other.kinds
        segments = other.segments
        starts = other.starts
        recent = other.recent
        parsedAtOpen = other.parsedAtOpen
        lazyParses = other.lazyParses
    }

    var count: Int { starts[starts.count - 1] }

    /// What layout made the reader do, for tests and the benchmark: sections parsed at open,
    /// parses since, and how many sections are parsed now.
    private(set) var parsedAtOpen = 0
    private(set) var lazyParses = 0
    var sectionsParsedNow: Int { lock.lock(); defer { lock.unlock() }; return segments.filter { $0.paragraphs != nil }.count }
    var sectionCount: Int { segments.count }
    /// Whether a section is still only bytes: reading across the document would parse.
    var hasUnparsedSections: Bool { lock.lock(); defer { lock.unlock() }; return segments.contains { $0.paragraphs == nil } }

    /// A section not parsed yet is parsed outside the lock, so a thread reading parsed sections
    /// (the one shaping the first screen) never waits for another's parse (the one sampling
    /// heights across the document); two threads wanting one section may both parse it, and
    /// the first parse stored is kept.
    subscript(index: Int) -> TextParagraph {
        lock.lock()
        let k = segment(containing: index)
        if segments[k].paragraphs != nil {
            defer { lock.unlock() }
            return paragraphs(of: k)[index - starts[k]]
        }
        let (segment, local) = (segments[k], index - starts[k])
        lock.unlock()
        let parsed = parse(segment)
        lock.lock(); defer { lock.unlock() }
        // Nothing edits a store another document shares (it is copied first): segment k is the one parsed.
        if let stored = segments[k].paragraphs { return stored[local] }
        return keep(parsed, at: k)[local]
    }

    /// The segment holding paragraph `index` (0 ≤ index < count).
    private func segment(containing index: Int) -> Int {
        var low = 0, high = segments.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if starts[mid] <= index { low = mid } else { high = mid - 1 }
        }
        return low
    }

    /// A lazy parse that disagrees with the index (an index bug: the fuzzer compares every
    /// document read in sections with the same one read whole) still yields the paragraphs the
    /// document was promised, so ids and counts already handed out hold: the section's source as
    /// written, then empty paragraphs. A render never ends here, and what it draws depends on the
    /// input alone.
    private func fitted(to segment: Segment, section: MarkdownIndex.Section) -> [TextParagraph] {
        let text = String(decoding: source[section.bytes], as: UTF8.self)
        return (0..<segment.count).map { n in
            TextParagraph(id: ParagraphID(segment.firstID + n), kind: n == 0 ? .codeBlock(language: nil) : .body,
                          text: n == 0 ? text : "", sourceLine: section.firstLine)
        }
    }

    /// Segment k's paragraphs, parsing its section if needed. Call with the lock held.
    private func paragraphs(of k: Int) -> [TextParagraph] {
        if let paragraphs = segments[k].paragraphs {
            if !segments[k].kept, recent.last != k, let at = recent.firstIndex(of: k) {
                recent.remove(at: at)
                recent.append(k)
            }
            return paragraphs
        }
        return keep(parse(segments[k]), at: k)
    }

    /// A lazy segment's section, parsed (needs no lock: the source and reading options never change).
    private func parse(_ segment: Segment) -> [TextParagraph] {
        let section = segment.section!
        var reader = MarkdownReader(fileName: fileName, baseURL: baseURL, limits: limits, kinds: kinds!)
        var parsed: [TextParagraph]
        do {
            parsed = try source.withUnsafeBytes {
                try reader.read(section: UnsafeRawBufferPointer(rebasing: $0[section.bytes]),
                                firstLine: section.firstLine, firstID: segment.firstID)
            }
        } catch {
            parsed = []
        }
        return parsed.count == segment.count ? parsed : fitted(to: segment, section: section)
    }

    /// Keeps segment k's parsed paragraphs among the recently used. Call with the lock held.
    private func keep(_ parsed: [TextParagraph], at k: Int) -> [TextParagraph] {
        segments[k].paragraphs = parsed
        lazyParses += 1
        recent.append(k)
        if recent.count > Self.keptSections { segments[recent.removeFirst()].paragraphs = nil }
        return parsed
    }

    // MARK: Finding

    /// The index of the paragraph with `id`.
    func index(of id: ParagraphID) -> Int? {
        lock.lock(); defer { lock.unlock() }
        var low = 0, high = segments.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if segments[mid].firstID <= id.rawValue { low = mid } else { high = mid - 1 }
        }
        let segment = segments[low], local = id.rawValue - segment.firstID
        if local >= 0, local < segment.count, !segment.edited || segment.paragraphs![local].id == id {
            return starts[low] + local
        }
        if editedIDs == nil {
            var found: [ParagraphID: Int] = [:]
            for k in segments.indices where segments[k].edited {
                for (at, paragraph) in segments[k].paragraphs!.enumerated() { found[paragraph.id] = starts[k] + at }
            }
            editedIDs = found
        }
        return editedIDs![id]
    }

    /// Where the paragraphs of edited segments are, built when first needed after an edit that
    /// moved them.
    private var editedIDs: [ParagraphID: Int]?

    /// The first paragraph holding attachment `id`: sections that do not name it stay unparsed.
    func firstIndex(ofAttachment id: String) -> Int? {
        lock.lock(); defer { lock.unlock() }
        let hash = StableHash.of(id)
        for k in segments.indices {
            if segments[k].paragraphs == nil, segments[k].section?.attachmentIDs.contains(hash) != true { continue }
            if let at = paragraphs(of: k).firstIndex(where: { $0.attachments.contains { $0.id == id } }) { return starts[k] + at }
        }
        return nil
    }

    /// The first heading whose text, lowercased, is `wanted` (or contains it): plain headings of
    /// unparsed sections are compared in the source, other sections with headings are parsed.
    func firstIndex(ofHeading wanted: String, containing: Bool) -> Int? {
        lock.lock(); defer { lock.unlock() }
        let match = HeadingMatch(wanted: wanted, containing: containing)
        for k in segments.indices {
            if segments[k].paragraphs == nil, let section = segments[k].section, !section.styledHeadings {
                for (paragraph, range) in section.plainHeadings {
                    if source.withUnsafeBytes({ match.matches(UnsafeRawBufferPointer(rebasing: $0[range])) }) { return starts[k] + paragraph }
                }
                continue
            }
            if let at = paragraphs(of: k).firstIndex(where: {
                guard case .heading = $0.kind else { return false }
                var text = $0.text
                return text.withUTF8 { match.matches(UnsafeRawBufferPointer($0)) }
            }) {
                return starts[k] + at
            }
        }
        return nil
    }

    // MARK: Editing (on a store no other document shares)

    func replace(at index: Int, with paragraph: TextParagraph) {
        let k = editable(containing: index)
        editedIDs = nil
        segments[k].paragraphs![index - starts[k]] = paragraph
    }

    func insert(_ paragraph: TextParagraph, at index: Int) {
        let k = editable(index == count ? segments.count - 1 : segment(containing: index))
        segments[k].paragraphs!.insert(paragraph, at: index - starts[k])
        resize(k, by: 1)
    }

    func remove(at index: Int) {
        let k = editable(containing: index)
        segments[k].paragraphs!.remove(at: index - starts[k])
        resize(k, by: -1)
    }

    private func editable(containing index: Int) -> Int { editable(segment(containing: index)) }

    /// Segment k, parsed and kept for good, since its paragraphs are about to change.
    private func editable(_ k: Int) -> Int {
        _ = paragraphs(of: k)
        segments[k].kept = true
        segments[k].edited = true
        recent.removeAll { $0 == k }
        return k
    }

    private func resize(_ k: Int, by delta: Int) {
        editedIDs = nil
        segments[k].count += delta
        for j in (k + 1)..<starts.count { starts[j] += delta }
    }
}
