import CPango
import Foundation

/// Extra drawing a `TextView` subclass adds to a fragment in `configureRenderingSurfaceFor`, in
/// the fragment's coordinates. Drawn above the fragment's cached surface on every frame it shows.
public enum FragmentDecoration: Sendable, Equatable {
    case fill(CGRect, Color, alpha: Double = 1)
    case stroke(CGRect, Color, lineWidth: Double = 1)

    func draw(in cr: OpaquePointer) {
        switch self {
        case .fill(let rect, let color, let alpha):
            Paint.fill(cr, rect, color, alpha: alpha)
        case .stroke(let rect, let color, let width):
            Paint.setColor(cr, color)
            cairo_set_line_width(cr, width)
            cairo_rectangle(cr, rect.minX + width / 2, rect.minY + width / 2, rect.width - width, rect.height - width)
            cairo_stroke(cr)
        }
    }
}
