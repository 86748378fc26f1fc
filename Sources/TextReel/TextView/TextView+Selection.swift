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
        return caretBar(in: textLayoutManager.ensureLayout(forParagraphAt: index), at: location, affinity: affinity)
    }

    /// The 2 pt caret bar centred on the caret segment at `location` of `fragment`.
    private func caretBar(in fragment: TextLayoutFragment, at location: TextLocation, affinity: TextSelection.Affinity) -> CGRect? {
        let segments = textLayoutManager.segments(of: fragment, in: TextRange(location: location), type: .standard,
                                                  options: affinity == .upstream ? .upstreamAffinity : [], first: true, last: true)
        return segments.first.map { CGRect(x: $0.rect.minX - 1, y: $0.rect.minY, width: 2, height: $0.rect.height) }
    }

    /// Replaces the selection with `text` (at the caret when it is empty) and puts the caret after
    /// it; each change is an edit of a paragraph, as layout, the height index and attachment
    /// policies see any. A selection across paragraphs is deleted first (they join); a line
    /// break in `text` breaks the paragraph, as Return does.
    public func insertText(_ text: String) throws {
        guard var range = selectedTextRange, textLayoutManager.index(of: range.start.paragraph) != nil else {
            throw TextReelError("there is no caret to type at; select a place first")
        }
        if !range.isEmpty {
            try delete(range)
            range = TextRange(location: range.start)
        }
        // A line break ("\n", "\r\n" or "\r") is Return: the paragraph breaks there.
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        var caret = range.start
        for (n, line) in lines.enumerated() {
            guard let index = textLayoutManager.index(of: caret.paragraph) else { return }
            if n > 0 {
                try splitParagraph(at: index, offset: caret.offset)
                caret = TextLocation(paragraph: document.paragraphs[index + 1].id, offset: 0)
            }
            guard !line.isEmpty, let at = document.paragraphs[index + (n > 0 ? 1 : 0)].characterIndex(ofUTF16: caret.offset) else { continue }
            try insertText(String(line), inParagraphAt: index + (n > 0 ? 1 : 0), atCharacter: at)
            caret.offset += line.utf16.count
        }
        selectedTextRange = TextRange(location: caret)
    }

    /// Deletes the selection, or the grapheme cluster before the caret (a family emoji, a flag, a
    /// letter with its marks go whole); at a paragraph's start, the break before it (the two join).
    public func deleteBackward() throws { try delete(forward: false) }

    /// Deletes the selection, or the grapheme cluster after the caret; at a paragraph's end, the
    /// break after it.
    public func deleteForward() throws { try delete(forward: true) }

    /// What `deletionRanges` says one key removes.
    private func delete(forward: Bool) throws {
        guard let selection = textLayoutManager.textSelections.first else { return }
        let ranges = textLayoutManager.textSelectionNavigation.deletionRanges(for: selection, direction: forward ? .forward : .backward,
                                                                              destination: .character)
        if let range = ranges.first { try delete(range) }
    }

    /// Deletes `range` (across paragraphs: the first's tail, those between, the last's head, then
    /// the join) and leaves a caret at its start.
    private func delete(_ range: TextRange) throws {
        guard let first = textLayoutManager.index(of: range.start.paragraph), let last = textLayoutManager.index(of: range.end.paragraph),
              first <= last else { return }
        func deleteUnits(_ index: Int, _ units: Range<Int>) throws {
            let paragraph = document.paragraphs[index]
            guard let from = paragraph.characterIndex(ofUTF16: units.lowerBound), let to = paragraph.characterIndex(ofUTF16: units.upperBound),
                  to > from else { return }
            try deleteText(inParagraphAt: index, fromCharacter: from, length: to - from)
        }
        if first == last {
            try deleteUnits(first, range.start.offset..<max(range.start.offset, range.end.offset))
        } else {
            try deleteUnits(last, 0..<max(range.end.offset, 0))
            for index in stride(from: last - 1, to: first, by: -1) { try deleteParagraph(at: index) }
            let length = document.paragraphs[first].utf16Count
            try deleteUnits(first, min(range.start.offset, length)..<length)
            try joinParagraph(at: first)
        }
        selectedTextRange = TextRange(location: range.start)
    }

    /// Puts uncommitted text (an input method's) in place of the marked text, or of the
    /// selection when there is none, marks it, and puts the caret after it (`setMarkedText`).
    public func setMarkedText(_ text: String) throws {
        if let marked = textLayoutManager.textSelections.first?.markedTextRange { selectedTextRange = marked }
        guard let start = selectedTextRange?.start else { throw TextReelError("there is no caret to type at; select a place first") }
        try insertText(text)
        guard var selection = textLayoutManager.textSelections.first else { return }
        selection.markedTextRange = text.isEmpty ? nil : TextRange(start: start, end: TextLocation(paragraph: start.paragraph, offset: start.offset + text.utf16.count))
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

    /// Whether the caret is drawn now: focused, and steady or in the on half of its blink.
    var caretIsShown: Bool {
        guard isFocused else { return false }
        guard let interval = caretBlinkInterval, interval > 0 else { return true }
        return (time - caretMoved.time).truncatingRemainder(dividingBy: interval) < interval / 2
    }

    /// What the selection draws this frame, in document coordinates: the highlight's segments
    /// (`.selection`), the caret (nil: none) and the marked text's underlines, from the fragments
    /// this pass configured only. Drawing must not lay out: a frame drawn or only laid out
    /// (`--frames`) leaves the same layout behind (the explorer found a caret above the viewport
    /// shaping its paragraph while drawing).
    func selectionLayer() -> (highlight: [CGRect], caret: CGRect?, marked: [CGRect]) {
        guard let selection = textLayoutManager.textSelections.first, let range = selection.textRanges.first,
              let first = textLayoutManager.index(of: range.start.paragraph), let last = textLayoutManager.index(of: range.end.paragraph)
        else { return ([], nil, []) }
        let manager = textLayoutManager
        let shown = Dictionary(configuredFragments.map { ($0.paragraph.id, $0) }, uniquingKeysWith: { $1 })
        var marked: [CGRect] = []
        if let m = selection.markedTextRange, m.start.paragraph == m.end.paragraph, let fragment = shown[m.start.paragraph] {
            marked = manager.segments(of: fragment, in: m, type: .highlight, options: [], first: true, last: true)
                .map { CGRect(x: $0.rect.minX, y: $0.rect.maxY - 2, width: $0.rect.width, height: 1.5) }
        }
        if range.isEmpty {
            return ([], shown[range.start.paragraph].flatMap { caretBar(in: $0, at: range.start, affinity: selection.affinity) }, marked)
        }
        var rects: [CGRect] = []
        for fragment in configuredFragments {
            guard let index = manager.index(of: fragment.paragraph.id), (first...max(first, last)).contains(index) else { continue }
            // Text that overflows a narrow view (a word wider than the column) is selected as far
            // as the view shows it: the highlight keeps to the fragment (the explorer found it past it).
            let frame = fragment.layoutFragmentFrame
            rects += manager.segments(of: fragment, in: range, type: .selection, options: [], first: index == first, last: index == last)
                .map { $0.rect.intersection(CGRect(x: frame.minX, y: $0.rect.minY, width: frame.width, height: $0.rect.height)) }
                .filter { !$0.isNull && $0.width > 0 }
        }
        return (rects, nil, marked)
    }
}
