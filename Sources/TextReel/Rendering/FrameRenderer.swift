import CPango
import Foundation

/// Composites a frame: cached fragment surfaces at their place relative to the viewport origin
/// (a long document is taller than Cairo's coordinate range), then each attachment on top.
final class FrameRenderer {
    let theme: Theme
    let painter: FragmentPainter
    let attachments: AttachmentPainter
    let cache = FragmentSurfaceCache()

    init(fonts: FontSystem, theme: Theme) {
        self.theme = theme
        painter = FragmentPainter(theme: theme)
        attachments = AttachmentPainter(fonts: fonts, theme: theme)
    }

    /// Device pixels for a document-space length, snapped so fragments land on whole pixels.
    private func device(_ points: Double, _ scale: Double) -> Double { (points * scale).rounded() }

    /// `attachmentSurface` gives each attachment's surface at a size and scale (nil: draw the
    /// plain placeholder).
    func render(_ fragments: [TextLayoutFragment], visibleRect: CGRect, scale: Double,
                decorations: [ParagraphID: [FragmentDecoration]] = [:], overlay: Overlay? = nil,
                attachmentSurface: (TextAttachment, CGSize, Double) -> CairoSurface? = { _, _, _ in nil }) -> RenderedFrame {
        let frame = CairoSurface(width: Int(device(visibleRect.width, scale)),
                                 height: Int(device(visibleRect.height, scale)), opaque: true)
        frame.draw { cr in
            Paint.fill(cr, CGRect(x: 0, y: 0, width: frame.width, height: frame.height), theme.background)
            let top = device(visibleRect.minY, scale)
            for fragment in fragments {
                let frameRect = fragment.layoutFragmentFrame
                let surfaceRect = fragment.renderingSurfaceBounds.offsetBy(dx: frameRect.minX, dy: frameRect.minY)
                guard surfaceRect.intersects(visibleRect), fragment.layout != nil else { continue }
                let surface = cache.surface(for: fragment, scale: scale) { painter.draw($0, in: $1) }
                cairo_set_source_surface(cr, surface.surface, device(surfaceRect.minX, scale),
                                         device(surfaceRect.minY, scale) - top)
                cairo_paint(cr)
                if let extra = decorations[fragment.paragraph.id] {
                    cairo_save(cr)
                    cairo_translate(cr, device(frameRect.minX, scale), device(frameRect.minY, scale) - top)
                    cairo_scale(cr, scale, scale)
                    for decoration in extra { decoration.draw(in: cr) }
                    cairo_restore(cr)
                }
                for (attachment, rect) in fragment.attachmentFrames {
                    let box = rect.offsetBy(dx: frameRect.minX, dy: frameRect.minY)
                    guard box.intersects(visibleRect) else { continue }
                    let x = device(box.minX, scale), y = device(box.minY, scale) - top
                    if let surface = attachmentSurface(attachment, rect.size, scale) {
                        cairo_set_source_surface(cr, surface.surface, x, y)
                        cairo_paint(cr)
                    } else {
                        cairo_save(cr)
                        cairo_translate(cr, x, y)
                        cairo_scale(cr, scale, scale)
                        attachments.drawPlaceholder(attachment, box: CGRect(origin: .zero, size: rect.size), in: cr)
                        cairo_restore(cr)
                    }
                }
            }
            if let overlay {
                cairo_save(cr)
                cairo_scale(cr, scale, scale)
                OverlayPainter.draw(overlay, in: cr)
                cairo_restore(cr)
            }
        }
        cache.trim(around: visibleRect)
        return RenderedFrame(surface: frame)
    }
}
