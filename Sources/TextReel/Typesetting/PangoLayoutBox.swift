import CPango
import Foundation

/// Owns one `PangoLayout` (a shaped paragraph); unreferenced when the fragment goes away.
/// Measuring, drawing and freeing it hold the `FontLock` (each may open or close a face).
final class PangoLayoutBox {
    let layout: OpaquePointer
    init(_ layout: OpaquePointer) { self.layout = layout }
    deinit { FontLock.run { g_object_unref(UnsafeMutableRawPointer(layout)) } }

    /// The logical size in points. (A method, so the box outlives the C call.)
    var logicalSize: CGSize {
        var logical = PangoRectangle()
        FontLock.run { pango_layout_get_extents(layout, nil, &logical) }
        return PangoUnits.rect(logical).size
    }

    /// The first line's baseline, in points from the top.
    var baseline: Double { FontLock.run { PangoUnits.points(pango_layout_get_baseline(layout)) } }

    /// Draws the layout with its top-left at the current point of `cr`.
    func show(in cr: OpaquePointer) {
        FontLock.run { pango_cairo_show_layout(cr, layout) }
    }
}

/// Pango units ↔ points.
enum PangoUnits {
    static let scale = Double(PANGO_SCALE)
    static func points(_ value: Int32) -> Double { Double(value) / scale }
    static func units(_ points: Double) -> Int32 { Int32((points * scale).rounded()) }
    static func rect(_ r: PangoRectangle) -> CGRect {
        CGRect(x: points(r.x), y: points(r.y), width: points(r.width), height: points(r.height))
    }
}
