import CPango
import Foundation

/// Fragment rendering surfaces, drawn once and composited on every frame they appear in. Keyed by
/// paragraph content, container width and scale (one cache per theme), bounded in bytes; when over
/// budget, the entries farthest from the viewport go first (ties: the later paragraph id).
final class FragmentSurfaceCache {
    struct Key: Hashable {
        let paragraph: TextParagraph
        let containerWidth: Double
        let scale: Double
    }

    private struct Entry {
        let surface: CairoSurface
        var lastY: Double
    }

    private var entries: [Key: Entry] = [:]
    private var bytes = 0
    var budget: Int
    /// Counters since the last `drainCounts()`.
    private(set) var draws = 0
    private(set) var hits = 0

    init(budget: Int = 96 << 20) { self.budget = budget }

    func surface(for fragment: TextLayoutFragment, scale: Double, draw: (TextLayoutFragment, OpaquePointer) -> Void) -> CairoSurface {
        let key = Key(paragraph: fragment.paragraph, containerWidth: fragment.containerWidth, scale: scale)
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
        entries[key] = Entry(surface: surface, lastY: fragment.layoutFragmentFrame.minY)
        bytes += surface.byteCount
        draws += 1
        return surface
    }

    /// Drops entries farthest from `y` until the cache fits its budget.
    func trim(around y: Double) {
        guard bytes > budget else { return }
        let ranked = entries.sorted {
            let a = abs($0.value.lastY - y), b = abs($1.value.lastY - y)
            return a != b ? a > b : $0.key.paragraph.id > $1.key.paragraph.id
        }
        for (key, entry) in ranked where bytes > budget {
            entries[key] = nil
            bytes -= entry.surface.byteCount
        }
    }

    func drainCounts() -> (draws: Int, hits: Int) {
        defer { draws = 0; hits = 0 }
        return (draws, hits)
    }
}
