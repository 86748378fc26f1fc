import CPango
import Foundation

/// One PNG with a numbered grid of thumbnails of many frames.
public final class ContactSheet {
    public let columns: Int
    public let thumbnailWidth: Int
    private var thumbnails: [(number: Int, surface: CairoSurface)] = []
    private let painter: AttachmentPainter

    public init(columns: Int = 6, thumbnailWidth: Int = 200) {
        self.columns = max(columns, 1)
        self.thumbnailWidth = max(thumbnailWidth, 16)
        painter = AttachmentPainter(fonts: FontSystem.forCurrentThread(.standard), theme: Theme())
    }

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

/// Frames as a YUV4MPEG2 stream (4:4:4, BT.601 limited range) that any video tool reads.
public struct Y4MWriter {
    public let handle: FileHandle
    private var wroteHeader = false
    public let fps: Double

    public init(handle: FileHandle, fps: Double) {
        self.handle = handle
        self.fps = fps
    }

    public mutating func write(_ frame: RenderedFrame) throws {
        if !wroteHeader {
            let rate = Int((fps * 1000).rounded())
            try handle.write(contentsOf: Data("YUV4MPEG2 W\(frame.width) H\(frame.height) F\(rate):1000 Ip A1:1 C444\n".utf8))
            wroteHeader = true
        }
        let count = frame.width * frame.height
        var planes = [UInt8](repeating: 0, count: count * 3)
        let rgb = frame.rgbRows(0..<frame.height)
        for i in 0..<count {
            let r = Double(rgb[i * 3]), g = Double(rgb[i * 3 + 1]), b = Double(rgb[i * 3 + 2])
            planes[i] = UInt8(clamping: Int((16 + 0.257 * r + 0.504 * g + 0.098 * b).rounded()))
            planes[count + i] = UInt8(clamping: Int((128 - 0.148 * r - 0.291 * g + 0.439 * b).rounded()))
            planes[2 * count + i] = UInt8(clamping: Int((128 + 0.439 * r - 0.368 * g - 0.071 * b).rounded()))
        }
        try handle.write(contentsOf: Data("FRAME\n".utf8) + Data(planes))
    }
}
