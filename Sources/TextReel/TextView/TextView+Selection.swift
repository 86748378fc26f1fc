import Foundation

/// The editing surface, with UITextView's names: the selection, typing and deleting at the caret,
/// the caret's rect, and scrolling so that a range is visible. Selections live on the layout
/// manager (`textSelections`); the caret and the highlight are drawn on a layer of their own, so
/// moving them redraws no fragment.
extension TextView {
    /// The first selection's range (nil: no selection, no caret). Setting it makes a caret
    /// (empty range) or a selection.
    public var selectedTextRange: TextRange? {
        get { textLayoutManager.textSelections.first?.textRanges.first }
        set {
            guard let range = newValue else { textLayoutManager.textSelections = []; return }
            var selection = TextSelection(range.start)
            selection.textRanges = [range]
            selection.head = range.end
            textLayoutManager.textSelections = [selection]
        }
    }

    /// The caret's rect for `location` in document coordinates (UIKit's 2 pt bar, as tall as the
    /// line), laid out if need be; nil when the location is not in the document.
    public func caretRect(for location: TextLocation, affinity: TextSelection.Affinity = .downstream) -> CGRect? {
        guard let index = textLayoutManager.index(of: location.paragraph) else { return nil }
        let fragment = textLayoutManager.ensureLayout(forParagraphAt: index)
        guard let rect = fragment.caretRect(atOffset: location.offset, affinity: affinity) else { return nil }
        let frame = fragment.layoutFragmentFrame
        return CGRect(x: frame.minX + rect.minX - 1, y: frame.minY + rect.minY, width: 2, height: rect.height)
    }

    /// Replaces the selection with `text` (at the caret when it is empty) and puts the caret after
    /// it; the edit is one of the paragraph's, as layout, the height index and attachment
    /// policies see any. A selection across paragraphs is narrowed to its first paragraph.
    public func insertText(_ text: String) throws {
        guard let range = selectedTextRange, let index = textLayoutManager.index(of: range.start.paragraph) else {
            throw TextReelError("there is no caret to type at; select a place first")
        }
        var paragraph = document.paragraphs[index]
        let start = range.start.offset
        let end = range.end.paragraph == range.start.paragraph ? range.end.offset : paragraph.text.utf8.count
        if end > start, let from = paragraph.characterIndex(ofUTF8: start), let to = paragraph.characterIndex(ofUTF8: end) {
            try deleteText(inParagraphAt: index, fromCharacter: from, length: to - from)
            paragraph = document.paragraphs[index]
        }
        guard let at = paragraph.characterIndex(ofUTF8: start) else { return }
        try insertText(text, inParagraphAt: index, atCharacter: at)
        selectedTextRange = TextRange(location: TextLocation(paragraph: paragraph.id, offset: start + text.utf8.count))
    }

    /// Deletes the selection, or the grapheme cluster before the caret (a family emoji, a flag, a
    /// letter with its marks go whole); at a paragraph's start, nothing.
    public func deleteBackward() throws { try delete(forward: false) }

    /// Deletes the selection, or the grapheme cluster after the caret; at a paragraph's end, nothing.
    public func deleteForward() throws { try delete(forward: true) }

    /// The selection (narrowed to its first paragraph), or the cluster beside the caret.
    private func delete(forward: Bool) throws {
        guard let range = selectedTextRange, let index = textLayoutManager.index(of: range.start.paragraph) else { return }
        let paragraph = document.paragraphs[index]
        var start = range.start.offset
        var end = range.end.paragraph == range.start.paragraph ? range.end.offset : paragraph.text.utf8.count
        if start == end {
            guard let stops = textLayoutManager.ensureLayout(forParagraphAt: index).cursor?.cursorOffsets,
                  let beside = forward ? stops.first(where: { $0 > start }) : stops.last(where: { $0 < start }) else { return }
            if forward { end = beside } else { start = beside }
        }
        guard let from = paragraph.characterIndex(ofUTF8: start), let to = paragraph.characterIndex(ofUTF8: end), to > from else { return }
        try deleteText(inParagraphAt: index, fromCharacter: from, length: to - from)
        selectedTextRange = TextRange(location: TextLocation(paragraph: paragraph.id, offset: start))
    }

    /// Puts uncommitted text (an input method's) in place of the marked text, or of the
    /// selection when there is none, marks it, and puts the caret after it (`setMarkedText`).
    public func setMarkedText(_ text: String) throws {
        if let marked = textLayoutManager.textSelections.first?.markedTextRange { selectedTextRange = marked }
        guard let start = selectedTextRange?.start else { throw TextReelError("there is no caret to type at; select a place first") }
        try insertText(text)
        guard var selection = textLayoutManager.textSelections.first else { return }
        selection.markedTextRange = text.isEmpty ? nil : TextRange(start: start, end: TextLocation(paragraph: start.paragraph, offset: start.offset + text.utf8.count))
        textLayoutManager.textSelections = [selection]
    }

    /// Commits the marked text: it stays, no longer marked (`unmarkText`).
    public func unmarkText() {
        guard var selection = textLayoutManager.textSelections.first else { return }
        selection.markedTextRange = nil
        textLayoutManager.textSelections = [selection]
    }

