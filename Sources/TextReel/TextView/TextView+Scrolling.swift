import Foundation

/// Scrolling: the view reads and moves its controller's `ScrollPosition`.
extension TextView {
    /// The visible rect's origin in the document. Setting it scrolls, clamped to the content, and
    /// lands exactly: the paragraphs above the target are measured first (up to
    /// `exactScrollLayoutLimit` of them; beyond that the target is exact in the estimated
    /// coordinates, and the scroll anchor keeps the content still when they are measured later).
    public var contentOffset: CGPoint {
        get { CGPoint(x: 0, y: scrollPosition.y) }
        set {
            revealPending = false
            let controller = textViewportLayoutController
            if let relocation = controller.relocation, relocation.y == newValue.y {
                // The offset `relocateViewport(to:)` returned: its paragraph at the top, exactly.
                scrollPosition.scroll(toParagraph: relocation.paragraph, offset: 0)
            } else if let adjustment = controller.pendingAdjustment, newValue.y == adjustment.from + adjustment.by {
                // The offset that follows `adjustViewport(byVerticalOffset:)`: already the same
                // shift of coordinates, not a second move.
                controller.pendingAdjustment = nil
            } else {
                scrollPosition.scroll(to: newValue.y, exact: true, limit: exactScrollLayoutLimit)
            }
        }
    }

    /// Scrolls to document `y`: with `exact`, after measuring every paragraph above it (on every
    /// core; `--exact`, a script's `exact: true`); without, where the current (partly estimated)
    /// coordinates put it, at the cost of one viewport whatever the distance (`--at`, `to:`).
    public func scroll(toY y: Double, exact: Bool) { revealPending = false; scrollPosition.scroll(to: y, exact: exact) }

    /// How many paragraphs above an absolute scroll target are measured so it lands exactly.
    public var exactScrollLayoutLimit: Int {
        get { scrollPosition.exactScrollLayoutLimit }
        set { scrollPosition.exactScrollLayoutLimit = newValue }
    }

    /// The largest content offset, from the current (partly estimated) document height.
    public var maximumContentOffset: Double { scrollPosition.maximumY }

    /// Scrolls by `delta` points of visible content.
    public func scroll(by delta: Double) { revealPending = false; scrollPosition.scroll(by: delta) }

    /// Measures the paragraphs above document `y` until the paragraph at `y` stops changing.
    public func measureParagraphs(above y: Double) { scrollPosition.measureParagraphs(above: y) }

    /// Scrolls so that the point `offset` below paragraph `id`'s top is at the top of the view,
    /// wherever that paragraph is by then (the anchor follows it through corrections).
    public func scroll(toParagraph id: ParagraphID, offset: Double) { revealPending = false; scrollPosition.scroll(toParagraph: id, offset: offset) }

    /// The visible rect in document coordinates.
    public var visibleRect: CGRect {
        CGRect(x: 0, y: scrollPosition.y, width: viewportSize.width, height: viewportSize.height)
    }

    /// A new viewport size re-wraps every paragraph; the anchor paragraph stays at the top. As
    /// UITextView keeps the selection in view when its bounds change, a caret visible before
    /// the resize (or about to be revealed) is revealed again after it.
    public func resize(to size: CGSize) {
        if let range = selectedTextRange, range.isEmpty, !revealPending, let caret = caretRect(for: range.end),
           caret.maxY > visibleRect.minY, caret.minY < visibleRect.maxY {
            revealPending = true
        }
        viewportSize = size
        scrollPosition.viewportHeight = size.height
        textLayoutManager.setContainerWidth(size.width)
    }
}
