import Foundation

/// A rectangle drawn over the text (AppKit's `NSView`, as an editor's insertion point views are
/// subviews of its content view): a frame in its superview's coordinates, subviews, a layer's
/// background and corner radius, and `draw(_:)` for what it draws itself. A `TextView` draws its
/// `contentView` (in document coordinates) after the text and the selection on every frame in
/// which it has a visible subview; views never enter a fragment's cached surface. Nothing
/// animates or blinks by itself: a view shows until it is hidden or removed.
open class View {
    /// How a view's size follows its superview's (AppKit's `NSView.AutoresizingMask`; only
    /// `width` and `height` act: the margins stay as they are).
    public struct AutoresizingMask: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// The left margin may change (kept as it is here).
        public static let minXMargin = AutoresizingMask(rawValue: 1 << 0)
        /// The width follows the superview's.
        public static let width = AutoresizingMask(rawValue: 1 << 1)
        /// The right margin may change (kept as it is here).
        public static let maxXMargin = AutoresizingMask(rawValue: 1 << 2)
        /// The top margin may change (kept as it is here).
        public static let minYMargin = AutoresizingMask(rawValue: 1 << 3)
        /// The height follows the superview's.
        public static let height = AutoresizingMask(rawValue: 1 << 4)
        /// The bottom margin may change (kept as it is here).
        public static let maxYMargin = AutoresizingMask(rawValue: 1 << 5)
    }

    private var storedFrame: CGRect
    /// Its rect in the superview's coordinates; setting it calls `setFrameOrigin(_:)` and
    /// `setFrameSize(_:)`, as AppKit does, so a subclass may override those.
    public var frame: CGRect {
        get { storedFrame }
        set { setFrameOrigin(newValue.origin); setFrameSize(newValue.size) }
    }
    /// Its own coordinates: `frame.size` from the origin.
    public var bounds: CGRect { CGRect(origin: .zero, size: storedFrame.size) }
    /// The view it is a subview of (weak, as AppKit's).
    public private(set) weak var superview: View?
    /// Drawn in order, after the view itself; setting the array adds and removes subviews.
    public var subviews: [View] = [] {
        didSet {
            for view in oldValue where !subviews.contains(where: { $0 === view }) { view.superview = nil }
            for view in subviews { view.superview?.forget(view, keeping: self); view.superview = self }
        }
    }
    /// A hidden view and its subviews are not drawn.
    public var isHidden = false
    /// Whether it has a `layer` (its background and rounded corners), as AppKit's.
    public var wantsLayer = false { didSet { if wantsLayer, layer == nil { layer = Layer() } } }
    /// What is drawn under the view's own drawing, when it has one.
    public var layer: Layer?
    /// Whether its drawing and its subviews' are clipped to its bounds.
    public var clipsToBounds = false
    /// How its size follows its superview's.
    public var autoresizingMask: AutoresizingMask = []
    /// TextReel's views are always drawn y down (a flipped `NSView`, as UIKit's are); overriding
    /// it changes nothing.
    open var isFlipped: Bool { true }

    /// A view with `frame` in its superview's coordinates, no subviews.
    public init(frame frameRect: CGRect) { storedFrame = frameRect }

    /// Views are not archived: always nil (here so subclasses written for AppKit compile).
    public required init?(coder: NSCoder) { return nil }

    /// Moves the view.
    open func setFrameOrigin(_ newOrigin: CGPoint) { storedFrame.origin = newOrigin }

    /// Resizes the view, and its subviews that follow its width or height.
    open func setFrameSize(_ newSize: CGSize) {
        let delta = CGSize(width: newSize.width - storedFrame.width, height: newSize.height - storedFrame.height)
        storedFrame.size = newSize
        guard delta != .zero else { return }
        for view in subviews where !view.autoresizingMask.isDisjoint(with: [.width, .height]) {
            var size = view.frame.size
            if view.autoresizingMask.contains(.width) { size.width = max(size.width + delta.width, 0) }
            if view.autoresizingMask.contains(.height) { size.height = max(size.height + delta.height, 0) }
            view.setFrameSize(size)
        }
    }

    /// Adds `view` on top of the others (taking it from its superview, if it had one).
    public func addSubview(_ view: View) {
        view.removeFromSuperview()
        subviews.append(view)
    }

    /// Takes the view out of its superview.
    public func removeFromSuperview() {
        superview?.subviews.removeAll { $0 === self }
    }

    private func forget(_ view: View, keeping newSuperview: View) {
        guard self !== newSuperview else { return }
        subviews.removeAll { $0 === view }
    }

    /// Draws the view's own content into `dirtyRect` (its bounds) with `GraphicsContext.current`,
    /// in its own coordinates, after its layer's background.
    open func draw(_ dirtyRect: CGRect) {}
}

/// A view's background, as much of `CALayer` as views here use.
public final class Layer {
    /// Filled under the view's drawing; nil: nothing.
    public var backgroundColor: Color?
    /// The radius of its rounded corners.
    public var cornerRadius: CGFloat = 0
    /// No background, square corners.
    public init() {}
}

/// The system's insertion point (AppKit's `NSTextInsertionIndicator`): a bar in `color`. It never
/// blinks: `automatic` and `visible` show it, `hidden` hides it.
open class TextInsertionIndicator: View {
    /// When it shows.
    public enum DisplayMode: Sendable {
        /// Shown (TextKit's blinks; here it stays on).
        case automatic
        /// Not drawn.
        case hidden
        /// Shown.
        case visible
    }
    /// Its colour (the system's insertion point colour by default).
    public var color: Color = .textInsertionPointColor
    /// Whether it shows.
    public var displayMode: DisplayMode = .automatic

    public override init(frame frameRect: CGRect) { super.init(frame: frameRect) }
    public required init?(coder: NSCoder) { return nil }

    open override func draw(_ dirtyRect: CGRect) {
        guard displayMode != .hidden, let context = GraphicsContext.current else { return }
        context.fill(bounds, color)
    }
}
