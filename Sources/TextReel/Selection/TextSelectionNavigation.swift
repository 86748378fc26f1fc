import Foundation

/// Moves and extends selections as keys do (`NSTextSelectionNavigation`), from Pango's cursor
/// positions and word boundaries: characters are grapheme clusters, left and right are visual
/// (through right-to-left runs), up and down keep the column they started from.
public final class TextSelectionNavigation {
    /// Which way a move goes: in text order (forward, backward), on screen (left, right,
    /// through right-to-left runs as they show), or between lines (up, down).
    public enum Direction: String, Sendable, CaseIterable {
        /// Towards the text's end.
        case forward
        /// Towards the text's start.
        case backward
        /// Visually left.
        case left
        /// Visually right.
        case right
        /// To the line above, keeping the column.
        case up
        /// To the line below, keeping the column.
        case down
    }

    /// How far a move goes.
    public enum Destination: String, Sendable, CaseIterable {
        /// One grapheme cluster.
        case character
        /// To the next word's end, or the previous word's start.
        case word
        /// To the line's end or start.
        case line
        /// To the sentence's end, or the previous sentence's start.
        case sentence
        /// To the paragraph's end or start (then the next paragraph's).
        case paragraph
        /// To the document's end or start.
        case document
    }

    /// The layout whose positions it moves through.
    public unowned let textLayoutManager: TextLayoutManager
    /// The x that up and down keep, set by the first vertical move and cleared by any other.
    private var goalX: Double?

    /// Navigation through `textLayoutManager`'s text.
    public init(textLayoutManager: TextLayoutManager) { self.textLayoutManager = textLayoutManager }

    /// Where `selection` goes: its head moved by one `destination` in `direction`; with
    /// `extending` the anchor stays (a selection), else the result is a caret. `confined` keeps
    /// it in its paragraph. Nil when the document is empty.
    public func destinationSelection(for selection: TextSelection, direction: Direction, destination: Destination,
                                     extending: Bool, confined: Bool = false) -> TextSelection? {
        let manager = textLayoutManager
        guard manager.paragraphCount > 0 else { return nil }
        if direction != .up && direction != .down { goalX = nil }
        // A collapsing move from a selection lands on its side, as text views do.
        if !extending, !selection.isEmpty, destination == .character, direction != .up, direction != .down {
            let range = selection.textRanges[0]
            return TextSelection([.backward, .left].contains(direction) ? range.start : range.end)
        }
        var affinity = TextSelection.Affinity.downstream
        let head = move(selection.head, direction: direction, destination: destination, confined: confined, affinity: &affinity)
        guard extending else { return TextSelection(head, affinity: affinity) }
        var result = TextSelection(anchor: selection.anchor, head: head, affinity: affinity, granularity: selection.granularity, in: manager)
        result.markedTextRange = nil
        return result
    }

