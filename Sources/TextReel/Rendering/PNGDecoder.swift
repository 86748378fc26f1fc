import CImage
import CPango
import Foundation

/// The one PNG decoder, libpng's: every colour type and bit depth to straight 8-bit RGBA, exactly
/// (16-bit samples rounded to 8 bits, no gamma curve applied, as pixelmatch's reader decodes
/// them). Golden frames and images in documents are read by it; Cairo's own PNG reader is not
/// used (it truncates 16-bit samples). The C part lives in `png_read.h`, since libpng reports
/// errors by a longjmp that must not cross Swift frames.
public enum PNGDecoder {
    /// Width and height from the header alone; nil when it cannot be read.
    public static func size(of data: Data) -> (width: Int, height: Int)? {
        var size: (Int, Int)?
        _ = read(data, pixels: nil, maximumPixels: .max) { w, h, _ in size = (w, h) }
        return size
    }

    /// Why a PNG cannot be read: in its header (not a PNG, too large) or in its data (damaged).
    public struct Failure: Error {
        /// What is wrong, in words.
        public let reason: String
        /// True when the header is at fault, false when the pixel data is.
        public let inHeader: Bool
    }

    /// The pixels, straight RGBA; throws a `Failure` saying why they cannot be read.
    /// `hasAlpha`: the file has an alpha channel or a transparent colour.
    public static func decode(_ data: Data, maximumPixels: Int) throws -> (width: Int, height: Int, rgba: [UInt8], hasAlpha: Bool) {
        // 8-bit RGB(A) without a palette: inflated by libdeflate, the same pixels.
        if let fast = PNGFastDecoder.decode(data, maximumPixels: maximumPixels) {
            return (fast.width, fast.height, fast.rgba, data[data.startIndex + 25] == 6)
        }
        return try decodeWithLibpng(data, maximumPixels: maximumPixels)
    }

    /// Every other PNG (and the reference the fast path is tested against): libpng's decoding.
    static func decodeWithLibpng(_ data: Data, maximumPixels: Int) throws -> (width: Int, height: Int, rgba: [UInt8], hasAlpha: Bool) {
        var size = (0, 0), hasAlpha = false
        if let why = read(data, pixels: nil, maximumPixels: maximumPixels, size: { size = ($0, $1); hasAlpha = $2 }) {
            throw Failure(reason: why, inHeader: true)
        }
        var pixels = [UInt8](repeating: 0, count: size.0 * size.1 * 4)
        let problem = pixels.withUnsafeMutableBufferPointer { read(data, pixels: $0.baseAddress, maximumPixels: maximumPixels) { _, _, _ in } }
        if let problem { throw Failure(reason: problem, inHeader: false) }
        return (size.0, size.1, pixels, hasAlpha)
    }

    /// Reads the header (`pixels` nil) or the whole image; returns libpng's reason on failure.
    private static func read(_ data: Data, pixels: UnsafeMutablePointer<UInt8>?, maximumPixels: Int,
                             size: (Int, Int, Bool) -> Void) -> String? {
        var source = textreel_png_source()
        var width: UInt32 = 0, height: UInt32 = 0
        let ok = data.withUnsafeBytes { raw -> Int32 in
            source.data = raw.baseAddress?.assumingMemoryBound(to: UInt8.self)
            source.size = raw.count
            return textreel_png_read_rgba8(&source, pixels, &width, &height, UInt(maximumPixels))
        }
        guard ok != 0 else { return withUnsafeBytes(of: source.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) } }
        size(Int(width), Int(height), source.has_alpha != 0)
        return nil
    }
}

extension CairoSurface {
    /// A surface of straight RGBA pixels, premultiplied the way Cairo's own PNG reader does
    /// (`(a × c + 0x80) …` rounding), so pictures draw as before: RGB24 unless `hasAlpha`.
    convenience init(rgba: [UInt8], width: Int, height: Int, hasAlpha: Bool) {
        self.init(width: width, height: height, opaque: !hasAlpha)
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = cairo_image_surface_get_data(surface)!
        func multiply(_ alpha: Int, _ color: UInt8) -> UInt8 {
            let t = alpha * Int(color) + 0x80
            return UInt8((t + (t >> 8)) >> 8)
        }
        for y in 0..<height {
            let row = data + y * stride
            for x in 0..<width {
                let p = (y * width + x) * 4, o = x * 4
                let a = Int(rgba[p + 3])
                // Little-endian ARGB32 / RGB24 words: B, G, R, A bytes.
                if a == 255 {
                    row[o] = rgba[p + 2]; row[o + 1] = rgba[p + 1]; row[o + 2] = rgba[p]; row[o + 3] = 255
                } else if a == 0 {
                    row[o] = 0; row[o + 1] = 0; row[o + 2] = 0; row[o + 3] = 0
                } else {
                    row[o] = multiply(a, rgba[p + 2]); row[o + 1] = multiply(a, rgba[p + 1]); row[o + 2] = multiply(a, rgba[p]); row[o + 3] = UInt8(a)
                }
            }
        }
        cairo_surface_mark_dirty(surface)
    }

    /// A PNG file decoded by `PNGDecoder`; nil when it cannot be read.
    convenience init?(png url: URL, maximumPixels: Int) {
        guard let data = try? Data(contentsOf: url), let image = try? PNGDecoder.decode(data, maximumPixels: maximumPixels) else { return nil }
        self.init(rgba: image.rgba, width: image.width, height: image.height, hasAlpha: image.hasAlpha)
    }
}
