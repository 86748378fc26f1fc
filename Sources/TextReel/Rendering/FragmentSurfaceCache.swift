import CPango
import Foundation

/// Fragment rendering surfaces, drawn once and composited on every frame they appear in. Keyed by
/// paragraph content, container width and scale (one cache per theme). Entries last seen more than
/// `keptDistance` points from the viewport are dropped, and when over the byte budget the farthest
/// go first (ties: the later paragraph id).
final class FragmentSurfaceCache {
    struct Key: Hashable {
        let paragraph: TextParagraph
        let containerWidth: Double
        let scale: Double
        /// A custom fragment class draws differently from the standard one.
        let kind: ObjectIdentifier
        /// How often the paragraph was invalidated (`invalidateLayout`, `invalidateRenderingAttributes`).
        let generation: Int
        /// What the fragment says its drawing depends on (`renderingSurfaceKey`).
        let custom: AnyHashable?
    }

    private struct Entry {
        let surface: CairoSurface
        var lastY: Double
    }

    private var entries: [Key: Entry] = [:]
    private var bytes = 0
    var budget: Int
    /// Surfaces drawn and reused so far (a frame counts the difference over its drawing).
    private(set) var draws = 0
    private(set) var hits = 0

    var keptDistance: Double = 2400

    init(budget: Int = 48 << 20) { self.budget = budget }

    func surface(for fragment: TextLayoutFragment, scale: Double, generation: Int, draw: (TextLayoutFragment, OpaquePointer) -> Void) -> CairoSurface {
        let key = Key(paragraph: fragment.paragraph, containerWidth: fragment.containerWidth, scale: scale,
                      kind: ObjectIdentifier(type(of: fragment)),
                      generation: generation,
                      custom: fragment.renderingSurfaceKey)
        if var entry = entries[key] {
            entry.lastY = fragment.layoutFragmentFrame.minY
            entries[key] = entry
            hits += 1
            return entry.surface
        }
        let bounds = fragment.renderingSurfaceBounds
        let surface = CairoSurface(width: Int((bounds.width * scale).rounded(.up)),
                                   height: Int((bounds.height * scale).rounded(.up)), opaque: false)
        surface.draw { cr in
            cairo_scale(cr, scale, scale)
            cairo_translate(cr, -bounds.minX, -bounds.minY)
            draw(fragment, cr)
        }
        // An edited paragraph's earlier versions are never drawn again: typing would otherwise
        // fill the budget with them, all as near the viewport as the live one, and push the
        // live surfaces out (two redrawn every frame while typing into 10^5 paragraphs).
        for stale in entries.keys where stale.paragraph.id == key.paragraph.id && stale.containerWidth == key.containerWidth
            && stale.scale == key.scale && stale.kind == key.kind {
            bytes -= entries.removeValue(forKey: stale)!.surface.byteCount
        }
        entries[key] = Entry(surface: surface, lastY: fragment.layoutFragmentFrame.minY)
        bytes += surface.byteCount
        draws += 1
        return surface
    }

    /// Drops entries far from `visible`, then the farthest until the cache fits its budget.
    func trim(around visible: CGRect) {
        func distance(_ y: Double) -> Double { y < visible.minY ? visible.minY - y : max(y - visible.maxY, 0) }
        // Within the budget only the far ones go, in any order: no ranking (a sort a frame).
        guard bytes > budget else {
            for key in entries.compactMap({ distance($0.value.lastY) > keptDistance ? $0.key : nil }) {
                bytes -= entries.removeValue(forKey: key)!.surface.byteCount
            }
            return
        }
        let ranked = entries.sorted {
            let a = distance($0.value.lastY), b = distance($1.value.lastY)
            if a != b { return a > b }
            if $0.key.paragraph.id != $1.key.paragraph.id { return $0.key.paragraph.id > $1.key.paragraph.id }
            // Then by width and scale, so which surface goes never depends on hashing order.
            return ($0.key.containerWidth, $0.key.scale) > ($1.key.containerWidth, $1.key.scale)
        }
        for (key, entry) in ranked where bytes > budget || distance(entry.lastY) > keptDistance {
            entries[key] = nil
            bytes -= entry.surface.byteCount
        }
    }

    func removeAll() {
        entries.removeAll()
        bytes = 0
    }
}