    private func move(_ location: TextLocation, direction: Direction, destination: Destination, confined: Bool,
                      affinity: inout TextSelection.Affinity) -> TextLocation {
        let manager = textLayoutManager
        guard let index = manager.index(of: location.paragraph) else { return location }
        let fragment = manager.ensureLayout(forParagraphAt: index)
        let paragraph = fragment.paragraph
        // Pango's cursor positions count bytes: moves are made in bytes, locations given in UTF-16.
        let length = paragraph.text.utf8.count
        let offset = paragraph.utf8Offset(of: location)
        // Left and right are visual: in a right-to-left paragraph, left goes forward. Forward and
        // backward are logical everywhere (the explorer found backspace at the end of an Arabic
        // paragraph joining the next one: backward had been flipped too).
        let rightToLeft = paragraph.isRightToLeft(fragment)
        let forward = direction == .forward || direction == .down || (direction == .right && !rightToLeft) || (direction == .left && rightToLeft)
        func at(_ i: Int, _ o: Int) -> TextLocation { manager.document.paragraphs[i].location(utf8: o) }
        func neighbour(forward: Bool) -> TextLocation? {
            guard !confined else { return nil }
            let next = index + (forward ? 1 : -1)
            guard next >= 0, next < manager.paragraphCount else { return nil }
            return at(next, forward ? 0 : manager.document.paragraphs[next].text.utf8.count)
        }
        guard let cursor = fragment.cursor else { return location }
        switch (destination, direction) {
        case (.document, _):
            return forward ? at(manager.paragraphCount - 1, manager.document.paragraphs[manager.paragraphCount - 1].text.utf8.count) : at(0, 0)
        case (.paragraph, _):
            if forward { return offset < length ? at(index, length) : neighbour(forward: true) ?? location }
            return offset > 0 ? at(index, 0) : neighbour(forward: false) ?? location
        case (.line, .up), (.line, .down), (.character, .up), (.character, .down):
            return vertical(from: location, in: fragment, index: index, down: direction == .down, confined: confined)
        case (.line, _):
            let lines = fragment.textLineFragments
            guard let line = lines.last(where: { $0.utf8Range.lowerBound <= offset }) else { return location }
            if forward {
                affinity = .upstream
                let end = line.utf8Range.upperBound
                // The end of a wrapped line is the next one's start, seen from upstream; a hard end stays.
                return at(index, end)
            }
            return at(index, line.utf8Range.lowerBound)
        case (.word, _), (.sentence, _):
            let word = destination == .word
            if forward {
                if let end = (word ? cursor.wordEnds : cursor.sentenceEnds).first(where: { $0 > offset }) { return at(index, end) }
                return neighbour(forward: true) ?? at(index, length)
            }
            if let start = (word ? cursor.wordStarts : cursor.sentenceStarts).last(where: { $0 < offset }) { return at(index, start) }
            return neighbour(forward: false) ?? at(index, 0)
        case (.character, .left), (.character, .right):
            if let moved = cursor.moveVisually(from: offset, direction: direction == .right ? 1 : -1) { return at(index, moved) }
            return neighbour(forward: forward) ?? location
        case (.character, _):
            let stops = cursor.cursorOffsets
            if forward, let next = stops.first(where: { $0 > offset }) { return at(index, next) }
            if !forward, let previous = stops.last(where: { $0 < offset }) { return at(index, previous) }
            return neighbour(forward: forward) ?? location
        }
    }

    /// What deleting from `textSelection` removes (`deletionRanges(for:direction:destination:
    /// allowsDecomposition:)`): a selection's ranges, or from a caret the span one `destination`
    /// in `direction` (a paragraph break at a paragraph's edge). Characters are grapheme
    /// clusters: a ZWJ emoji sequence, a flag, a letter with its marks go whole, unless
    /// `allowsDecomposition` lets a backward delete take the last combining mark alone.
    public func deletionRanges(for textSelection: TextSelection, direction: Direction, destination: Destination,
                               allowsDecomposition: Bool = false) -> [TextRange] {
        guard textSelection.isEmpty else { return textSelection.textRanges.filter { !$0.isEmpty } }
        let caret = textSelection.head
        if allowsDecomposition, destination == .character, direction == .backward,
           let index = textLayoutManager.index(of: caret.paragraph), case let paragraph = textLayoutManager.document.paragraphs[index],
           let mark = paragraph.lastCombiningMark(before: paragraph.utf8Offset(of: caret)) {
            return [TextRange(start: paragraph.location(utf8: mark), end: caret)]
        }
        let saved = goalX
        defer { goalX = saved }
        guard let moved = destinationSelection(for: textSelection, direction: direction, destination: destination, extending: true),
              let range = moved.textRanges.first, !range.isEmpty else { return [] }
        return [range]
    }

