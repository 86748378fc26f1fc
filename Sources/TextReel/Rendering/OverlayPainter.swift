import CPango
import Foundation

/// What the overlay shows: fragment frames and rendering-surface bounds in the frame, and a
/// minimap strip at the right edge with the document, the overdraw band and the visible rect.
struct Overlay {
    var fragments: [(frame: CGRect, surface: CGRect, measured: Bool)]
    var visibleRect: CGRect
    var viewportBounds: CGRect
    var documentHeight: Double

    init(_ pass: LayoutPass) {
        fragments = pass.fragments.map { ($0.frame.cgRect, $0.surfaceBounds.cgRect, $0.state == .layoutAvailable) }
        visibleRect = pass.visibleRect.cgRect
        viewportBounds = pass.viewportBounds.cgRect
        documentHeight = pass.documentHeight
    }

    /// Every number it draws, to tell whether two overlays look the same.
    var signature: [Double] {
        fragments.flatMap { [$0.frame.minX, $0.frame.minY, $0.frame.width, $0.frame.height,
                             $0.surface.minX, $0.surface.minY, $0.surface.width, $0.surface.height, $0.measured ? 1 : 0] }
            + [visibleRect.minX, visibleRect.minY, visibleRect.width, visibleRect.height,
               viewportBounds.minX, viewportBounds.minY, viewportBounds.width, viewportBounds.height, documentHeight]
    }
}

enum OverlayPainter {
    /// `cr` is in points with the visible rect's origin at (0, 0).
    static func draw(_ overlay: Overlay, colors: Theme.OverlayColors, in cr: OpaquePointer) {
        let frameColor = colors.frame, surfaceColor = colors.surface, bandColor = colors.band
        let top = overlay.visibleRect.minY
        cairo_set_line_width(cr, 1)
        for fragment in overlay.fragments {
            let frame = fragment.frame.offsetBy(dx: 0, dy: -top).insetBy(dx: 0.5, dy: 0.5)
            Paint.setColor(cr, frameColor, alpha: 0.8)
            cairo_rectangle(cr, frame.minX, frame.minY, frame.width, frame.height)
            cairo_stroke(cr)
            let surface = fragment.surface.offsetBy(dx: 0, dy: -top).insetBy(dx: 2.5, dy: 2.5)
            Paint.setColor(cr, surfaceColor, alpha: 0.8)
            var dash = [4.0, 3.0]
            cairo_set_dash(cr, &dash, 2, 0)
            cairo_rectangle(cr, surface.minX, surface.minY, surface.width, surface.height)
            cairo_stroke(cr)
            cairo_set_dash(cr, nil, 0, 0)
        }
        // Minimap: the whole document scaled into a strip.
        let width = overlay.visibleRect.width, height = overlay.visibleRect.height
        let strip = CGRect(x: width - 18, y: 4, width: 14, height: height - 8)
        let k = strip.height / max(overlay.documentHeight, 1)
        func bar(_ y0: Double, _ y1: Double) -> CGRect {
            CGRect(x: strip.minX, y: strip.minY + y0 * k, width: strip.width, height: max((y1 - y0) * k, 1))
        }
        Paint.fill(cr, strip, colors.minimap, alpha: 0.9)
        Paint.fill(cr, bar(max(overlay.viewportBounds.minY, 0), min(overlay.viewportBounds.maxY, overlay.documentHeight)), bandColor, alpha: 0.35)
        Paint.fill(cr, bar(overlay.visibleRect.minY, overlay.visibleRect.maxY), frameColor, alpha: 0.8)
        Paint.setColor(cr, bandColor, alpha: 0.9)
        cairo_set_line_width(cr, 2)
        cairo_rectangle(cr, 1, 1, width - 2, height - 2)
        cairo_stroke(cr)
    }
}
