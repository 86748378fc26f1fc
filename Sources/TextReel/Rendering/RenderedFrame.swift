import CPango
import Foundation

/// One rendered frame: opaque pixels, width × height × scale. Written as PNG atomically (a
/// temporary name, then a rename), so an interrupted run leaves no half file.
public final class RenderedFrame {
    let surface: CairoSurface
    public var width: Int { surface.width }
    public var height: Int { surface.height }

    init(surface: CairoSurface) { self.surface = surface }

    /// Reads a PNG (a golden frame, say) into a frame for comparison.
    public convenience init(contentsOfPNG url: URL) throws {
        guard FileManager.default.isReadableFile(atPath: url.path) else {
            throw TextReelError(file: url.path, "no such PNG file (or unreadable)")
        }
        let surface = CairoSurface(taking: cairo_image_surface_create_from_png(url.path))
        guard surface.isValid else {
            throw TextReelError(file: url.path, "not a PNG file Cairo can read")
        }
        self.init(surface: surface)
    }

    public func pngData() throws -> Data {
        try PNGEncoder.encode(surface)
    }

    public func write(to url: URL) throws {
        let data = try pngData()
        do {
            try data.write(to: url, options: .atomic)
        } catch {
            throw TextReelError(file: url.path, "cannot write the frame (\(Self.reason(error))); expected a writable output folder")
        }
    }

    static func reason(_ error: Error) -> String {
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return ns.localizedDescription
    }

    /// The colour of one pixel.
    public func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8) {
        surface.withPixels { data, stride in
            let p = data + y * stride + x * 4
            return (p[2], p[1], p[0])
        }
    }

    /// Rows `rows` as packed RGB bytes, for comparing regions of frames.
    public func rgbRows(_ rows: Range<Int>) -> [UInt8] {
        surface.withPixels { data, stride in
            var out: [UInt8] = []
            out.reserveCapacity(rows.count * width * 3)
            for y in rows {
                let row = data + y * stride
                for x in 0..<width { out.append(row[x * 4 + 2]); out.append(row[x * 4 + 1]); out.append(row[x * 4]) }
            }
            return out
        }
    }
}

/// Encodes a Cairo surface as PNG into memory.
enum PNGEncoder {
    private final class Sink { var data = Data() }

    static func encode(_ surface: CairoSurface) throws -> Data {
        let sink = Sink()
        let status = cairo_surface_write_to_png_stream(surface.surface, { closure, bytes, length in
            guard let closure, let bytes else { return CAIRO_STATUS_WRITE_ERROR }
            Unmanaged<Sink>.fromOpaque(closure).takeUnretainedValue().data.append(bytes, count: Int(length))
            return CAIRO_STATUS_SUCCESS
        }, Unmanaged.passUnretained(sink).toOpaque())
        guard status == CAIRO_STATUS_SUCCESS else {
            throw TextReelError("PNG encoding failed: \(String(cString: cairo_status_to_string(status)))")
        }
        return sink.data
    }
}
