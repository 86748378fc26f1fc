import Foundation
import TextReelMarkdown

/// Straight (not premultiplied) 8-bit RGBA pixels, read by `PNGDecoder` and written by
/// `PNGWriter` — Cairo premultiplies on load, which loses what translucent pixels hold.
public struct RGBAImage: Equatable, Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Four bytes per pixel (R, G, B, A), rows top to bottom.
    public var pixels: [UInt8]

    /// An image of `pixels`, which must hold width × height × 4 bytes.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A transparent image.
    public init(width: Int, height: Int) {
        self.init(width: width, height: height, pixels: [UInt8](repeating: 0, count: width * height * 4))
    }

    /// Largest image read, in pixels, so a hostile header cannot ask for gigabytes.
    public static let maximumPixels = 16384 * 16384

    /// Reads a PNG file; errors are `TextReelError`s naming it.
    public init(contentsOf url: URL) throws {
        try self.init(pngData: Self.fileData(at: url), file: url.path)
    }

    /// A PNG file's bytes, not yet decoded; errors are `TextReelError`s naming it.
    public static func fileData(at url: URL) throws -> Data {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
        if isDirectory.boolValue { throw TextReelError(file: url.path, "a folder, not a PNG file") }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw TextReelError(file: url.path, exists ? "not a readable PNG file" : "no such PNG file")
        }
        return data
    }

    /// From the bytes of the PNG file `file`, whose errors name it.
    public init(pngData data: Data, file: String) throws {
        do { try self.init(pngData: data) } catch let error as TextReelError {
            throw TextReelError(file: file, error.message)
        }
    }

    /// From PNG bytes: every colour type and bit depth, exactly (16-bit samples rounded to 8
    /// bits, no gamma curve applied), as pixelmatch's reader decodes them.
    public init(pngData data: Data) throws {
        do {
            let image = try PNGDecoder.decode(data, maximumPixels: Self.maximumPixels)
            self.init(width: image.width, height: image.height, pixels: image.rgba)
        } catch let failure as PNGDecoder.Failure {
            let why = failure.reason
            guard failure.inHeader else { throw TextReelError("the PNG file is damaged (\(why))") }
            throw TextReelError(why.contains("too large") ? "\(why) to compare" : "not a readable PNG file (\(why))")
        }
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
