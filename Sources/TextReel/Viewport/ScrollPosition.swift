import Foundation

/// The scroll position of a viewport, kept as an anchor (a paragraph and an offset into it) so
/// that the visible content stays still when heights above it change: estimates replaced by
/// measurements, edits above. The content offset absorbs those changes; they are reported as the
/// pass's correction. It also measures how far the content under the anchor moved on screen
/// other than by scrolling (the pass's jump), which the anchor keeps at 0 except where the
/// document's end or an edit of the anchor paragraph forces it.
///
/// Owned by `TextViewportLayoutController`; the text view reads and moves it.
public final class ScrollPosition {
    let manager: TextLayoutManager
    /// The visible height, which bounds the largest offset.
    var viewportHeight: Double
    /// How many paragraphs above an absolute scroll target are measured so it lands exactly.
    public var exactScrollLayoutLimit = 4000

    private var anchor: ScrollAnchor?
    /// Where the last scroll or pass left the offset; any other change is a correction.
    private var expectedY: Double?
    /// Corrections absorbed since the last pass, before later scrolls reset `expectedY`.
    private var pendingCorrection = 0.0
    /// The paragraph whose screen position the jump measure follows, and where it was on screen.
    private var reference: (paragraph: ParagraphID, screenY: Double)?
    private var jumpSoFar = 0.0

    init(manager: TextLayoutManager, viewportHeight: Double) {
        self.manager = manager
        self.viewportHeight = viewportHeight
    }

    /// The visible rect's top in document coordinates.
    public var y: Double {
        guard let anchor, let index = manager.index(of: anchor.paragraph) else { return 0 }
        // An edit can shorten the anchor paragraph: stay inside it.
        let offset = min(anchor.offset, max(manager.height(ofParagraphAt: index), 0))
        return manager.y(ofParagraphAt: index) + offset
    }

    /// The largest offset, from the current (partly estimated) document height.
    public var maximumY: Double { max(manager.documentHeight - viewportHeight, 0) }

    /// Scrolls by `delta` points of visible content.
    func scroll(by delta: Double) {
        pinnedToEnd = false
        setAnchor(y: y + delta, byScroll: true)
    }

    /// An absolute scroll to the end or past it: the view stays at the document's end while
    /// measuring moves the end (estimates below the viewport were short or long).
    private(set) var pinnedToEnd = false

    /// Scrolls to document `y`: where the current (partly estimated) coordinates put it, or
    /// with `exact`, after measuring up to `limit` paragraphs above it (on every core).
    func scroll(to target: Double, exact: Bool, limit: Int = .max) {
        if exact { measureParagraphs(above: target, limit: limit) }
        setAnchor(y: target, byScroll: true)
        pinnedToEnd = target >= maximumY && manager.paragraphCount > 0
    }

    /// Scrolls so paragraph `index` is at the top: by anchoring to it, whatever the distance,
    /// with nothing above it measured (the anchor absorbs their corrections later).
    func scroll(toParagraphAt index: Int) {
        scroll(toParagraph: manager.document.paragraphs[index].id, offset: 0)
    }

    /// Anchors the top of the view `offset` points below the top of paragraph `id` (negative:
    /// above it, for a paragraph centred or at the bottom), clamped to the document. The cost is
    /// one paragraph, not the distance: what lies above is measured by the pass that shows it,
    /// and the anchor keeps the paragraph where it was put.
    func scroll(toParagraph id: ParagraphID, offset: Double) {
        pinnedToEnd = false
        guard let index = manager.index(of: id) else { return }
        let target = manager.y(ofParagraphAt: index) + offset
        guard target >= 0, target <= maximumY, offset <= manager.height(ofParagraphAt: index) else {
            // Outside the paragraph or the document: the anchor goes where the clamped y is.
            return setAnchor(y: target, byScroll: true)
        }
        if let expectedY, anchor != nil { pendingCorrection += y - expectedY }
        settleJump()
        anchor = ScrollAnchor(paragraph: id, offset: offset)
        expectedY = y
    }

    /// Measures the paragraphs above document `y`, up to `limit` of them, until
    /// the paragraph at `y` stops changing. Without a limit, every one: `y` is then exact.
    func measureParagraphs(above target: Double, limit: Int = .max) {
        guard manager.paragraphCount > 0 else { return }
        while true {
            let index = manager.paragraph(at: min(max(target, 0), maximumY)).index
            let first = index - min(index, limit)
            guard (first...index).contains(where: { !manager.isMeasured(paragraphAt: $0) }) else { return }
            manager.measure(paragraphsIn: first...index)
        }
    }

    private func setAnchor(y target: Double, byScroll: Bool) {
        if let expectedY, anchor != nil { pendingCorrection += y - expectedY }
        // What moved before a scroll counts; after it, the frame shows a new place anyway, so
        // where it lands (clamped at an end the pass measured) is not a jump.
        if byScroll { settleJump() }
        // At the top the document's height is not asked (it may still be being sampled): min(max(t, 0), maximumY) for t ≤ 0.
        let clamped = target <= 0 ? max(target, 0) : min(target, maximumY)
        guard manager.paragraphCount > 0 else { anchor = nil; return }
        let found = manager.paragraph(at: clamped)
        let id = manager.document.paragraphs[found.index].id
        anchor = ScrollAnchor(paragraph: id, offset: clamped - manager.y(ofParagraphAt: found.index))
        expectedY = y
    }

    /// Adds how far the reference paragraph moved on screen since it was taken.
    private func settleJump() {
        if let reference, let now = screenY(of: reference.paragraph) { jumpSoFar += abs(now - reference.screenY) }
        reference = nil
    }

    private func screenY(of paragraph: ParagraphID) -> Double? {
        manager.index(of: paragraph).map { manager.y(ofParagraphAt: $0) - y }
    }

    /// The paragraph holding the anchor was removed: the one that takes its place holds it.
    func paragraphRemoved(_ id: ParagraphID, replacementIndex: Int) {
        guard let anchor, anchor.paragraph == id else { return }
        self.anchor = ScrollAnchor(paragraph: manager.document.paragraphs[replacementIndex].id, offset: 0)
    }

    // MARK: A pass

    /// Where the offset would be without corrections, taken before a pass.
    func beginPass() -> Double {
        if anchor == nil { setAnchor(y: 0, byScroll: true) }
        defer { pendingCorrection = 0 }
        return (expectedY ?? y) - pendingCorrection
    }

    /// Measuring near the end can shorten the document, and measuring above an anchor placed
    /// above its paragraph (a centred target) can leave the top above y = 0: returns true when the
    /// offset had to move back inside the document (the pass is then run again).
    func clampToDocument() -> Bool {
        if y > maximumY + 0.25 || (pinnedToEnd && y < maximumY - 0.25) { setAnchor(y: maximumY, byScroll: false); return true }
        if y < -0.25 { setAnchor(y: 0, byScroll: false); return true }
        return false
    }

    /// After a pass: the correction absorbed since `before` and the jump since the last pass.
    func endPass(before: Double) -> (correction: Double, jump: Double) {
        let correction = y - before
        settleJump()
        let jump = jumpSoFar
        jumpSoFar = 0
        if let anchor { reference = (anchor.paragraph, screenY(of: anchor.paragraph) ?? 0) }
        expectedY = y
        pendingCorrection = 0
        return (correction, jump)
    }
}
