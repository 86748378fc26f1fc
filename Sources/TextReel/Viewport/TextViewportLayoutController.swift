import Foundation

/// Decides, for each layout pass, which fragments are in the viewport bounds; lays them out and
/// hands each to its delegate, top to bottom (the `NSTextViewportLayoutController` analogue).
///
/// Better than TextKit: reading `viewportBounds`, `viewportRange` or `textLayoutFragments` during a
/// pass before `didLayout` is recorded and reported as a `TextViewError` by the text view, instead
/// of returning stale state that may crash.
public final class TextViewportLayoutController {
    enum Phase: String {
        case idle
        case willLayout = "textViewportLayoutControllerWillLayout(_:)"
        case configuring = "textViewportLayoutController(_:configureRenderingSurfaceFor:)"
        case didLayout = "textViewportLayoutControllerDidLayout(_:)"
    }

    /// Told of each pass and handed each fragment (the text view, weak as in TextKit).
    public weak var delegate: TextViewportLayoutControllerDelegate?
    /// The layout manager whose fragments it lays out.
    public let textLayoutManager: TextLayoutManager
    /// Where the viewport is, kept as an anchor; `relocateViewport` and `adjustViewport` move it.
    public let scrollPosition: ScrollPosition

    private(set) var phase = Phase.idle
    private var storedBounds = CGRect.zero
    private var storedRange: TextRange?
    private var storedFragments: [TextLayoutFragment] = []
    /// Reads of state made too early in the current pass.
    private var earlyReads: [TextViewError] = []

    /// What a pass did, for the caller to check instead of reading the controller's fields.
    public struct Report: Sendable {
        /// Fragments handed to `configureRenderingSurfaceFor`.
        public var configured = 0
        /// Reads of `viewportBounds`, `viewportRange` or `textLayoutFragments` before `didLayout`.
        public var earlyReads: [TextViewError] = []
    }

    init(textLayoutManager: TextLayoutManager, viewportHeight: Double) {
        self.textLayoutManager = textLayoutManager
        scrollPosition = ScrollPosition(manager: textLayoutManager, viewportHeight: viewportHeight)
    }

    /// The visible bounds plus overdraw, of the last completed pass.
    public var viewportBounds: CGRect {
        noteRead("viewportBounds")
        return storedBounds
    }

    /// The text laid out in the last completed pass (nil before the first).
    public var viewportRange: TextRange? {
        noteRead("viewportRange")
        return storedRange
    }

    /// The fragments of the last completed pass, top to bottom.
    public var textLayoutFragments: [TextLayoutFragment] {
        noteRead("textLayoutFragments")
        return storedFragments
    }

    private func noteRead(_ property: String) {
        guard phase == .willLayout || phase == .configuring else { return }
        let error = TextViewError.stateReadBeforeDidLayout(property: property, method: phase.rawValue)
        if !earlyReads.contains(error) { earlyReads.append(error) }
    }

    /// One layout pass: willLayout, viewportBounds(for:), layout of every fragment in the bounds
    /// (re-asking the bounds while measurements move the scroll anchor), configure per fragment,
    /// then didLayout; returns what it did.
    @discardableResult
    public func layoutViewport() -> Report {
        guard let delegate else { return Report() }
        needsLayout = false
        relocation = nil
        pendingAdjustment = nil
        earlyReads = []
        phase = .willLayout
        delegate.textViewportLayoutControllerWillLayout(self)

        var bounds = delegate.viewportBounds(for: self)
        var fragments = layOut(bounds)
        var convergencePasses = 0
        // Measuring can change heights above the anchor; the delegate's bounds follow the anchor.
        while convergencePasses < 4 {
            let next = delegate.viewportBounds(for: self)
            if next == bounds { break }
            bounds = next
            fragments = layOut(bounds)
            convergencePasses += 1
        }

        // Rendering attributes are validated before any fragment is configured or drawn.
        for fragment in fragments { textLayoutManager.validateRenderingAttributes(of: fragment) }
        phase = .configuring
        for fragment in fragments {
            delegate.textViewportLayoutController(self, configureRenderingSurfaceFor: fragment)
        }
        storedBounds = bounds
        storedFragments = fragments
        if let first = fragments.first, let last = fragments.last {
            storedRange = TextRange(start: TextLocation(paragraph: first.paragraph.id),
                                    end: TextLocation(paragraph: last.paragraph.id, offset: last.paragraph.utf16Count))
        } else {
            storedRange = nil
        }
        phase = .didLayout
        delegate.textViewportLayoutControllerDidLayout(self)
        phase = .idle
        return Report(configured: fragments.count, earlyReads: earlyReads)
    }

    /// Ensures layout of every paragraph intersecting `bounds`, top to bottom.
    private func layOut(_ bounds: CGRect) -> [TextLayoutFragment] {
        let manager = textLayoutManager
        guard manager.paragraphCount > 0 else { return [] }
        var index = manager.paragraph(at: bounds.minY).index
        var placed: [(index: Int, fragment: TextLayoutFragment)] = []
        while index < manager.paragraphCount {
            let fragment = manager.ensureLayout(forParagraphAt: index)
            if fragment.layoutFragmentFrame.minY >= bounds.maxY && !placed.isEmpty { break }
            if fragment.layoutFragmentFrame.maxY > bounds.minY { placed.append((index, fragment)) }
            index += 1
        }
        // Positions above may have changed while measuring: each is read again from the index.
        return placed.map { index, fragment in
            fragment.layoutFragmentFrame.origin.y = manager.y(ofParagraphAt: index)
            return fragment
        }
    }

    /// Asks for another pass.
    public func setNeedsLayout() {
        needsLayout = true
        delegate?.textViewportLayoutControllerReceivedSetNeedsLayout(self)
    }

    /// Something asked for a pass since the last one (an edit, a resize, a policy).
    var needsLayout = true

    /// Moves the viewport so that the fragment holding `location` is at its top, and returns the
    /// origin to scroll to, as TextKit's does: that fragment's y in the current coordinates, an
    /// estimate while the paragraphs above are not laid out (the anchor keeps the content still
    /// when they are). Like `UIScrollView.contentOffset`, the view then clamps: near the end of
    /// the document it shows `min(returned, maximumContentOffset)` after its next pass, so code
    /// that sets `contentOffset.y` to the result sees the same place.
    @discardableResult
    public func relocateViewport(to location: TextLocation) -> Double {
        guard let index = textLayoutManager.index(of: location.paragraph) else { return 0 }
        scrollPosition.scroll(toParagraphAt: index)
        let y = textLayoutManager.y(ofParagraphAt: index)
        // Code that sets the view's offset to what this returned (TextKit's idiom) keeps the
        // paragraph anchor, so the location lands at the top however the estimates above it
        // are measured (an absolute y there put line 148 at the top for line 120).
        relocation = (y, textLayoutManager.document.paragraphs[index].id)
        return y
    }

    /// The last `relocateViewport(to:)`: what it returned and the paragraph, until the next pass.
    var relocation: (y: Double, paragraph: ParagraphID)?

    /// Shifts the viewport's coordinates by `offset` points without moving the content on screen
    /// (`adjustViewport(byVerticalOffset:)`, as TextKit's delegate uses it to keep content still).
    /// TextKit code follows it by moving the view's offset by the same amount; that move is the
    /// same shift, so it is taken as done, not as a second scroll.
    public func adjustViewport(byVerticalOffset offset: Double) {
        pendingAdjustment = (from: scrollPosition.y, by: offset)
    }

    /// The adjustment a following offset change of the same amount completes.
    var pendingAdjustment: (from: Double, by: Double)?
}
