import CPango
import Foundation

/// One PNG with a numbered grid of thumbnails of many frames.
public final class ContactSheet {
    /// Thumbnails per row (at least 1).
    public let columns: Int
    /// Each thumbnail's width, in pixels (at least 16).
    public let thumbnailWidth: Int
    private var thumbnails: [(number: Int, surface: CairoSurface)] = []
    private let painter: AttachmentPainter

    /// An empty sheet.
    public init(columns: Int = 6, thumbnailWidth: Int = 200) {
        self.columns = max(columns, 1)
        self.thumbnailWidth = max(thumbnailWidth, 16)
        painter = AttachmentPainter(fonts: FontSystem.forCurrentThread(.standard), theme: Theme(), providers: AttachmentProviders())
    }

    /// How many thumbnails it holds.
    public var count: Int { thumbnails.count }

    /// Adds a scaled-down copy of `frame`, labelled `number`.
    public func add(_ frame: RenderedFrame, number: Int) {
        let scale = Double(thumbnailWidth) / Double(frame.width)
        let thumbnail = CairoSurface(width: thumbnailWidth, height: Int((Double(frame.height) * scale).rounded()), opaque: true)
        thumbnail.draw { cr in
            cairo_scale(cr, scale, scale)
            cairo_set_source_surface(cr, frame.surface.surface, 0, 0)
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
            cairo_paint(cr)
        }
        thumbnails.append((number, thumbnail))
    }

    /// The sheet: thumbnails left to right, top to bottom, each with its frame number below.
    public func render() -> RenderedFrame {
        let gap = 8, label = 18
        let cellHeight = (thumbnails.map(\.surface.height).max() ?? 1) + label
        let rows = max((thumbnails.count + columns - 1) / columns, 1)
        let sheet = CairoSurface(width: gap + columns * (thumbnailWidth + gap), height: gap + rows * (cellHeight + gap), opaque: true)
        sheet.draw { cr in
            Paint.fill(cr, CGRect(x: 0, y: 0, width: sheet.width, height: sheet.height), Color(hex: 0xEAEEF2))
            for (k, item) in thumbnails.enumerated() {
                let x = Double(gap + (k % columns) * (thumbnailWidth + gap)), y = Double(gap + (k / columns) * (cellHeight + gap))
                cairo_set_source_surface(cr, item.surface.surface, x, y)
                cairo_paint(cr)
                Paint.setColor(cr, Color(hex: 0x57606A))
                cairo_set_line_width(cr, 1)
                cairo_rectangle(cr, x - 0.5, y - 0.5, Double(item.surface.width) + 1, Double(item.surface.height) + 1)
                cairo_stroke(cr)
                let text = painter.label("\(item.number)", size: 11, maxWidth: nil)
                Paint.setColor(cr, Color(hex: 0x1F2328))
                cairo_move_to(cr, x, y + Double(item.surface.height) + 2)
                text.show(in: cr)
            }
        }
        return RenderedFrame(surface: sheet)
    }
}
