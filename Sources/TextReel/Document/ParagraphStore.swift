import Foundation

/// The reader's side of a store's lazy sections: sections of the source it counted without
/// parsing, parsed when a paragraph of theirs is first needed. The engine knows them by number.
package protocol LazySections: Sendable {
    /// Section `k`'s `count` paragraphs, their ids from `firstID`: the same ones every time.
    func paragraphs(ofSection k: Int, firstID: Int, count: Int) -> [TextParagraph]
    /// Whether section `k` may hold attachment `id` (false: it certainly does not).
    func mayHoldAttachment(_ id: String, inSection k: Int) -> Bool
    /// The first heading of section `k` that `match` accepts, found without parsing it.
    func heading(_ match: HeadingMatch, inSection k: Int) -> SectionSearch
}

/// What a look at an unparsed section found.
package enum SectionSearch {
    /// The paragraph at this index of the section.
    case found(Int)
    /// None there.
    case absent
    /// Only a parse can tell.
    case unknown
}

/// The paragraphs behind a `TextDocument`, section by section. A lazy section (`LazySections`)
/// stays bytes of the source until one of its paragraphs is first asked for; it is then parsed
/// and kept while it is among the `keptSections` most recently used (a parse gives the same
/// paragraphs again, so dropping it changes nothing but memory). Sections parsed when the file was
/// opened, and edited ones, keep their paragraphs for good.
///
/// A class under `TextDocument`'s value semantics: a document copies it before editing one it
/// shares, and reads lock it: a document value may be read from several threads (golden cases
/// and tests share one).
package final class ParagraphStore: @unchecked Sendable {
    package struct Segment {
        /// Its number among the reader's lazy sections; nil for paragraphs parsed or given.
        var section: Int?
        package var count: Int
        /// Nil while the section is only bytes.
        var paragraphs: [TextParagraph]?
        /// Its paragraphs are the only copy (parsed at open or edited): never dropped.
        var kept: Bool
        /// Changed since reading: ids may no longer run from `firstID` one by one.
        var edited = false
        /// The id of its first paragraph when read.
        var firstID: Int

        package init(section: Int?, count: Int, paragraphs: [TextParagraph]?, kept: Bool, edited: Bool = false, firstID: Int) {
            self.section = section; self.count = count; self.paragraphs = paragraphs
            self.kept = kept; self.edited = edited; self.firstID = firstID
        }
    }

    /// How many lazily parsed sections stay parsed.
    static let keptSections = 64

    private let lazy: (any LazySections)?
    private var segments: [Segment]
    /// `starts[k]`: the index of segment k's first paragraph; the last entry is the count.
    private var starts: [Int]
    /// Lazily parsed segments, least recently used first.
    private var recent: [Int] = []
    private let lock = NSLock()

    /// Paragraphs given as values.
    convenience init(paragraphs: [TextParagraph]) {
        let firstID = paragraphs.first?.id.rawValue ?? 0
        let consecutive = paragraphs.indices.allSatisfy { paragraphs[$0].id.rawValue == firstID + $0 }
        self.init(segments: [Segment(section: nil, count: paragraphs.count, paragraphs: paragraphs, kept: true,
                                     edited: !consecutive, firstID: firstID)], lazy: nil, parsedAtOpen: 0)
    }

    /// `segments` in order, the lazy ones parsed by `lazy` when needed; `parsedAtOpen` of them
    /// were parsed when the source was read.
    package init(segments: [Segment], lazy: (any LazySections)?, parsedAtOpen: Int) {
        self.segments = segments
        self.lazy = lazy
        self.parsedAtOpen = parsedAtOpen
        starts = segments.reduce(into: [0]) { $0.append($0[$0.count - 1] + $1.count) }
    }

    func copy() -> ParagraphStore {
        lock.lock(); defer { lock.unlock() }
        return ParagraphStore(copying: self)
    }

    private init(copying other: ParagraphStore) {
        lazy = other.lazy
        segments = other.segments
        starts = other.starts
        recent = other.recent
        parsedAtOpen = other.parsedAtOpen
        lazyParses = other.lazyParses
    }

    var count: Int { starts[starts.count - 1] }

    /// The reader's lazy sections and each segment's paragraph count and section (nil for one
    /// parsed when the source was read), in order, while no edit has changed them (a reader
    /// compares two versions of a file by them); nil after one.
    package var readSegments: (lazy: (any LazySections)?, segments: [(count: Int, section: Int?)])? {
        lock.withLock { segments.contains(where: \.edited) ? nil : (lazy, segments.map { ($0.count, $0.section) }) }
    }

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

    /// A lazy segment's section, parsed (needs no lock: the reader's sections never change).
    private func parse(_ segment: Segment) -> [TextParagraph] {
        lazy!.paragraphs(ofSection: segment.section!, firstID: segment.firstID, count: segment.count)
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
        for k in segments.indices {
            if segments[k].paragraphs == nil, let section = segments[k].section, !lazy!.mayHoldAttachment(id, inSection: section) { continue }
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
            if segments[k].paragraphs == nil, let section = segments[k].section {
                switch lazy!.heading(match, inSection: section) {
                case .found(let paragraph): return starts[k] + paragraph
                case .absent: continue
                case .unknown: break
                }
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
