import CPango
import Foundation

/// A drawing context with CoreGraphics' names (`CGContext`'s), over a Cairo context: what
/// placeholder icons, attachment views and decorations draw with, so code written for
/// CoreGraphics ports by renaming. Points, y down, origin at the top left of what is drawn. No
/// C type appears in its API.
public final class GraphicsContext {
    let cr: OpaquePointer
    /// The look being drawn in: dynamic colours resolve to its light or dark variant.
    public let theme: Theme
    /// What is being drawn, in points from the origin: an attachment's box, a fragment's surface.
    public let size: CGSize
    /// `size` from the origin: the whole area being drawn.
    public var bounds: CGRect { CGRect(origin: .zero, size: size) }
    /// Draws a fragment's paragraph (its text and block decorations), for `TextLayoutFragment.draw`.
    private let typeset: FragmentPainter?
    /// Draws text, images and placeholders: every context has one, so a fragment's
    /// `draw(at:in:)` (labels, line numbers) draws text as an attachment view does.
    let painter: AttachmentPainter
    private var fill = (color: Color(0, 0, 0), alpha: 1.0)
    private var stroke = (color: Color(0, 0, 0), alpha: 1.0)
    private var saved: [(fill: (color: Color, alpha: Double), stroke: (color: Color, alpha: Double))] = []
    /// The rendering attributes of the fragment being drawn (`TextLayoutManager`'s), which its
    /// lines are drawn with, and the copies of its layouts that carry them, made once per draw.
    var renderingAttributes: [AttributeRun] = []
    private var renderingCopies: [ObjectIdentifier: PangoLayoutBox] = [:]

    /// `box`, or its copy with the rendering attributes when there are any.
    func rendered(_ box: PangoLayoutBox, shift: Int) -> PangoLayoutBox {
        guard !renderingAttributes.isEmpty else { return box }
        if let copy = renderingCopies[ObjectIdentifier(box)] { return copy }
        let copy = box.withRenderingAttributes(renderingAttributes, shift: shift, theme: theme)
        renderingCopies[ObjectIdentifier(box)] = copy
        return copy
    }

    init(_ cr: OpaquePointer, theme: Theme, size: CGSize = .zero, typeset: FragmentPainter? = nil, painter: AttachmentPainter) {
        self.cr = cr
        self.theme = theme
        self.size = size
        self.typeset = typeset
        self.painter = painter
    }

    /// For an attachment view: `cr` (a fresh context on a surface of size × scale pixels) set up
    /// to draw in points.
    convenience init(cr: OpaquePointer, painter: AttachmentPainter, size: CGSize, scale: Double) {
        self.init(cr, theme: painter.theme, size: size, painter: painter)
        cairo_scale(cr, scale, scale)
    }

    /// The standard drawing of `fragment` with its frame's origin at `point` (what
    /// `TextLayoutFragment.draw(at:in:)` does unless overridden).
    func drawTypesetContent(of fragment: TextLayoutFragment, at point: CGPoint) {
        guard let typeset else { return }
        cairo_save(cr)
        cairo_translate(cr, point.x, point.y)
        typeset.draw(fragment, rendering: renderingAttributes, in: cr)
        cairo_restore(cr)
    }

    // MARK: State

    /// Saves the graphics state (transform, clip, line settings, colours) for `restoreGState()`.
    public func saveGState() {
        cairo_save(cr)
        saved.append((fill, stroke))
    }

    /// Returns to the state the last `saveGState()` saved.
    public func restoreGState() {
        cairo_restore(cr)
        if let last = saved.popLast() { (fill, stroke) = last }
    }

    /// Moves the origin by `x`, `y` points.
    public func translateBy(x: Double, y: Double) { cairo_translate(cr, x, y) }
    /// Scales further drawing by `x`, `y`.
    public func scaleBy(x: Double, y: Double) { cairo_scale(cr, x, y) }

    /// Sets the colour and opacity `fillPath()` paints with.
    public func setFillColor(_ color: Color, alpha: Double = 1) { fill = (color, alpha) }
    /// Sets the colour and opacity `strokePath()` paints with.
    public func setStrokeColor(_ color: Color, alpha: Double = 1) { stroke = (color, alpha) }
    /// Sets the width of later strokes, in points.
    public func setLineWidth(_ width: Double) { cairo_set_line_width(cr, width) }

    /// How open ends of strokes are drawn (`CGLineCap`).
    public enum LineCap {
        /// Ends square at the end point.
        case butt
        /// Ends in a half circle around the end point.
        case round
        /// Ends square, half the line width past the end point.
        case square
    }
    /// How corners of strokes are drawn (`CGLineJoin`).
    public enum LineJoin {
        /// A sharp corner.
        case miter
        /// A rounded corner.
        case round
        /// A corner cut off flat.
        case bevel
    }

    /// Sets how open ends of later strokes are drawn.
    public func setLineCap(_ cap: LineCap) {
        let value = switch cap { case .butt: CAIRO_LINE_CAP_BUTT; case .round: CAIRO_LINE_CAP_ROUND; case .square: CAIRO_LINE_CAP_SQUARE }
        cairo_set_line_cap(cr, value)
    }

