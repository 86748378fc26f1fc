import CImage
import CPango
import Foundation

/// One rendered frame: opaque pixels, width × height × scale. Written as PNG atomically (a
/// temporary name, then a rename), so an interrupted run leaves no half file.
public final class RenderedFrame {
    /// The pixels, drawn but for the rows of bands whose compressed bytes were already kept.
    private let drawn: CairoSurface
    /// Those rows, drawn when something first asks for the whole frame's pixels.
    private let deferred: DeferredRows
    /// The layout pass the frame was drawn from (nil for a frame read from a file).
    public internal(set) var pass: LayoutPass?
    /// Width in pixels (points × scale).
    public var width: Int { drawn.width }
    /// Height in pixels (points × scale).
    public var height: Int { drawn.height }

    /// Every pixel of the frame (a PNG written alone never needs the rows of kept bands: they
    /// are composited only for the sinks and checks that read pixels).
    var surface: CairoSurface {
        deferred.draw(into: drawn)
        return drawn
    }

    /// True when the frame is the previous one again (same surfaces at the same places): it was
    /// not drawn, and its PNG bytes are the previous frame's, encoded once.
    public let isRepeat: Bool
    private let encoded: EncodedPNG
    /// The rows cut as the scene places its surfaces (the whole frame for one read from a file).
    let bands: FrameBands

    init(surface: CairoSurface, bands: FrameBands? = nil, deferred: DeferredRows = DeferredRows()) {
        drawn = surface
        self.bands = bands ?? .whole(height: surface.height)
        self.deferred = deferred
        isRepeat = false
        encoded = EncodedPNG()
    }

    private init(repeating frame: RenderedFrame) {
        drawn = frame.drawn
        deferred = frame.deferred
        bands = frame.bands
        isRepeat = true
        encoded = frame.encoded
    }

    /// The same pixels as a new frame (its own pass), sharing the encoded bytes.
    func repeated() -> RenderedFrame { RenderedFrame(repeating: self) }

    /// PNG bytes per compression mode, shared by a frame and its repeats; encoded once (a second
    /// encoder of the same pixels waits for the first); and a file already holding them.
    private final class EncodedPNG: @unchecked Sendable {
        let lock = NSLock()
        var data: [PNGCompression: Data] = [:]
        var file: [PNGCompression: WrittenFile] = [:]
    }

    /// A file written with a frame's bytes: its path, and which file it was (a path written over
    /// since, by another frame, is not linked to).
    private struct WrittenFile {
        let path: String
        let identity: [UInt64]
        init?(_ path: String) {
            guard let status = FileStatus(path: path) else { return nil }
            self.path = path
            identity = status.identity
        }
        var isUnchanged: Bool { FileStatus(path: path)?.identity == identity }
    }

    /// Reads a PNG (a golden frame, say) into a frame for comparison.
    public convenience init(contentsOfPNG url: URL) throws {
        guard FileManager.default.isReadableFile(atPath: url.path) else {
            throw TextReelError(file: url.path, "no such PNG file (or unreadable)")
        }
        do {
            let image = try PNGDecoder.decode(try Data(contentsOf: url), maximumPixels: Int(ImageFile.maximumPixels))
            self.init(surface: CairoSurface(rgba: image.rgba, width: image.width, height: image.height, hasAlpha: image.hasAlpha))
        } catch let failure as PNGDecoder.Failure {
            throw TextReelError(file: url.path, "not a readable PNG file (\(failure.reason))")
        }
    }

    /// The frame's PNG bytes, encoded once per compression mode.
    public func pngData(compression: PNGCompression = .fast) throws -> Data {
        try encoded.lock.withLock {
            if let data = encoded.data[compression] { return data }
            let data = compression == .fast
                ? try deferred.whileDrawnRowsAreRead { try PNGWriter.encode(drawn, bands: bands) }
                : try PNGWriter.encode(surface, compression: compression)
            encoded.data[compression] = data
            return data
        }
    }

    /// The frame's PNG bytes encoded anew, every band compressed, nothing kept (what encoding
    /// costs cold, for the benchmark); the same bytes as `pngData(compression:)`.
    public func pngDataEncodedAfresh(compression: PNGCompression = .fast) throws -> Data {
        guard compression == .fast else { return try PNGWriter.encode(surface, compression: compression) }
        let cold = FrameBands(bands: bands.bands.map { FrameBands.Band(rows: $0.rows, key: $0.key) }, cache: nil)
        return try PNGWriter.encode(surface, bands: cold)
    }

    /// PNG bytes from libpng at its defaults (the benchmark's peer for size).
    public func libpngData() throws -> Data { try PNGPeers.encodeWithLibpng(surface) }

    /// PNG bytes from Cairo's own writer (the benchmark's peer).
    public func cairoPNGData() throws -> Data {
        try PNGPeers.encodeWithCairo(surface)
    }

    /// Writes the PNG to `url` atomically. A repeat whose bytes are already in a file (the frame
    /// it repeats, written) gets a hard link to that file when the caller flushes the files
    /// itself (`durable` false): a new name instead of a new file, whose inode, blocks and bytes
    /// cost three times as much. Other frames are written over a file `reusing` gives (see
    /// `AtomicFile.overwrite`), else into a new one. Which frames share a file, and which old
    /// file a frame reuses, may depend on the writers' timing; every file's bytes do not.
    public func write(to url: URL, compression: PNGCompression = .fast, durable: Bool = true, reusing: (() -> String?)? = nil) throws {
        let data = try pngData(compression: compression)
        if !durable, let file = encoded.lock.withLock({ encoded.file[compression] }), file.path != url.path, file.isUnchanged,
           AtomicFile.link(file.path, to: url) { return }
        let reused = !durable && (reusing?().map { AtomicFile.overwrite($0, with: data, to: url) } ?? false)
        if !reused { try AtomicFile.write(data, to: url, durable: durable) }
        if !durable, let written = WrittenFile(url.path) { encoded.lock.withLock { encoded.file[compression] = written } }
    }

