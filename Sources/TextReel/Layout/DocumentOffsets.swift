import Foundation

/// Where each paragraph starts in the whole text's UTF-16 offsets (one unit per paragraph
/// break): what TextKit's document-wide offsets and ranges count. Incremental, as the height
/// index is: a question about paragraph k reads the lengths of paragraphs 0 to k once (a lazy
/// document parses no section past it), and an edit splices one length and forgets only the
/// starts after it, which are sums of known lengths, not re-reads of text.
final class DocumentOffsets {
    private unowned let manager: TextLayoutManager
    /// UTF-16 length plus one (its break) of each paragraph of a prefix of the document.
    private var lengths: [Int] = []
    /// `starts[i]`: paragraph i's first offset, for a prefix of `lengths` (and one past it).
    private var starts: [Int] = [0]

    init(_ manager: TextLayoutManager) { self.manager = manager }

    private func length(ofParagraphAt index: Int) -> Int { manager.document.paragraphs[index].utf16Count + 1 }

    /// Paragraph `index` was replaced by an edit.
    func replaced(at index: Int) {
        guard index < lengths.count else { return }
        lengths[index] = length(ofParagraphAt: index)
        forgetStarts(after: index)
    }

    /// A paragraph was inserted at `index`.
    func inserted(at index: Int) {
        guard index <= lengths.count else { return }
        lengths.insert(length(ofParagraphAt: index), at: index)
        forgetStarts(after: index)
    }

    /// Paragraph `index` was removed.
    func removed(at index: Int) {
        guard index < lengths.count else { return }
        lengths.remove(at: index)
        forgetStarts(after: index)
    }

    private func forgetStarts(after index: Int) {
        if starts.count > index + 1 { starts.removeSubrange((index + 1)...) }
    }

    /// Makes the starts of paragraphs 0 to `index + 1` known (`index` < the paragraph count).
    private func know(through index: Int) {
        while lengths.count <= index { lengths.append(length(ofParagraphAt: lengths.count)) }
        while starts.count <= index + 1 { starts.append(starts[starts.count - 1] + lengths[starts.count - 1]) }
    }

    /// UTF-16 units in the whole text (every paragraph's length is read).
    var length: Int {
        let count = manager.paragraphCount
        guard count > 0 else { return 0 }
        know(through: count - 1)
        return starts[count] - 1
    }

    /// Paragraph `index`'s text and its break (the last paragraph has none).
    func range(ofParagraphAt index: Int) -> NSRange {
        know(through: index)
        let isLast = index == manager.paragraphCount - 1
        return NSRange(location: starts[index], length: lengths[index] - (isLast ? 1 : 0))
    }

    /// The paragraph holding whole-text offset `location`, and the offset within it.
    func paragraph(containing location: Int) -> (index: Int, offset: Int)? {
        let count = manager.paragraphCount
        guard count > 0, location >= 0 else { return nil }
        // Read on until a start lies past the location (or the document ends).
        while starts.count - 1 < count, starts[starts.count - 1] <= location { know(through: starts.count - 1) }
        let known = starts.count - 1
        guard location <= starts[known] - (known == count ? 1 : 0) else { return nil }
        var low = 0, high = known - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if starts[mid] <= location { low = mid } else { high = mid - 1 }
        }
        return (low, location - starts[low])
    }

    /// `location` as a whole-text offset (nil: its paragraph is gone or the offset is past its end).
    func offset(of location: TextLocation) -> Int? {
        guard let index = manager.index(of: location.paragraph), location.offset >= 0,
              location.offset <= manager.document.paragraphs[index].utf16Count else { return nil }
        know(through: index)
        return starts[index] + location.offset
    }

    /// The location at whole-text offset `offset` (nil past the end, or inside a character).
    func location(at offset: Int) -> TextLocation? {
        guard let (index, local) = paragraph(containing: offset) else { return nil }
        let paragraph = manager.document.paragraphs[index]
        let text = paragraph.text
        let clamped = min(local, text.utf16.count)
        // Inside a surrogate pair is no location, as before a character's second half.
        guard let utf16 = text.utf16.index(text.utf16.startIndex, offsetBy: clamped, limitedBy: text.utf16.endIndex),
              utf16.samePosition(in: text.unicodeScalars) != nil else { return nil }
        return TextLocation(paragraph: paragraph.id, offset: clamped)
    }
}
