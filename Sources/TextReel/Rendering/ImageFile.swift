import CImage
import COptionalLibraries
import CPango
import Foundation
import Synchronization

/// Reads image files: PNG through `PNGDecoder` (libpng), SVG through librsvg, JPEG and the rest through gdk-pixbuf.
enum ImageFile {
    /// Says what is really wrong with a file that cannot be drawn: "not found", "a folder, not
    /// an image", "not readable (permission denied)", "not an image (it starts with text)",
    /// "damaged PNG: data ends at byte 812", "damaged SVG: <librsvg's message>". Decodes the
    /// whole file, so a truncated image is found when the document is read, not as a silent
    /// placeholder later.
    /// Each file is inspected (decoded) once per process however often a document refers to it,
    /// keyed by its identity: path, size and modification time (a file changed meanwhile is
    /// inspected again).
    @Sendable static func inspect(_ url: URL, maximumPixels: Double) -> ImageInspection {
        guard let status = FileStatus(path: url.path), status.kind == .regular else { return inspectUncached(url, maximumPixels: maximumPixels) }
        let key = "\(url.path)|\(status.size)|\(status.modified)|\(maximumPixels)"
        if let known = inspections.withLock({ $0[key] }) { return known }
        let found = inspectUncached(url, maximumPixels: maximumPixels)
        inspections.withLock { $0[key] = found }
        return found
    }

    private static let inspections = Mutex<[String: ImageInspection]>([:])

    /// Width and height from a GIF's logical screen descriptor, right after its signature.
    static func gifHeaderSize(_ head: Data) -> CGSize? {
        let bytes = [UInt8](head.prefix(10))
        guard bytes.count == 10, bytes.starts(with: Array("GIF8".utf8)) else { return nil }
        return CGSize(width: Double(UInt16(bytes[6]) | UInt16(bytes[7]) << 8), height: Double(UInt16(bytes[8]) | UInt16(bytes[9]) << 8))
    }

    /// gdk-pixbuf meets some damaged headers (a GIF of 0 × 0) with a CRITICAL line on standard
    /// error before it fails: TextReel says what is wrong itself, once, so those lines go.
    private static let quietPixbufLog: Void = {
        g_log_set_handler("GdkPixbuf", GLogLevelFlags(rawValue: G_LOG_LEVEL_CRITICAL.rawValue | G_LOG_LEVEL_WARNING.rawValue),
                          { _, _, _, _ in }, nil)
    }()

