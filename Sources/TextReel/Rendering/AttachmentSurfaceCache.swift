import Foundation

/// Attachment view surfaces, one per attachment: drawn again only when the view, its state or the
/// size and scale changed (or while it is loading). A surface lasts as long as its view: the scene
/// names the live views, and the surfaces of the others are dropped.
final class AttachmentSurfaceCache {
    private struct Entry {
        let drawn: Scene.DrawnState
        let size: CGSize
        let scale: Double
        let surface: CairoSurface
    }

    private var entries: [String: Entry] = [:]
    private(set) var draws = 0
    private(set) var hits = 0

    /// The bytes of each live view's surface (id → view instance and bytes), which the kept-view
    /// byte cap counts.
    var bytes: [String: (instance: Int, bytes: Int)] {
        entries.mapValues { ($0.drawn.instance, $0.surface.byteCount) }
    }

    /// Drops the surfaces of views that are gone.
    func keep(only live: [String: Int]) {
        entries = entries.filter { live[$0.key] == $0.value.drawn.instance }
    }

    /// The surface of `item` at `scale`; nil when it has no view or is too large for a surface
    /// (the frame then draws the placeholder in place).
    func surface(for item: Scene.Attachment, scale: Double, painter: AttachmentPainter) -> CairoSurface? {
        guard let view = item.view, let drawn = item.drawn else { return nil }
        let size = item.frame.size
        if let entry = entries[item.attachment.id], entry.drawn == drawn, entry.size == size, entry.scale == scale {
            hits += 1
            return entry.surface
        }
        let width = (size.width * scale).rounded(.up), height = (size.height * scale).rounded(.up)
        // Taller or wider than Cairo can make a surface (an 8,000 pt drawing at scale 8): no
        // surface, so the frame draws the placeholder in place, instead of an empty surface.
        guard max(width, height) <= CGFloat(CairoSurface.maximumSide) else { return nil }
        let surface = CairoSurface(width: Int(width), height: Int(height), opaque: false)
        surface.draw { cr in
            let canvas = GraphicsContext(cr: cr, painter: painter, size: size, scale: scale)
            if view.isLoaded { view.draw(in: canvas) } else { view.drawLoading(in: canvas) }
        }
        entries[item.attachment.id] = Entry(drawn: drawn, size: size, scale: scale, surface: surface)
        draws += 1
        return surface
    }
}
