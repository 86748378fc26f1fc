import CImage
import CPango
import Foundation

/// Reads image files: PNG through Cairo, SVG through librsvg, JPEG and the rest through gdk-pixbuf.
enum ImageFile {
    /// Width and height from the file's header, without decoding it.
    static func intrinsicSize(of url: URL) -> CGSize? {
        var width: Int32 = 0, height: Int32 = 0
        guard gdk_pixbuf_get_file_info(url.path, &width, &height) != nil, width > 0, height > 0 else { return nil }
        return CGSize(width: Double(width), height: Double(height))
    }

    /// Largest image decoded, in pixels: the header is read first, so a file that claims huge
    /// dimensions is refused before any memory is spent on it.
    static let maximumPixels = 64.0 * 1024 * 1024

    /// Decodes the image into a surface of its own pixel size, or nil when it cannot be read.
    static func load(_ url: URL) -> CairoSurface? {
        guard let size = intrinsicSize(of: url), size.width * size.height <= maximumPixels,
              size.width <= Double(CairoSurface.maximumSide), size.height <= Double(CairoSurface.maximumSide) else { return nil }
        switch url.pathExtension.lowercased() {
        case "png":
            let surface = CairoSurface(taking: cairo_image_surface_create_from_png(url.path))
            return surface.isValid ? surface : nil
        case "svg":
            return loadSVG(url)
        default:
            return loadPixbuf(url)
        }
    }

    /// SVG from its bytes, with no base file: librsvg then has nowhere to load external
    /// resources (images, stylesheets) from, and it never fetches from a network.
    private static func loadSVG(_ url: URL) -> CairoSurface? {
        guard let size = intrinsicSize(of: url), let data = try? Data(contentsOf: url) else { return nil }
        var error: UnsafeMutablePointer<GError>?
        let made = data.withUnsafeBytes { rsvg_handle_new_from_data($0.baseAddress?.assumingMemoryBound(to: guint8.self), gsize(data.count), &error) }
        guard let handle = made else {
            if let error { g_error_free(error) }
            return nil
        }
        defer { g_object_unref(UnsafeMutableRawPointer(handle)) }
        let surface = CairoSurface(width: Int(size.width), height: Int(size.height), opaque: false)
        let ok = surface.draw { cr -> Bool in
            var viewport = RsvgRectangle(x: 0, y: 0, width: size.width, height: size.height)
            var renderError: UnsafeMutablePointer<GError>?
            let ok = rsvg_handle_render_document(handle, cr, &viewport, &renderError) != 0
            if let renderError { g_error_free(renderError) }
            return ok
        }
        return ok ? surface : nil
    }

    /// gdk-pixbuf gives straight RGB(A) bytes; Cairo wants premultiplied native-endian ARGB.
    private static func loadPixbuf(_ url: URL) -> CairoSurface? {
        var error: UnsafeMutablePointer<GError>?
        guard let pixbuf = gdk_pixbuf_new_from_file(url.path, &error) else {
            if let error { g_error_free(error) }
            return nil
        }
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        let width = Int(gdk_pixbuf_get_width(pixbuf)), height = Int(gdk_pixbuf_get_height(pixbuf))
        let channels = Int(gdk_pixbuf_get_n_channels(pixbuf)), rowstride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        guard let source = gdk_pixbuf_read_pixels(pixbuf), channels >= 3 else { return nil }
        let surface = CairoSurface(width: width, height: height, opaque: false)
        cairo_surface_flush(surface.surface)
        let stride = Int(cairo_image_surface_get_stride(surface.surface))
        let target = cairo_image_surface_get_data(surface.surface)!
        for y in 0..<height {
            let row = target.advanced(by: y * stride).withMemoryRebound(to: UInt32.self, capacity: width) { $0 }
            for x in 0..<width {
                let p = source.advanced(by: y * rowstride + x * channels)
                let a = channels == 4 ? UInt32(p[3]) : 255
                func premultiply(_ c: UInt8) -> UInt32 { (UInt32(c) * a + 127) / 255 }
                row[x] = (a << 24) | (premultiply(p[0]) << 16) | (premultiply(p[1]) << 8) | premultiply(p[2])
            }
        }
        cairo_surface_mark_dirty(surface.surface)
        return surface
    }
}
