import Foundation

/// A rectangle in points, as events, previews, the overlay and golden structure write it: the one
/// rect type of every value that leaves a layout pass.
public struct LayoutRect: Codable, Sendable, Equatable {
    /// Origin and size, in points.
    public var x, y, width, height: Double

    /// A rect at `x`, `y` of `width` × `height` points.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    /// The same rect as `r`.
    public init(_ r: CGRect) { self.init(x: r.minX, y: r.minY, width: r.width, height: r.height) }

    /// The top edge.
    public var minY: Double { y }
    /// The bottom edge.
    public var maxY: Double { y + height }
    /// The same rect as a `CGRect`.
    public var cgRect: CGRect { CGRect(x: x, y: y, width: width, height: height) }
}