    /// A hash of the pixels, equal for equal frames within one process (for comparing runs).
    public var pixelDigest: Int {
        surface.withPixels { data, stride in
            var hasher = Hasher()
            hasher.combine(bytes: UnsafeRawBufferPointer(start: data, count: stride * height))
            return hasher.finalize()
        }
    }

    /// The colour of one pixel.
    public func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8) {
        surface.withPixels { data, stride in
            let p = data + y * stride + x * 4
            return (p[2], p[1], p[0])
        }
    }

    /// All pixels as straight RGBA bytes (alpha 255), for image diffs and terminal images.
    public func rgbaPixels() -> [UInt8] {
        surface.withPixels { data, stride in
            var out = [UInt8](repeating: 255, count: width * height * 4)
            for y in 0..<height {
                let row = data + y * stride
                for x in 0..<width {
                    let o = (y * width + x) * 4
                    out[o] = row[x * 4 + 2]; out[o + 1] = row[x * 4 + 1]; out[o + 2] = row[x * 4]
                }
            }
            return out
        }
    }

    /// Rows `rows` as packed RGB bytes, for comparing regions of frames.
    public func rgbRows(_ rows: Range<Int>) -> [UInt8] {
        surface.withPixels { data, stride in
            var out = [UInt8](repeating: 0, count: rows.count * width * 3)
            out.withUnsafeMutableBufferPointer { o in
                for (k, y) in rows.enumerated() { RowConversion.bgrxToRGB(data + y * stride, o.baseAddress! + k * width * 3, count: width) }
            }
            return out
        }
    }
}

/// The benchmark's peers: libpng at its default settings and Cairo's own writer. Frames are
/// written by `PNGWriter`; these only measure it against what a user would otherwise get.
enum PNGPeers {
    /// libpng's simplified API with its defaults (adaptive filters, zlib level 6).
    static func encodeWithLibpng(_ surface: CairoSurface) throws -> Data {
        let width = surface.width, height = surface.height
        var packed = [UInt8](repeating: 0, count: width * height * 3)
        surface.withPixels { data, stride in
            packed.withUnsafeMutableBufferPointer { out in
                for y in 0..<height { RowConversion.bgrxToRGB(data + y * stride, out.baseAddress! + y * width * 3, count: width) }
            }
        }
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(width)
        image.height = UInt32(height)
        image.format = UInt32(PNG_FORMAT_FLAG_COLOR)
        var size = packed.count + packed.count / 64 + 65536
        var data = Data(count: size)
        let ok = data.withUnsafeMutableBytes { out in
            packed.withUnsafeBytes { png_image_write_to_memory(&image, out.baseAddress, &size, 0, $0.baseAddress, 0, nil) }
        }
        guard ok != 0 else { throw TextReelError("PNG encoding failed") }
        return data.prefix(size)
    }

    /// Cairo's own writer, for the benchmark's comparison.
    static func encodeWithCairo(_ surface: CairoSurface) throws -> Data {
        final class Sink { var data = Data() }
        let sink = Sink()
        let status = cairo_surface_write_to_png_stream(surface.surface, { closure, bytes, length in
            guard let closure, let bytes else { return CAIRO_STATUS_WRITE_ERROR }
            Unmanaged<Sink>.fromOpaque(closure).takeUnretainedValue().data.append(bytes, count: Int(length))
            return CAIRO_STATUS_SUCCESS
        }, Unmanaged.passUnretained(sink).toOpaque())
        guard status == CAIRO_STATUS_SUCCESS else { throw TextReelError("PNG encoding failed") }
        return sink.data
    }
}

/// Rows of a frame left undrawn because their bands' compressed bytes were kept: made only of
/// the background and surfaces (a band with anything else is never kept), so drawing them later
/// is painting those surfaces clipped to the rows (whole rows: the pixels are those of an
/// unclipped paint), as the whole frame would have. On any thread: under the renderer's
/// compositing lock, since the next frame may be painting from the same surfaces. Shared by a
/// frame and its repeats.
final class DeferredRows: @unchecked Sendable {
    private let lock = NSLock()
    private var rows: [Range<Int>]
    private var surfaces: [(surface: CairoSurface, x: Double, y: Double)]
    private let background: Color
    private let compositing: NSLock?

    init(rows: [Range<Int>] = [], surfaces: [(surface: CairoSurface, x: Double, y: Double)] = [], background: Color = .white,
         lock compositing: NSLock? = nil) {
        self.rows = rows; self.surfaces = surfaces; self.background = background; self.compositing = compositing
    }

    /// Draws the rows still undrawn into `frame`.
    func draw(into frame: CairoSurface) {
        lock.withLock {
            guard !rows.isEmpty else { return }
            compositing?.lock()
            defer { compositing?.unlock() }
            frame.draw { cr in
                for band in rows { cairo_rectangle(cr, 0, Double(band.lowerBound), Double(frame.width), Double(band.count)) }
                cairo_clip(cr)
                Paint.fill(cr, CGRect(x: 0, y: 0, width: frame.width, height: frame.height), background)
                for piece in surfaces {
                    cairo_set_source_surface(cr, piece.surface.surface, piece.x, piece.y)
                    cairo_paint(cr)
                }
            }
            cairo_surface_flush(frame.surface)
            rows = []
            surfaces = []
        }
    }

    /// Runs `body`, which reads drawn rows of the frame, while no deferred row is being drawn.
    func whileDrawnRowsAreRead<T>(_ body: () throws -> T) rethrows -> T { try lock.withLock { try body() } }
}

