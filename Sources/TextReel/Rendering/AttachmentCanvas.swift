import CPango
import Foundation

/// What an `AttachmentView` draws with: a Cairo context in points, with the box's top-left at the
/// origin, behind a small Swift API (no C pointer reaches library users).
public final class AttachmentCanvas {
    let cr: OpaquePointer
    let painter: AttachmentPainter
    /// The box being drawn.
    public let size: CGSize
    public var bounds: CGRect { CGRect(origin: .zero, size: size) }
    /// The look the view is drawn in (light, dark, a theme file): views take their colours here.
    public var theme: Theme { painter.theme }

    /// Sets up `cr` (a fresh context on a surface of size × scale pixels) to draw in points.
    init(cr: OpaquePointer, painter: AttachmentPainter, size: CGSize, scale: Double) {
        self.cr = cr
        self.painter = painter
        self.size = size
        cairo_scale(cr, scale, scale)
    }

    public func fill(_ rect: CGRect, _ color: Color, alpha: Double = 1) {
        Paint.fill(cr, rect, color, alpha: alpha)
    }

    public func fillRoundedRect(_ rect: CGRect, radius: Double, _ color: Color, alpha: Double = 1) {
        Paint.setColor(cr, color, alpha: alpha)
        Paint.roundedRect(cr, rect, radius: radius)
        cairo_fill(cr)
    }

    public func strokeRoundedRect(_ rect: CGRect, radius: Double, _ color: Color, lineWidth: Double = 1, alpha: Double = 1) {
        Paint.setColor(cr, color, alpha: alpha)
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
        Paint.setColor(cr, color, alpha: alpha)
        cairo_set_line_width(cr, lineWidth)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        cairo_move_to(cr, first.x, first.y)
        if points.count == 1 { cairo_line_to(cr, first.x, first.y) }
        for point in points.dropFirst() { cairo_line_to(cr, point.x, point.y) }
        cairo_stroke(cr)
    }

    public func fillPolygon(_ points: [CGPoint], _ color: Color, alpha: Double = 1) {
        guard let first = points.first else { return }
        Paint.setColor(cr, color, alpha: alpha)
        cairo_move_to(cr, first.x, first.y)
        for point in points.dropFirst() { cairo_line_to(cr, point.x, point.y) }
        cairo_close_path(cr)
        cairo_fill(cr)
    }

    public func fillCircle(center: CGPoint, radius: Double, _ color: Color, alpha: Double = 1) {
        Paint.setColor(cr, color, alpha: alpha)
        cairo_arc(cr, center.x, center.y, radius, 0, 2 * .pi)
        cairo_fill(cr)
    }

    public func strokeCircle(center: CGPoint, radius: Double, _ color: Color, lineWidth: Double = 1) {
        Paint.setColor(cr, color)
        cairo_set_line_width(cr, lineWidth)
        cairo_arc(cr, center.x, center.y, radius, 0, 2 * .pi)
        cairo_stroke(cr)
    }

    /// One line of text in the theme's body font; returns its size. `maxWidth` ellipsizes.
    @discardableResult
    public func text(_ string: String, at origin: CGPoint, size: Double, _ color: Color, bold: Bool = false,
                     maxWidth: Double? = nil) -> CGSize {
        let layout = painter.label(string, size: size, bold: bold, maxWidth: maxWidth)
        Paint.setColor(cr, color)
        cairo_move_to(cr, origin.x, origin.y)
        layout.show(in: cr)
        return layout.logicalSize
    }

    /// Measures text as `text(_:at:size:_:)` would draw it.
    public func measure(_ string: String, size: Double, bold: Bool = false) -> CGSize {
        painter.label(string, size: size, bold: bold, maxWidth: nil).logicalSize
    }

    /// Draws an image file scaled into `rect`; false when it cannot be read.
    @discardableResult
    public func image(_ file: URL, in rect: CGRect) -> Bool {
        painter.drawImage(file, in: rect, cr: cr)
    }

    /// The standard placeholder for `attachment`: type icon, id and size.
    public func placeholder(for attachment: TextAttachment) {
        painter.drawPlaceholder(attachment, box: bounds, in: cr)
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
