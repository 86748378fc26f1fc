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

    /// The boxes of the code spans (runs whose background carries
    /// `AttributeListBuilder.codeBackgroundAlpha`), in points from the layout's top left: one per
    /// span and line, a span's runs in several fonts joined.
    func codeSpanBoxes() -> [CGRect] {
        FontLock.run {
            var boxes: [(rect: CGRect, baseline: Int32)] = []
            let iter = pango_layout_get_iter(layout)
            defer { pango_layout_iter_free(iter) }
            repeat {
                guard let run = pango_layout_iter_get_run_readonly(iter), let item = run.pointee.item,
                      Self.isCodeSpan(item.pointee.analysis.extra_attrs) else { continue }
                var logical = PangoRectangle()
                pango_layout_iter_get_run_extents(iter, nil, &logical)
                let rect = PangoUnits.rect(logical), baseline = pango_layout_iter_get_baseline(iter)
                if let last = boxes.last, last.baseline == baseline, abs(last.rect.maxX - rect.minX) < 0.01 {
                    boxes[boxes.count - 1].rect = last.rect.union(rect)
                } else {
                    boxes.append((rect, baseline))
                }
            } while pango_layout_iter_next_run(iter) != 0
            return boxes.map(\.rect)
        }
    }

    private static func isCodeSpan(_ attributes: UnsafeMutablePointer<GSList>?) -> Bool {
        var node = attributes
        while let current = node {
            if let attribute = current.pointee.data?.assumingMemoryBound(to: PangoAttribute.self),
               attribute.pointee.klass.pointee.type == PANGO_ATTR_BACKGROUND_ALPHA,
               UnsafeMutableRawPointer(attribute).assumingMemoryBound(to: PangoAttrInt.self).pointee.value == Int32(AttributeListBuilder.codeBackgroundAlpha) {
                return true
            }
            node = current.pointee.next
        }
        return false
    }

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
