import CPango
import Foundation

/// The drawing that attachment views (and placeholders) use beyond CoreGraphics' calls, on the
/// same `GraphicsContext`: filled and stroked shapes in one call with a colour, gradients, text
/// in the theme's font, images and the standard placeholder.
extension GraphicsContext {
    /// Text, images and placeholders are drawn by the attachment painter, in every context.
    private var labels: AttachmentPainter { painter }

    /// Fills `rect` with `color`.
    public func fill(_ rect: CGRect, _ color: Color, alpha: Double = 1) {
        Paint.fill(cr, rect, color.resolved(for: theme), alpha: alpha)
    }

    /// Fills `rect` with corners rounded by `radius`.
    public func fillRoundedRect(_ rect: CGRect, radius: Double, _ color: Color, alpha: Double = 1) {
        Paint.setColor(cr, color.resolved(for: theme), alpha: alpha)
        Paint.roundedRect(cr, rect, radius: radius)
        cairo_fill(cr)
    }

    /// Strokes the outline of `rect` with corners rounded by `radius`.
    public func strokeRoundedRect(_ rect: CGRect, radius: Double, _ color: Color, lineWidth: Double = 1, alpha: Double = 1) {
        Paint.setColor(cr, color.resolved(for: theme), alpha: alpha)
        cairo_set_line_width(cr, lineWidth)
        Paint.roundedRect(cr, rect, radius: radius)
        cairo_stroke(cr)
    }

    /// A vertical gradient filling `rect`.
    public func gradient(_ rect: CGRect, from top: Color, to bottom: Color) {
        let pattern = cairo_pattern_create_linear(0, rect.minY, 0, rect.maxY)
        cairo_pattern_add_color_stop_rgb(pattern, 0, top.red, top.green, top.blue)
        cairo_pattern_add_color_stop_rgb(pattern, 1, bottom.red, bottom.green, bottom.blue)
        cairo_set_source(cr, pattern)
        cairo_rectangle(cr, rect.minX, rect.minY, rect.width, rect.height)
        cairo_fill(cr)
        cairo_pattern_destroy(pattern)
    }

    /// A smooth stroke through `points` (round caps and joins).
    public func stroke(_ points: [CGPoint], _ color: Color, lineWidth: Double, alpha: Double = 1) {
        guard let first = points.first else { return }
        Paint.setColor(cr, color.resolved(for: theme), alpha: alpha)
        cairo_set_line_width(cr, lineWidth)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        cairo_move_to(cr, first.x, first.y)
        if points.count == 1 { cairo_line_to(cr, first.x, first.y) }
        for point in points.dropFirst() { cairo_line_to(cr, point.x, point.y) }
        cairo_stroke(cr)
    }

    /// Fills the closed polygon through `points`.
    public func fillPolygon(_ points: [CGPoint], _ color: Color, alpha: Double = 1) {
        guard let first = points.first else { return }
        Paint.setColor(cr, color.resolved(for: theme), alpha: alpha)
        cairo_move_to(cr, first.x, first.y)
        for point in points.dropFirst() { cairo_line_to(cr, point.x, point.y) }
        cairo_close_path(cr)
        cairo_fill(cr)
    }

    /// Fills the circle of `radius` around `center`.
    public func fillCircle(center: CGPoint, radius: Double, _ color: Color, alpha: Double = 1) {
        Paint.setColor(cr, color.resolved(for: theme), alpha: alpha)
        cairo_arc(cr, center.x, center.y, radius, 0, 2 * .pi)
        cairo_fill(cr)
    }

    /// Strokes the outline of the circle of `radius` around `center`.
    public func strokeCircle(center: CGPoint, radius: Double, _ color: Color, lineWidth: Double = 1) {
        Paint.setColor(cr, color.resolved(for: theme))
        cairo_set_line_width(cr, lineWidth)
        cairo_arc(cr, center.x, center.y, radius, 0, 2 * .pi)
        cairo_stroke(cr)
    }

    /// One line of text in the theme's body font; returns its size. `maxWidth` ellipsizes.
    @discardableResult
    public func text(_ string: String, at origin: CGPoint, size: Double, _ color: Color, bold: Bool = false,
                     maxWidth: Double? = nil) -> CGSize {
        let layout = labels.label(string, size: size, bold: bold, maxWidth: maxWidth)
        Paint.setColor(cr, color.resolved(for: theme))
        cairo_move_to(cr, origin.x, origin.y)
        layout.show(in: cr)
        return layout.logicalSize
    }

    /// One line of text standing on `baseline` (where CoreText's `textPosition` puts a line).
    @discardableResult
    public func text(_ string: String, baseline: CGPoint, size: Double, _ color: Color, bold: Bool = false) -> CGSize {
        let layout = labels.label(string, size: size, bold: bold, maxWidth: nil)
        return text(string, at: CGPoint(x: baseline.x, y: baseline.y - layout.baseline), size: size, color, bold: bold)
    }

    /// The context a `RulerView` draws with (`NSGraphicsContext.current`), on this thread, while
    /// the view draws it; nil otherwise.
    public static var current: GraphicsContext? { Thread.current.threadDictionary[currentKey] as? GraphicsContext }
    private static let currentKey = "TextReel.GraphicsContext.current"

    /// Runs `body` with this context as `current` on the calling thread.
    func whileCurrent(_ body: () -> Void) {
        let storage = Thread.current.threadDictionary
        let outer = storage[Self.currentKey]
        storage[Self.currentKey] = self
        defer { storage[Self.currentKey] = outer }
        body()
    }

    /// Measures text as `text(_:at:size:_:)` would draw it.
    public func measure(_ string: String, size: Double, bold: Bool = false) -> CGSize {
        labels.label(string, size: size, bold: bold, maxWidth: nil).logicalSize
    }

    /// Draws an image file scaled into `rect`; false when it cannot be read.
    @discardableResult
    public func image(_ file: URL, in rect: CGRect) -> Bool {
        labels.drawImage(file, in: rect, cr: cr)
    }

    /// The standard placeholder for `attachment`: type icon, id and size.
    public func placeholder(for attachment: TextAttachment) {
        labels.drawPlaceholder(attachment, box: bounds, in: cr)
    }

    /// Clips further drawing to `rect` while `body` runs.
    public func clipped(to rect: CGRect, _ body: () -> Void) {
        cairo_save(cr)
        cairo_rectangle(cr, rect.minX, rect.minY, rect.width, rect.height)
        cairo_clip(cr)
        body()
        cairo_restore(cr)
    }
}

extension GraphicsContext {
    /// Line `index` of `box` with its baseline starting at `baseline`, in `color` where the
    /// line's runs set none.
    func show(line index: Int, of box: PangoLayoutBox, shift: Int, baseline: CGPoint, color: Color) {
        Paint.setColor(cr, color.resolved(for: theme))
        cairo_move_to(cr, baseline.x, baseline.y)
        let drawn = rendered(box, shift: shift)
        FontLock.run {
            guard let line = pango_layout_get_line_readonly(drawn.layout, Int32(index)) else { return }
            pango_cairo_show_layout_line(cr, line)
        }
    }

    /// One line of `string` in `font` with its top left at `point`; returns its size.
    @discardableResult
    func text(_ string: String, at point: CGPoint, font: Font, _ color: Color) -> CGSize {
        let layout = painter.label(string, font: font)
        Paint.setColor(cr, color.resolved(for: theme))
        cairo_move_to(cr, point.x, point.y)
        layout.show(in: cr)
        return layout.logicalSize
    }
}
