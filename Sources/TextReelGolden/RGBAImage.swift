import CImage
import Foundation
import TextReel

/// Straight (not premultiplied) 8-bit RGBA pixels, read and written with libpng's simplified
/// API — Cairo premultiplies on load, which loses what translucent pixels hold.
public struct RGBAImage: Equatable, Sendable {
    public let width: Int
    public let height: Int
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A transparent image.
    public init(width: Int, height: Int) {
        self.init(width: width, height: height, pixels: [UInt8](repeating: 0, count: width * height * 4))
    }

    /// PNG_FORMAT_RGBA (PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA): a macro Swift cannot import.
    static let formatRGBA = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)

    /// Largest image read, in pixels, so a hostile header cannot ask for gigabytes.
    public static let maximumPixels = 16384 * 16384

    public init(contentsOf url: URL) throws {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
        if isDirectory.boolValue { throw TextReelError(file: url.path, "a folder, not a PNG file") }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw TextReelError(file: url.path, exists ? "not a readable PNG file" : "no such PNG file")
        }
        do { try self.init(pngData: data) } catch let error as TextReelError {
            throw TextReelError(file: url.path, error.message)
        }
    }

    /// From PNG bytes: every colour type and bit depth, exactly (16-bit samples rounded to 8
    /// bits, no gamma curve applied), as pixelmatch's reader decodes them.
    public init(pngData data: Data) throws {
        var source = textreel_png_source()
        var width: UInt32 = 0, height: UInt32 = 0
        func message() -> String {
            withUnsafeBytes(of: source.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        let header = data.withUnsafeBytes { raw -> Int32 in
            source.data = raw.baseAddress?.assumingMemoryBound(to: UInt8.self)
            source.size = raw.count
            return textreel_png_read_rgba8(&source, nil, &width, &height, UInt(Self.maximumPixels))
        }
        guard header != 0 else {
            let why = message()
            throw TextReelError(why.contains("too large") ? "\(why) to compare" : "not a readable PNG file (\(why))")
        }
        var pixels = [UInt8](repeating: 0, count: Int(width) * Int(height) * 4)
        let ok = data.withUnsafeBytes { raw in
            pixels.withUnsafeMutableBytes { out -> Int32 in
                source.data = raw.baseAddress?.assumingMemoryBound(to: UInt8.self)
                source.size = raw.count
                return textreel_png_read_rgba8(&source, out.baseAddress?.assumingMemoryBound(to: UInt8.self), &width, &height, UInt(Self.maximumPixels))
            }
        }
        guard ok != 0 else { throw TextReelError("the PNG file is damaged (\(message()))") }
        self.init(width: Int(width), height: Int(height), pixels: pixels)
    }

    /// From a rendered frame (opaque).
    public init(_ frame: RenderedFrame) {
        self.init(width: frame.width, height: frame.height, pixels: frame.rgbaPixels())
    }

    /// PNG bytes, by the project's one PNG writer.
    public func pngData() throws -> Data {
        try PNGWriter.encodeRGBA(pixels, width: width, height: height)
    }

    /// Writes a PNG atomically.
    public func write(to url: URL) throws {
        try AtomicFile.write(pngData(), to: url)
    }
}