    /// Sets how corners of later strokes are drawn.
    public func setLineJoin(_ join: LineJoin) {
        let value = switch join { case .miter: CAIRO_LINE_JOIN_MITER; case .round: CAIRO_LINE_JOIN_ROUND; case .bevel: CAIRO_LINE_JOIN_BEVEL }
        cairo_set_line_join(cr, value)
    }

    /// Dashes of `lengths` (on, off, …) starting `phase` into the pattern; empty: solid.
    public func setLineDash(phase: Double, lengths: [Double]) {
        var lengths = lengths
        cairo_set_dash(cr, &lengths, Int32(lengths.count), phase)
    }

    // MARK: The current path

    /// Starts a new subpath at `point`.
    public func move(to point: CGPoint) { cairo_move_to(cr, point.x, point.y) }
    /// Adds a straight line to `point`.
    public func addLine(to point: CGPoint) { cairo_line_to(cr, point.x, point.y) }

    /// Adds a cubic Bézier curve to `end`.
    public func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint) {
        cairo_curve_to(cr, control1.x, control1.y, control2.x, control2.y, end.x, end.y)
    }

    /// An arc around `center`, from `startAngle` to `endAngle` in radians (clockwise on screen
    /// unless `clockwise` is false, as in CoreGraphics with a flipped y).
    public func addArc(center: CGPoint, radius: Double, startAngle: Double, endAngle: Double, clockwise: Bool = true) {
        if clockwise {
            cairo_arc(cr, center.x, center.y, radius, startAngle, endAngle)
        } else {
            cairo_arc_negative(cr, center.x, center.y, radius, startAngle, endAngle)
        }
    }

    /// Closes the subpath with a line back to its start.
    public func closePath() { cairo_close_path(cr) }
    /// Adds `rect` as a closed subpath.
    public func addRect(_ rect: CGRect) { cairo_rectangle(cr, rect.minX, rect.minY, rect.width, rect.height) }
    /// Adds the ellipse inscribed in `rect`.
    public func addEllipse(in rect: CGRect) { Self.ellipse(cr, rect) }

    /// A rectangle with corners rounded by `radius` (at most half its shorter side).
    public func addRoundedRect(_ rect: CGRect, radius: Double) { Paint.roundedRect(cr, rect, radius: radius) }

    /// Adds every element of `path`.
    public func addPath(_ path: GraphicsPath) {
        for element in path.elements {
            switch element {
            case .move(let p): move(to: p)
            case .line(let p): addLine(to: p)
            case .curve(let p, let c1, let c2): addCurve(to: p, control1: c1, control2: c2)
            case .close: closePath()
            }
        }
    }

    /// Fills the current path and starts a new one.
    public func fillPath() {
        Paint.setColor(cr, fill.color.resolved(for: theme), alpha: fill.alpha)
        cairo_fill(cr)
    }

    /// Strokes the current path and starts a new one.
    public func strokePath() {
        Paint.setColor(cr, stroke.color.resolved(for: theme), alpha: stroke.alpha)
        cairo_stroke(cr)
    }

    /// Fills `rect` in the fill colour.
    public func fill(_ rect: CGRect) { addRect(rect); fillPath() }
    /// Strokes `rect`'s outline in the stroke colour.
    public func stroke(_ rect: CGRect) { addRect(rect); strokePath() }
    /// Fills the ellipse inscribed in `rect` in the fill colour.
    public func fillEllipse(in rect: CGRect) { addEllipse(in: rect); fillPath() }
    /// Strokes the ellipse inscribed in `rect` in the stroke colour.
    public func strokeEllipse(in rect: CGRect) { addEllipse(in: rect); strokePath() }

    /// Limits further drawing to `rect` (until `restoreGState`).
    public func clip(to rect: CGRect) {
        addRect(rect)
        cairo_clip(cr)
    }

    private static func ellipse(_ cr: OpaquePointer, _ rect: CGRect) {
        cairo_save(cr)
        cairo_translate(cr, rect.midX, rect.midY)
        cairo_scale(cr, rect.width / 2, rect.height / 2)
        cairo_new_sub_path(cr)
        cairo_arc(cr, 0, 0, 1, 0, 2 * .pi)
        cairo_restore(cr)
    }
}

/// A path made once and added to contexts (`CGPath` / `CGMutablePath`).
public struct GraphicsPath: Sendable, Equatable {
    enum Element: Sendable, Equatable {
        case move(CGPoint), line(CGPoint), curve(CGPoint, CGPoint, CGPoint), close
    }

    private(set) var elements: [Element] = []

    /// An empty path.
    public init() {}

