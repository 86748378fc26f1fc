import CPango

/// Owns one `PangoLayout` (a shaped paragraph); unreferenced when the fragment goes away.
final class PangoLayoutBox {
    let layout: OpaquePointer
    init(_ layout: OpaquePointer) { self.layout = layout }
    deinit { g_object_unref(UnsafeMutableRawPointer(layout)) }
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

import Foundation
