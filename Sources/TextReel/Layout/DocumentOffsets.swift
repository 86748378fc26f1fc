import Foundation

/// Where each paragraph starts in the whole text's UTF-16 offsets (one unit per paragraph
/// break): what TextKit's document-wide offsets and ranges count. Built when first asked, from
/// every paragraph's text, and again after an edit.
final class DocumentOffsets {
    private unowned let manager: TextLayoutManager
    private var starts: [Int]?

    init(_ manager: TextLayoutManager) { self.manager = manager }

    func invalidate() { starts = nil }

    private var table: [Int] {
        if let starts { return starts }
        var built = [Int](), at = 0
        built.reserveCapacity(manager.paragraphCount + 1)
        for paragraph in manager.document.paragraphs {
            built.append(at)
            at += paragraph.text.utf16.count + 1
        }
        built.append(max(at - 1, 0))
        starts = built
        return built
    }

    /// UTF-16 units in the whole text.
    var length: Int { table.last ?? 0 }

    /// Paragraph `index`'s text and its break.
    func range(ofParagraphAt index: Int) -> NSRange {
        let t = table
        let end = index + 1 < t.count - 1 ? t[index + 1] : t[t.count - 1]
        return NSRange(location: t[index], length: end - t[index])
    }

    /// The paragraph holding whole-text offset `location`, and the offset within it.
    func paragraph(containing location: Int) -> (index: Int, offset: Int)? {
        let t = table
        guard t.count > 1, location >= 0, location <= t[t.count - 1] else { return nil }
        var low = 0, high = t.count - 2
        while low < high {
            let mid = (low + high + 1) / 2
            if t[mid] <= location { low = mid } else { high = mid - 1 }
        }
        return (low, location - t[low])
    }

    /// `location` as a whole-text offset (nil: its paragraph is gone or the offset is past its end).
    func offset(of location: TextLocation) -> Int? {
        guard let index = manager.index(of: location.paragraph) else { return nil }
        let text = manager.document.paragraphs[index].text
        guard let utf8 = text.utf8.index(text.utf8.startIndex, offsetBy: location.offset, limitedBy: text.utf8.endIndex),
              let utf16 = utf8.samePosition(in: text.utf16) else { return nil }
        return table[index] + text.utf16.distance(from: text.utf16.startIndex, to: utf16)
    }

    /// The location at whole-text offset `offset` (nil past the end, or inside a character).
    func location(at offset: Int) -> TextLocation? {
        guard let (index, local) = paragraph(containing: offset) else { return nil }
        let paragraph = manager.document.paragraphs[index]
        let text = paragraph.text
        let clamped = min(local, text.utf16.count)
        guard let utf16 = text.utf16.index(text.utf16.startIndex, offsetBy: clamped, limitedBy: text.utf16.endIndex),
              let utf8 = utf16.samePosition(in: text.utf8) else { return nil }
        return TextLocation(paragraph: paragraph.id, offset: text.utf8.distance(from: text.utf8.startIndex, to: utf8))
    }
}
