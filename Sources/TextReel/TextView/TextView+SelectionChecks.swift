import Foundation

/// The selection as each pass records it, and what every frame checks of it: the caret lies on
/// a line of its paragraph, the highlight's segments lie inside their fragments in order without
/// overlapping, and after a step that reveals it the caret is inside the visible rect.
extension TextView {
    /// The pass's record of the first selection. Its offsets count UTF-8 bytes, as the line
    /// starts beside them do (the stored format of events and layout snapshots).
    func selectionRecord() -> LayoutPass.Selection? {
        guard let selection = textLayoutManager.textSelections.first, let range = selection.textRanges.first else { return nil }
        let layer = selectionLayer()
        func bytes(_ location: TextLocation) -> [Int] {
            let offset = textLayoutManager.index(of: location.paragraph).map { document.paragraphs[$0].utf8Offset(of: location) }
            return [location.paragraph.rawValue, offset ?? location.offset]
        }
        return LayoutPass.Selection(start: bytes(range.start), end: bytes(range.end),
                                    affinity: selection.affinity.rawValue, caret: layer.caret.map(LayoutRect.init),
                                    highlight: layer.highlight.map(LayoutRect.init), marked: layer.marked.isEmpty ? nil : layer.marked.map(LayoutRect.init))
    }

    /// Broken selection invariants of this pass, and whether the caret is hidden after a step
    /// that reveals it (a budget, `caretHidden`, not an invariant).
    func selectionChecks(_ selection: LayoutPass.Selection?, fragments: [LayoutPass.Fragment],
                         visible: LayoutRect) -> (errors: [String], caretHidden: Bool) {
        defer { revealPending = false }
        guard let selection else { return ([], false) }
        let e = PassChecks.epsilon
        var errors: [String] = []
        // Segments: each inside a configured fragment, top to bottom, none overlapping another.
        let segments = selection.highlight
        for (n, segment) in segments.enumerated() {
            let rect = segment.cgRect
            // By its edges: Foundation's `contains` compares a union, which rounding can change.
            if !fragments.contains(where: { let f = $0.frame.cgRect
                return rect.minX >= f.minX - e && rect.maxX <= f.maxX + e && rect.minY >= f.minY - e && rect.maxY <= f.maxY + e }) {
                errors.append("selection segment \(n) at x = \(PassChecks.fmt(rect.minX)), y = \(PassChecks.fmt(rect.minY)) lies in no fragment")
            }
            if n > 0, rect.minY < segments[n - 1].y - e { errors.append("selection segment \(n) is above segment \(n - 1)") }
            if let other = segments[..<n].firstIndex(where: { let i = $0.cgRect.intersection(rect); return i.width > e && i.height > e }) {
                errors.append("selection segment \(n) overlaps segment \(other)")
            }
        }
        guard selection.start == selection.end else { return (errors, false) }
        let place = "the caret at paragraph \(selection.start[0]), offset \(selection.start[1])"
        if let caret = selection.caret, let fragment = fragments.first(where: { $0.paragraph == selection.start[0] }),
           !fragment.lines.contains(where: { caret.y >= fragment.frame.y + $0.top - e && caret.maxY <= fragment.frame.y + $0.top + $0.height + e }) {
            errors.append("\(place) is on none of its paragraph's lines")
        }
        // A caret taller than the visible rect (beside a block attachment in a short view) is
        // revealed from its top, as `scrollRangeToVisible` shows it: its top in view is enough.
        let hidden = revealPending && (selection.caret.map { caret in
            caret.height > visible.height ? caret.y < visible.y - e || caret.y > visible.maxY + e
                                          : caret.y < visible.y - e || caret.maxY > visible.maxY + e } ?? true)
        return (errors, hidden)
    }
}
