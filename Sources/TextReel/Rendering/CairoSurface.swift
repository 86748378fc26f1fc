import CPango
import Foundation
import Synchronization

/// Serial numbers of surfaces, never reused within a process.
private let surfaceSerials = Atomic<UInt64>(0)

/// Owns a Cairo image surface. Opaque frames use RGB24; fragment and attachment surfaces ARGB32.
final class CairoSurface {
    let surface: OpaquePointer
    let width: Int
    let height: Int
    /// Names these pixels: a surface placed in a frame is never drawn into again (caches make a
    /// new one), so a band of the same serials at the same places is the same bytes.
    let serial = surfaceSerials.add(1, ordering: .relaxed).newValue

    /// Cairo's limit for image surfaces.
    static let maximumSide = ReadingLimits.imageSide

    init(width: Int, height: Int, opaque: Bool) {
        self.width = max(width, 1)
        self.height = max(height, 1)
        surface = cairo_image_surface_create(opaque ? CAIRO_FORMAT_RGB24 : CAIRO_FORMAT_ARGB32,
                                             Int32(self.width), Int32(self.height))
    }

    /// An opaque surface whose pixels start as whatever its memory held, for a frame painted all
    /// over in an opaque colour first: a new surface is cleared by pixman, a 2 MB memset a frame
    /// that the background fill then overwrites.
    init(unclearedWidth width: Int, height: Int) {
        self.width = max(width, 1)
        self.height = max(height, 1)
        let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_RGB24, Int32(self.width)))
        let memory = malloc(stride * self.height)!
        surface = cairo_image_surface_create_for_data(memory.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_RGB24,
                                                      Int32(self.width), Int32(self.height), Int32(stride))
        cairo_surface_set_user_data(surface, &Self.memoryKey, memory, free)   // freed with the surface
    }

    nonisolated(unsafe) private static var memoryKey = cairo_user_data_key_t()

    /// Takes ownership of an existing surface.
    init(taking surface: OpaquePointer) {
        self.surface = surface
        width = Int(cairo_image_surface_get_width(surface))
        height = Int(cairo_image_surface_get_height(surface))
    }

    deinit { cairo_surface_destroy(surface) }

    var isValid: Bool { cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS }

    /// Runs `body` with a fresh `cairo_t` on this surface.
    func draw<T>(_ body: (OpaquePointer) throws -> T) rethrows -> T {
        let cr = cairo_create(surface)!
        defer { cairo_destroy(cr) }
        return try body(cr)
    }

    /// Approximate memory held, for cache budgets.
    var byteCount: Int { Int(cairo_image_surface_get_stride(surface)) * height }

    /// The bytes of row `y` (B, G, R, A/x per pixel on little-endian machines).
    func withPixels<T>(_ body: (UnsafePointer<UInt8>, Int) -> T) -> T {
        cairo_surface_flush(surface)
        return body(UnsafePointer(cairo_image_surface_get_data(surface)!), Int(cairo_image_surface_get_stride(surface)))
    }
}

/// Small Cairo drawing helpers.
enum Paint {
    static func setColor(_ cr: OpaquePointer, _ color: Color, alpha: Double = 1) {
        cairo_set_source_rgba(cr, color.red, color.green, color.blue, alpha)
    }

    static func fill(_ cr: OpaquePointer, _ rect: CGRect, _ color: Color, alpha: Double = 1) {
        setColor(cr, color, alpha: alpha)
        cairo_rectangle(cr, rect.minX, rect.minY, rect.width, rect.height)
        cairo_fill(cr)
    }

    static func roundedRect(_ cr: OpaquePointer, _ r: CGRect, radius: Double) {
        let radius = min(radius, r.width / 2, r.height / 2)
        cairo_new_sub_path(cr)
        cairo_arc(cr, r.maxX - radius, r.minY + radius, radius, -.pi / 2, 0)
        cairo_arc(cr, r.maxX - radius, r.maxY - radius, radius, 0, .pi / 2)
        cairo_arc(cr, r.minX + radius, r.maxY - radius, radius, .pi / 2, .pi)
        cairo_arc(cr, r.minX + radius, r.minY + radius, radius, .pi, 3 * .pi / 2)
        cairo_close_path(cr)
    }
}
