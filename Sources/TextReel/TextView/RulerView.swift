import Foundation

/// A ruler beside the text (AppKit's `NSRulerView`, as `NSScrollView.verticalRulerView`): the
/// place for line numbers and markers drawn from the pass's visible fragments. It draws on a
/// layer of its own over the view's leading `ruleThickness` points (the theme's left inset, 32
/// points by default: give the theme an inset at least that wide), after the text and the
/// selection, on every frame; its drawing never enters a fragment's cached surface. Subclass it
/// and override `drawHashMarksAndLabels(in:)`, reading `GraphicsContext.current`.
open class RulerView {
    /// The view it rules (weak, as AppKit's).
    public weak var clientView: TextView?
    /// Its width in points, from the view's leading edge.
    open var ruleThickness: Double = 32

    /// A ruler for `clientView`, set later.
    public init() {}

    /// Draws the ruler's marks into `rect` (its own bounds) with `GraphicsContext.current`, in the
    /// viewport's coordinates: use `convert(_:from:)` for the document's.
    open func drawHashMarksAndLabels(in rect: CGRect) {}

    /// `point` of `view`'s document in the ruler's coordinates (the view scrolled: y moves up
    /// by the visible rect's top), as AppKit's `NSView.convert(_:from:)`.
    public func convert(_ point: CGPoint, from view: TextView) -> CGPoint {
        CGPoint(x: point.x, y: point.y - view.visibleRect.minY)
    }
}