    /// The selection a tap at document point `point` makes (`textSelections(interactingAt:…)`):
    /// a caret at the nearest position for one tap (upstream when the point is on the line a
    /// wrap ends), the word under it for two, its paragraph for three or more. Empty outside the
    /// paragraphs.
    public func textSelections(interactingAt point: CGPoint, clickCount: Int = 1) -> [TextSelection] {
        let manager = textLayoutManager
        goalX = nil
        guard let fragment = manager.textLayoutFragment(for: point), let cursor = fragment.cursor else { return [] }
        let frame = fragment.layoutFragmentFrame
        let local = CGPoint(x: point.x - frame.minX, y: point.y - frame.minY)
        guard let offset = fragment.characterIndex(for: local) else { return [] }
        func location(_ o: Int) -> TextLocation { fragment.paragraph.location(utf8: o) }
        switch clickCount {
        case ...1:
            let lines = fragment.textLineFragments
            let tappedLine = lines.lastIndex { local.y >= $0.typographicBounds.minY } ?? 0
            let wraps = tappedLine + 1 < lines.count && lines[tappedLine + 1].utf8Range.lowerBound == offset
            return [TextSelection(location(offset), affinity: wraps ? .upstream : .downstream)]
        case 2:
            let start = cursor.wordStarts.last { $0 <= offset } ?? 0
            let end = cursor.wordEnds.first { $0 > start } ?? fragment.paragraph.text.utf8.count
            var selection = TextSelection(anchor: location(start), head: location(max(end, start)), granularity: .word, in: manager)
            selection.affinity = .downstream
            return [selection]
        default:
            return [TextSelection(anchor: location(0), head: location(fragment.paragraph.text.utf8.count), granularity: .paragraph, in: manager)]
        }
    }

    /// Up or down a line, keeping the goal column; across paragraphs unless confined.
    private func vertical(from location: TextLocation, in fragment: TextLayoutFragment, index: Int, down: Bool, confined: Bool) -> TextLocation {
        let manager = textLayoutManager
        let offset = fragment.paragraph.utf8Offset(of: location)
        let caret = fragment.caretRect(atOffset: offset) ?? .zero
        let x = goalX ?? caret.minX
        goalX = x
        let lines = fragment.textLineFragments
        let current = lines.lastIndex(where: { $0.utf8Range.lowerBound <= offset }) ?? 0
        let target = current + (down ? 1 : -1)
        if target >= 0 && target < lines.count {
            let y = lines[target].typographicBounds.midY
            return fragment.paragraph.location(utf8: fragment.characterIndex(for: CGPoint(x: x, y: y)) ?? offset)
        }
        let next = index + (down ? 1 : -1)
        guard !confined, next >= 0, next < manager.paragraphCount else {
            return TextLocation(paragraph: fragment.paragraph.id, offset: down ? fragment.paragraph.utf16Count : 0)
        }
        let other = manager.ensureLayout(forParagraphAt: next)
        guard let line = down ? other.textLineFragments.first : other.textLineFragments.last else {
            return TextLocation(paragraph: other.paragraph.id)
        }
        return other.paragraph.location(utf8: other.characterIndex(for: CGPoint(x: x, y: line.typographicBounds.midY)) ?? 0)
    }
}

private extension TextParagraph {
    /// The offset of the combining mark that ends the cluster before `offset`, when that cluster
    /// is a base with marks (not a ZWJ sequence, not a variation selector's).
    func lastCombiningMark(before offset: Int) -> Int? {
        let utf8 = text.utf8
        guard offset > 0, offset <= utf8.count, let end = utf8.index(utf8.startIndex, offsetBy: offset, limitedBy: utf8.endIndex),
              end.samePosition(in: text.unicodeScalars) != nil, end > text.startIndex else { return nil }
        let cluster = text[text.index(before: end)..<end]
        let scalars = Array(cluster.unicodeScalars)
        guard scalars.count > 1, let last = scalars.last, !scalars.contains("\u{200D}"), !last.properties.isVariationSelector,
              [.nonspacingMark, .spacingMark, .enclosingMark].contains(last.properties.generalCategory) else { return nil }
        return offset - String(last).utf8.count
    }

    /// Whether its first line runs right to left (Arabic, Hebrew), so that right is backward.
    func isRightToLeft(_ fragment: TextLayoutFragment) -> Bool { fragment.textLineFragments.first?.isRightToLeft ?? false }
}