    /// Width and height from a PNG's IHDR chunk, which must come first.
    static func pngHeaderSize(_ head: Data) -> CGSize? {
        let bytes = [UInt8](head.prefix(24))
        guard bytes.count == 24, bytes[12...15] == [0x49, 0x48, 0x44, 0x52] else { return nil }
        func number(_ at: Int) -> Double { Double(UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])) }
        return CGSize(width: number(16), height: number(20))
    }

    private static func inspectUncached(_ url: URL, maximumPixels: Double) -> ImageInspection {
        guard let status = FileStatus(path: url.path) else { return .problem("not found") }
        if status.kind == .directory { return .problem("a folder, not an image") }
        // A device or FIFO would block or never end (the size limit is the pixels', checked below).
        if status.kind != .regular, let problem = InputFile.problem(with: status, maximumBytes: .max) { return .problem(problem) }
        guard let handle = FileHandle(forReadingAtPath: url.path) else {
            return .problem("not readable (\(String(cString: strerror(errno))))")
        }
        // Enough to find an `<svg` tag after an XML declaration, a doctype and long comments.
        let head = (try? handle.read(upToCount: 64 << 10)) ?? Data()
        try? handle.close()
        let kind = Kind(sniffing: head)
        // A PNG says its size in its first chunk: a file claiming a vast one is refused from that,
        // even when no decoder would read the rest (the test of it once passed either way).
        if kind == .png, let claimed = pngHeaderSize(head), isTooLarge(claimed, maximumPixels: maximumPixels) { return .tooLarge(claimed) }
        if let claimed = gifHeaderSize(head), claimed.width == 0 || claimed.height == 0 {
            return .problem("damaged GIF: its header says it is \(Int(claimed.width)) × \(Int(claimed.height)) pixels")
        }
        guard let size = intrinsicSize(of: url) else {
            switch kind {
            case .unknown:
                let text = head.prefix(512).allSatisfy { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || ($0 >= 0x20 && $0 != 0x7F) }
                return .problem(head.isEmpty ? "an empty file, not an image" : text ? "not an image (it holds text)" : "not an image (PNG, JPEG, GIF, WebP or SVG)")
            default:
                return .problem("damaged \(kind.rawValue): \(decodeProblem(url, kind: kind, maximumPixels: maximumPixels) ?? "its header cannot be read")")
            }
        }
        if isTooLarge(size, maximumPixels: maximumPixels) { return .tooLarge(size) }
        if let why = decodeProblem(url, kind: kind, maximumPixels: maximumPixels) { return .damaged(size, "damaged \(kind == .unknown ? "image" : kind.rawValue): \(why)") }
        return .image(size)
    }

    private enum Kind: String {
        case png = "PNG", jpeg = "JPEG", svg = "SVG", unknown = "image"
        init(sniffing head: Data) {
            let bytes = [UInt8](head.prefix(8))
            if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { self = .png }
            else if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { self = .jpeg }
            else if String(decoding: head, as: UTF8.self).contains("<svg") { self = .svg }
            else { self = .unknown }
        }
    }

    /// Why the file's data cannot be decoded, or nil when it decodes.
    private static func decodeProblem(_ url: URL, kind: Kind, maximumPixels: Double) -> String? {
        switch kind {
        case .png:
            guard let data = try? Data(contentsOf: url) else { return "cannot be read" }
            // Only sizes `inspect` let through get here: the limit is a second guard.
            do { _ = try PNGDecoder.decode(data, maximumPixels: Int(maximumPixels)) } catch let failure as PNGDecoder.Failure {
                return failure.reason
            } catch { return "\(error)" }
            return nil
        case .svg:
            if let problem = textreel_optional_library_problem(0) { return "cannot be drawn: " + String(cString: problem) }
            guard let data = try? Data(contentsOf: url) else { return "cannot be read" }
            var error: UnsafeMutablePointer<GError>?
            let handle = data.withUnsafeBytes { rsvg_handle_new_from_data($0.baseAddress?.assumingMemoryBound(to: guint8.self), gsize(data.count), &error) }
            if let handle {
                defer { g_object_unref(UnsafeMutableRawPointer(handle)) }
                // Drawn once into one pixel: what librsvg refuses only while drawing (a `<use>`
                // bomb past its limit on referenced elements) is a problem with a reason too.
                guard let size = svgSize(handle) else { return nil }
                let probe = CairoSurface(width: 1, height: 1, opaque: false)
                return probe.draw { cr in renderSVG(handle, size: size, into: cr) }.map { "librsvg cannot draw it (\($0))" }
            }
            defer { if let error { g_error_free(error) } }
            // librsvg: "XML parse error: Error domain 1 code 77 on line 2 column 1 of data: <reason>".
            let text = (error.map { String(cString: $0.pointee.message) } ?? "librsvg cannot parse it").trimmingCharacters(in: .whitespacesAndNewlines)
            if let range = text.range(of: " of data: "), let at = text.range(of: " on line ") {
                return "\(text[range.upperBound...]) (\(text[at.lowerBound..<range.lowerBound].dropFirst(4)))"
            }
            return text
        case .jpeg, .unknown:
            // libjpeg decodes a truncated file into grey rows with only a warning: look for the
            // end-of-image marker ourselves.
            if kind == .jpeg, let data = try? Data(contentsOf: url),
               !data.suffix(64).indices.contains(where: { $0 + 1 < data.endIndex && data[$0] == 0xFF && data[$0 + 1] == 0xD9 }) {
                return "data ends at byte \(data.count), before the end-of-image marker"
            }
            var error: UnsafeMutablePointer<GError>?
            // Under the font lock: gdk-pixbuf's SVG loader (for a file not named .svg) draws text with Pango.
            if let pixbuf = FontLock.run({ gdk_pixbuf_new_from_file(url.path, &error) }) {
                FontLock.run { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
                return nil
            }
            defer { if let error { g_error_free(error) } }
            // gdk-pixbuf's message starts with "Failed to load image “<path>”: ": keep the reason.
            let text = (error.map { String(cString: $0.pointee.message) } ?? "gdk-pixbuf cannot decode it").trimmingCharacters(in: .whitespacesAndNewlines)
            return text.range(of: "”: ").map { String(text[$0.upperBound...]) } ?? text
        }
    }

    /// Width and height from the file's header, without decoding it: gdk-pixbuf's, or for a PNG
    /// libpng's reading of its header alone (gdk-pixbuf's loader refuses PNGs over 1,000,000 px
    /// a side, which are too large to draw, not damaged).
    static func intrinsicSize(of url: URL) -> CGSize? {
        _ = quietPixbufLog
        var width: Int32 = 0, height: Int32 = 0
        // Under the font lock: for an SVG, gdk-pixbuf's loader is librsvg's, which may draw.
        if FontLock.run({ gdk_pixbuf_get_file_info(url.path, &width, &height) }) != nil, width > 0, height > 0 {
            return CGSize(width: Double(width), height: Double(height))
        }
        guard let data = try? Data(contentsOf: url, options: .alwaysMapped) else { return nil }
        if Kind(sniffing: data.prefix(64 << 10)) == .svg { return svgSize(data) }
        guard let size = PNGDecoder.size(of: data), size.width > 0, size.height > 0 else { return nil }
        return CGSize(width: Double(size.width), height: Double(size.height))
    }

    /// An SVG's size from librsvg, for files gdk-pixbuf's loader does not recognise (the `<svg`
    /// tag after a long comment), or nil when it has no size in pixels.
    private static func svgSize(_ data: Data) -> CGSize? {
        var error: UnsafeMutablePointer<GError>?
        let made = data.withUnsafeBytes { rsvg_handle_new_from_data($0.baseAddress?.assumingMemoryBound(to: guint8.self), gsize(data.count), &error) }
        if let error { g_error_free(error) }
        guard let handle = made else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(handle)) }
        return svgSize(handle)
    }

    private static func svgSize(_ handle: OpaquePointer) -> CGSize? {
        var width = 0.0, height = 0.0
        guard rsvg_handle_get_intrinsic_size_in_pixels(handle, &width, &height) != 0, width >= 1, height >= 1 else { return nil }
        return CGSize(width: width.rounded(.up), height: height.rounded(.up))
    }

    /// Over the pixel budget, or wider or taller than Cairo can draw. In `Double`: a header's
    /// width times its height never overflows.
    static func isTooLarge(_ size: CGSize, maximumPixels: Double) -> Bool {
        Double(size.width) * Double(size.height) > maximumPixels
            || max(size.width, size.height) > CGFloat(CairoSurface.maximumSide)
    }

    /// Largest image decoded, in pixels: the header is read first, so a file that claims huge
    /// dimensions is refused before any memory is spent on it.
    static let maximumPixels = 64.0 * 1024 * 1024

    /// Decodes the image into a surface of its own pixel size, or nil when it cannot be read.
    static func load(_ url: URL) -> CairoSurface? {
        guard let size = intrinsicSize(of: url), !isTooLarge(size, maximumPixels: maximumPixels) else { return nil }
        // By what the bytes are, as `inspect` judges them, not by the name (a JPEG named .png).
        let head = FileHandle(forReadingAtPath: url.path).flatMap { handle in
            defer { try? handle.close() }
            return try? handle.read(upToCount: 64 << 10)
        } ?? Data()
        switch Kind(sniffing: head) {
        case .png:
            return CairoSurface(png: url, maximumPixels: Int(maximumPixels))
        case .svg:
            return loadSVG(url)
        case .jpeg, .unknown:
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
        return surface.draw { cr in renderSVG(handle, size: size, into: cr) } == nil ? surface : nil
    }

    /// Draws the SVG at `size` into `cr`; librsvg's reason when it cannot, else nil.
    private static func renderSVG(_ handle: OpaquePointer, size: CGSize, into cr: OpaquePointer) -> String? {
        var viewport = RsvgRectangle(x: 0, y: 0, width: size.width, height: size.height)
        var error: UnsafeMutablePointer<GError>?
        let ok = FontLock.run { rsvg_handle_render_document(handle, cr, &viewport, &error) != 0 }
        defer { if let error { g_error_free(error) } }
        return ok ? nil : error.map { String(cString: $0.pointee.message) } ?? "no reason given"
    }

    /// gdk-pixbuf gives straight RGB(A) bytes; Cairo wants premultiplied native-endian ARGB.
    private static func loadPixbuf(_ url: URL) -> CairoSurface? {
        var error: UnsafeMutablePointer<GError>?
        guard let pixbuf = FontLock.run({ gdk_pixbuf_new_from_file(url.path, &error) }) else {
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
        // NULL when Cairo could not make the surface (no memory): no image, not a crash.
        guard surface.isValid, let target = cairo_image_surface_get_data(surface.surface) else { return nil }
        for y in 0..<height {
            // The rebound pointer is used only inside the closure that rebinds it.
            target.advanced(by: y * stride).withMemoryRebound(to: UInt32.self, capacity: width) { row in
                for x in 0..<width {
                    let p = source.advanced(by: y * rowstride + x * channels)
                    let a = channels == 4 ? UInt32(p[3]) : 255
                    func premultiply(_ c: UInt8) -> UInt32 { (UInt32(c) * a + 127) / 255 }
                    row[x] = (a << 24) | (premultiply(p[0]) << 16) | (premultiply(p[1]) << 8) | premultiply(p[2])
                }
            }
        }
        cairo_surface_mark_dirty(surface.surface)
        return surface
    }
}
