import Foundation

/// Extra drawing a `TextView` subclass adds to a fragment in `configureRenderingSurfaceFor`, in
/// the fragment's coordinates. Drawn above the fragment's cached surface on every frame it shows.
public enum FragmentDecoration: Sendable, Equatable {
    /// Fills a rect with a colour.
    case fill(CGRect, Color, alpha: Double = 1)
    /// Strokes a rect's outline, `lineWidth` points wide.
    case stroke(CGRect, Color, lineWidth: Double = 1)

    /// Drawn with the same context as fragments and attachment views.
    func draw(in context: GraphicsContext) {
        switch self {
        case .fill(let rect, let color, let alpha):
            context.fill(rect, color, alpha: alpha)
        case .stroke(let rect, let color, let width):
            context.setStrokeColor(color)
            context.setLineWidth(width)
            context.addRect(rect.insetBy(dx: width / 2, dy: width / 2))
            context.strokePath()
        }
    }
}
