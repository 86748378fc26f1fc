import Foundation
import TextReel

extension TextDocument {
    /// How many paragraphs at its start and at its end this version of a file shares with `old`,
    /// an earlier version (their content: ids differ): the paragraphs between are what changed.
    /// The index's sections whose bytes the two versions share, at the same place from the start
    /// or from the end, hold the same paragraphs without being parsed; only the sections around
    /// the change are compared paragraph by paragraph. So a save of a long file costs its index
    /// scan and a section's parse, not a parse of the whole file.
    public func sharedEnds(with old: TextDocument) -> (prefix: Int, suffix: Int) {
        let new = paragraphs, earlier = old.paragraphs
        var prefix = 0, suffix = 0
        if let mine = markdownSections, let theirs = old.markdownSections, let source = markdownSource, let oldSource = old.markdownSource {
            (prefix, suffix) = Self.sharedSections(mine, source, theirs, oldSource)
        }
        while prefix < new.count - suffix, prefix < earlier.count - suffix, new[prefix].hasSameContent(as: earlier[prefix]) { prefix += 1 }
        while suffix < new.count - prefix, suffix < earlier.count - prefix,
              new[new.count - 1 - suffix].hasSameContent(as: earlier[earlier.count - 1 - suffix]) { suffix += 1 }
        return (prefix, suffix)
    }

    /// The paragraphs in the sections two sources share at their start and at their end: a
    /// section counts when it lies wholly inside the bytes the two have in common there, was cut
    /// at the same place in both (a cut is made where the scan's state is fresh), and the index
    /// was sure of it in both (its paragraphs, ids included, depend on its bytes alone).
    private static func sharedSections(_ new: [(bytes: Range<Int>, paragraphs: Int, sure: Bool)], _ newBytes: Data,
                                       _ old: [(bytes: Range<Int>, paragraphs: Int, sure: Bool)], _ oldBytes: Data) -> (prefix: Int, suffix: Int) {
        let (head, tail) = newBytes.withUnsafeBytes { a in
            oldBytes.withUnsafeBytes { b -> (Int, Int) in
                let shortest = min(a.count, b.count)
                var head = 0
                while head < shortest, a[head] == b[head] { head += 1 }
                var tail = 0
                while tail < shortest - head, a[a.count - 1 - tail] == b[b.count - 1 - tail] { tail += 1 }
                return (head, tail)
            }
        }
        var prefix = 0, k = 0
        while k < new.count, k < old.count, new[k].bytes == old[k].bytes, new[k].paragraphs == old[k].paragraphs, new[k].bytes.upperBound < head,
              new[k].sure, old[k].sure {
            prefix += new[k].paragraphs
            k += 1
        }
        var suffix = 0, back = 1
        while back <= new.count - k, back <= old.count - k {
            let mine = new[new.count - back], theirs = old[old.count - back]
            let fromEnd = newBytes.count - mine.bytes.lowerBound
            guard fromEnd == oldBytes.count - theirs.bytes.lowerBound, mine.bytes.count == theirs.bytes.count,
                  mine.paragraphs == theirs.paragraphs, fromEnd < tail, mine.sure, theirs.sure else { break }
            suffix += mine.paragraphs
            back += 1
        }
        return (prefix, suffix)
    }

    /// The Markdown bytes it was read from, while it holds them (not after an edit).
    private var markdownSource: Data? { (paragraphStore.readSegments?.lazy as? MarkdownSections)?.source }
}