    /// A rectangle, as `CGPath(rect:transform:)`.
    public init(rect: CGRect, transform: AffineTransform? = nil) {
        move(to: CGPoint(x: rect.minX, y: rect.minY))
        addLine(to: CGPoint(x: rect.maxX, y: rect.minY))
        addLine(to: CGPoint(x: rect.maxX, y: rect.maxY))
        addLine(to: CGPoint(x: rect.minX, y: rect.maxY))
        closeSubpath()
        apply(transform)
    }

    /// A rectangle with elliptical corners (as `CGPath(roundedRect:cornerWidth:cornerHeight:transform:)`).
    public init(roundedRect rect: CGRect, cornerWidth: Double, cornerHeight: Double, transform: AffineTransform? = nil) {
        let w = min(cornerWidth, rect.width / 2), h = min(cornerHeight, rect.height / 2)
        let k = 0.5522847498 // a quarter circle as one cubic Bézier curve
        move(to: CGPoint(x: rect.minX + w, y: rect.minY))
        addLine(to: CGPoint(x: rect.maxX - w, y: rect.minY))
        addCurve(to: CGPoint(x: rect.maxX, y: rect.minY + h), control1: CGPoint(x: rect.maxX - w + w * k, y: rect.minY),
                 control2: CGPoint(x: rect.maxX, y: rect.minY + h - h * k))
        addLine(to: CGPoint(x: rect.maxX, y: rect.maxY - h))
        addCurve(to: CGPoint(x: rect.maxX - w, y: rect.maxY), control1: CGPoint(x: rect.maxX, y: rect.maxY - h + h * k),
                 control2: CGPoint(x: rect.maxX - w + w * k, y: rect.maxY))
        addLine(to: CGPoint(x: rect.minX + w, y: rect.maxY))
        addCurve(to: CGPoint(x: rect.minX, y: rect.maxY - h), control1: CGPoint(x: rect.minX + w - w * k, y: rect.maxY),
                 control2: CGPoint(x: rect.minX, y: rect.maxY - h + h * k))
        addLine(to: CGPoint(x: rect.minX, y: rect.minY + h))
        addCurve(to: CGPoint(x: rect.minX + w, y: rect.minY), control1: CGPoint(x: rect.minX, y: rect.minY + h - h * k),
                 control2: CGPoint(x: rect.minX + w - w * k, y: rect.minY))
        closeSubpath()
        apply(transform)
    }

    /// An ellipse inscribed in `rect`, as four Bézier curves.
    public init(ellipseIn rect: CGRect, transform: AffineTransform? = nil) {
        let k = 0.5522847498, rx = rect.width / 2, ry = rect.height / 2, c = CGPoint(x: rect.midX, y: rect.midY)
        move(to: CGPoint(x: c.x + rx, y: c.y))
        addCurve(to: CGPoint(x: c.x, y: c.y + ry), control1: CGPoint(x: c.x + rx, y: c.y + ry * k), control2: CGPoint(x: c.x + rx * k, y: c.y + ry))
        addCurve(to: CGPoint(x: c.x - rx, y: c.y), control1: CGPoint(x: c.x - rx * k, y: c.y + ry), control2: CGPoint(x: c.x - rx, y: c.y + ry * k))
        addCurve(to: CGPoint(x: c.x, y: c.y - ry), control1: CGPoint(x: c.x - rx, y: c.y - ry * k), control2: CGPoint(x: c.x - rx * k, y: c.y - ry))
        addCurve(to: CGPoint(x: c.x + rx, y: c.y), control1: CGPoint(x: c.x + rx * k, y: c.y - ry), control2: CGPoint(x: c.x + rx, y: c.y - ry * k))
        closeSubpath()
        apply(transform)
    }

    /// Every point moved by `transform` (the `transform:` of CoreGraphics' path initialisers).
    mutating func apply(_ transform: AffineTransform?) {
        guard let t = transform else { return }
        func map(_ p: CGPoint) -> CGPoint { t.transform(NSPoint(x: p.x, y: p.y)) }
        elements = elements.map { element in
            switch element {
            case .move(let p): .move(map(p))
            case .line(let p): .line(map(p))
            case .curve(let p, let a, let b): .curve(map(p), map(a), map(b))
            case .close: .close
            }
        }
    }

    /// Starts a new subpath at `point`.
    public mutating func move(to point: CGPoint) { elements.append(.move(point)) }
    /// Adds a straight line to `point`.
    public mutating func addLine(to point: CGPoint) { elements.append(.line(point)) }
    /// Adds a cubic Bézier curve to `end`.
    public mutating func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint) { elements.append(.curve(end, control1, control2)) }
    /// Closes the subpath with a line back to its start.
    public mutating func closeSubpath() { elements.append(.close) }

    /// The smallest rect holding every point and control point.
    public var boundingBox: CGRect {
        let points = elements.flatMap { element -> [CGPoint] in
            switch element {
            case .move(let p), .line(let p): [p]
            case .curve(let p, let a, let b): [p, a, b]
            case .close: []
            }
        }
        guard let first = points.first else { return .null }
        return points.dropFirst().reduce(CGRect(origin: first, size: .zero)) { $0.union(CGRect(origin: $1, size: .zero)) }
    }
}
