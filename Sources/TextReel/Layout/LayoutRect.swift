import Foundation

/// A rectangle in points, as events, previews, the overlay and golden structure write it: the one
/// rect type of every value that leaves a layout pass.
public struct LayoutRect: Codable, Sendable, Equatable {
    public var x, y, width, height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    public init(_ r: CGRect) { self.init(x: r.minX, y: r.minY, width: r.width, height: r.height) }

    public var minY: Double { y }
    public var maxY: Double { y + height }
    public var cgRect: CGRect { CGRect(x: x, y: y, width: width, height: height) }
}
