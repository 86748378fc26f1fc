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

    /// A code span's box on one line, in points from the layout's top left, and whether its
    /// background may reach past it on each side: at a line's edge, or where a space (spaced to
    /// make room, `AttributeListBuilder.addRuns`) is beside it.
    struct CodeSpanBox {
        var rect: CGRect
        var padsBefore: Bool
        var padsAfter: Bool
        /// A key (`<kbd>`): a key cap.
        var isKey = false
    }

    /// The boxes of the code spans (runs whose background carries
    /// `AttributeListBuilder.codeBackgroundAlpha`): one per span and line, a span's runs in
    /// several fonts joined.
    func codeSpanBoxes() -> [CodeSpanBox] {
        FontLock.run {
            let text = pango_layout_get_text(layout)!
            let length = Int(strlen(text))
            func isSpace(_ index: Int) -> Bool { index >= 0 && index < length && text[index] == 0x20 }
            var boxes: [(box: CodeSpanBox, baseline: Int32, end: Int)] = []
            let iter = pango_layout_get_iter(layout)
            defer { pango_layout_iter_free(iter) }
            var opensLine = true, lastWasSpan = false
            repeat {
                guard let run = pango_layout_iter_get_run_readonly(iter), let item = run.pointee.item else {
                    // A line's end: a span just before it may pad into the margin.
                    if lastWasSpan { boxes[boxes.count - 1].box.padsAfter = true }
                    opensLine = true
                    lastWasSpan = false
                    continue
                }
                defer { opensLine = false }
                let kind = Self.codeSpanKind(item.pointee.analysis.extra_attrs)
                lastWasSpan = kind != nil
                guard let kind else { continue }
                let isKey = kind == AttributeListBuilder.keyBackgroundAlpha
                var logical = PangoRectangle()
                pango_layout_iter_get_run_extents(iter, nil, &logical)
                let rect = PangoUnits.rect(logical), baseline = pango_layout_iter_get_baseline(iter)
                let start = Int(item.pointee.offset), end = start + Int(item.pointee.length)
                if let last = boxes.last, last.baseline == baseline, last.end == start, last.box.isKey == isKey {
                    boxes[boxes.count - 1].box.rect = last.box.rect.union(rect)
                    boxes[boxes.count - 1].box.padsAfter = isSpace(end) || isKey && end < length
                    boxes[boxes.count - 1].end = end
                } else {
                    boxes.append((CodeSpanBox(rect: rect, padsBefore: opensLine || isSpace(start - 1) || isKey && start > 0,
                                              padsAfter: isSpace(end) || isKey && end < length, isKey: isKey), baseline, end))
                }
            } while pango_layout_iter_next_run(iter) != 0
            return boxes.map(\.box)
        }
    }

    /// The marking background alpha of a code span's or a key's run, nil for other runs.
    private static func codeSpanKind(_ attributes: UnsafeMutablePointer<GSList>?) -> guint16? {
        var node = attributes
        while let current = node {
            if let attribute = current.pointee.data?.assumingMemoryBound(to: PangoAttribute.self),
               attribute.pointee.klass.pointee.type == PANGO_ATTR_BACKGROUND_ALPHA {
                let value = guint16(truncatingIfNeeded: UnsafeMutableRawPointer(attribute).assumingMemoryBound(to: PangoAttrInt.self).pointee.value)
                if value == AttributeListBuilder.codeBackgroundAlpha || value == AttributeListBuilder.keyBackgroundAlpha { return value }
            }
            node = current.pointee.next
        }
        return nil
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

extension PangoLayoutBox {
    /// A copy of the layout drawn with rendering attributes over its own (`runs`, UTF-8 offsets
    /// of the paragraph's text, `shift` bytes of prefix before it): colours, underline and
    /// strikethrough replace what the text had there. None of them moves a glyph, so the copy's
    /// lines are the original's.
    func withRenderingAttributes(_ runs: [AttributeRun], shift: Int, theme: Theme) -> PangoLayoutBox {
        FontLock.run {
            let copy = pango_layout_copy(layout)!
            let attributes = AttributeListBuilder(replacingIn: pango_layout_get_attributes(layout), shift: shift)
            attributes.addAttributes(runs.map { AttributeRun(range: $0.range, attributes: $0.attributes.filter { RenderingAttributeStore.drawnKeys.contains($0.key) }) },
                                     theme: theme)
            pango_layout_set_attributes(copy, attributes.list)
            return PangoLayoutBox(copy)
        }
    }
}