    /// Scrolls as little as makes `range`'s end visible, `margin` points inside the visible rect
    /// (what UITextView does after typing, a move or `scrollRangeToVisible(_:)`).
    /// A scroll after it (an explicit one) takes over: the caret need not stay visible then.
    public func scrollRangeToVisible(_ range: TextRange, margin: Double = 8) {
        if let delta = revealDelta(for: range, margin: margin), delta != 0 { scroll(by: delta) }
        revealPending = true
    }

    /// How far to scroll so that `range`'s end is `margin` points inside the visible rect (0: it
    /// is); nil when it is not in the document.
    func revealDelta(for range: TextRange, margin: Double = 8) -> Double? {
        guard let caret = caretRect(for: range.end) else { return nil }
        let visible = visibleRect
        if caret.maxY + margin > visible.maxY { return min(caret.maxY + margin - visible.maxY, caret.minY - margin - visible.minY) }
        if caret.minY - margin < visible.minY { return caret.minY - margin - visible.minY }
        return 0
    }

    /// What the selection draws this frame, in document coordinates: the highlight's rects and the
    /// caret (nil: none), from the fragments this pass configured only. Drawing must not lay out:
    /// a frame drawn or only laid out (`--frames`) leaves the same layout behind (the explorer
    /// found a caret above the viewport shaping its paragraph while drawing).
    func selectionLayer() -> (highlight: [CGRect], caret: CGRect?, marked: [CGRect]) {
        guard let selection = textLayoutManager.textSelections.first, let range = selection.textRanges.first,
              let first = textLayoutManager.index(of: range.start.paragraph), let last = textLayoutManager.index(of: range.end.paragraph)
        else { return ([], nil, []) }
        let shown = Dictionary(configuredFragments.map { ($0.paragraph.id, $0) }, uniquingKeysWith: { $1 })
        // Marked text is underlined, under its text's rects.
        var marked: [CGRect] = []
        if let m = selection.markedTextRange, m.start.paragraph == m.end.paragraph, let fragment = shown[m.start.paragraph] {
            let frame = fragment.layoutFragmentFrame
            marked = fragment.selectionRects(for: m.start.offset..<max(m.start.offset, m.end.offset))
                .map { CGRect(x: frame.minX + $0.minX, y: frame.minY + $0.maxY - 2, width: $0.width, height: 1.5) }
        }
        if range.isEmpty {
            guard let fragment = shown[range.start.paragraph],
                  let rect = fragment.caretRect(atOffset: range.start.offset, affinity: selection.affinity) else { return ([], nil, marked) }
            let frame = fragment.layoutFragmentFrame
            return ([], CGRect(x: frame.minX + rect.minX - 1, y: frame.minY + rect.minY, width: 2, height: rect.height), marked)
        }
        var rects: [CGRect] = []
        for fragment in configuredFragments {
            guard let index = textLayoutManager.index(of: fragment.paragraph.id), (first...max(first, last)).contains(index) else { continue }
            let lower = index == first ? range.start.offset : 0
            let upper = index == last ? range.end.offset : fragment.paragraph.text.utf8.count
            let frame = fragment.layoutFragmentFrame
            rects += fragment.selectionRects(for: lower..<max(lower, upper)).map { $0.offsetBy(dx: frame.minX, dy: frame.minY) }
        }
        return (rects, nil, marked)
    }
}

extension TextView {
    /// The pass's record of the first selection.
    func selectionRecord() -> LayoutPass.Selection? {
        guard let selection = textLayoutManager.textSelections.first, let range = selection.textRanges.first else { return nil }
        let layer = selectionLayer()
        return LayoutPass.Selection(start: [range.start.paragraph.rawValue, range.start.offset], end: [range.end.paragraph.rawValue, range.end.offset],
                                    affinity: selection.affinity.rawValue, caret: layer.caret.map(LayoutRect.init),
                                    highlight: layer.highlight.map(LayoutRect.init), marked: layer.marked.isEmpty ? nil : layer.marked.map(LayoutRect.init))
    }

    /// The caret's invariants: it lies on a line of its paragraph, and after a step that reveals
    /// it, inside the visible rect.
    func caretErrors(_ selection: LayoutPass.Selection?, fragments: [LayoutPass.Fragment], visible: LayoutRect) -> [String] {
        defer { revealPending = false }
        guard let selection, selection.start == selection.end else { return [] }
        let e = PassChecks.epsilon
        var errors: [String] = []
        let place = "the caret at paragraph \(selection.start[0]), offset \(selection.start[1])"
        if let caret = selection.caret, let fragment = fragments.first(where: { $0.paragraph == selection.start[0] }),
           !fragment.lines.contains(where: { caret.y >= fragment.frame.y + $0.top - e && caret.maxY <= fragment.frame.y + $0.top + $0.height + e }) {
            errors.append("\(place) is on none of its paragraph's lines")
        }
        if revealPending, selection.caret.map({ $0.y < visible.y - e || $0.maxY > visible.maxY + e }) ?? true {
            errors.append("\(place) is outside the visible rect after a step that reveals it")
        }
        return errors
    }
}

extension TextParagraph {
    /// The character index (what edits count) at UTF-8 offset `offset`, or nil inside a character.
    func characterIndex(ofUTF8 offset: Int) -> Int? {
        guard offset >= 0, offset <= text.utf8.count,
              let index = text.utf8.index(text.utf8.startIndex, offsetBy: offset, limitedBy: text.utf8.endIndex),
              index.samePosition(in: text.unicodeScalars) != nil else { return nil }
        return text.distance(from: text.startIndex, to: index)
    }
}
