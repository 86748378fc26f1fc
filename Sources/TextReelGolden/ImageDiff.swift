import Foundation
import Synchronization
import TextReelMarkdown

/// Pixel comparison compatible with pixelmatch 7.2 (the same counts and diff images on its own
/// test suite): YIQ colour distance against `35215 × threshold²`, anti-aliasing detection, and a
/// diff image with unchanged pixels greyed. Ported by hand because no C library does exactly this;
/// an exact fast path runs first.
public struct ImageDiff {
    /// pixelmatch's options, with its defaults.
    public struct Options: Equatable, Sendable {
        /// Colour distance, 0…1, above which a pixel differs.
        public var threshold = 0.1
        /// Whether anti-aliased pixels count as differences.
        public var includeAA = false
        /// Opacity of unchanged pixels, greyed, in the diff image.
        public var alpha = 0.1
        /// RGB of anti-aliased pixels in the diff image.
        public var aaColor: [UInt8] = [255, 255, 0]
        /// RGB of differing pixels in the diff image.
        public var diffColor: [UInt8] = [255, 0, 0]
        /// RGB of differing pixels darker in the second image (nil: `diffColor`).
        public var diffColorAlt: [UInt8]?
        /// Draws only the differing pixels, on a transparent diff image.
        public var diffMask = false
        /// pixelmatch's defaults.
        public init() {}
    }

    /// What a comparison found.
    public struct Result: Sendable {
        /// Pixels that differ beyond the threshold (anti-aliasing excluded unless `includeAA`).
        public var mismatch: Int
        /// Pixels compared.
        public var total: Int
        /// The diff image, when asked for.
        public var image: RGBAImage?
        /// Bounding boxes of groups of differing pixels, in pixels.
        public var regions: [CGRect]
        /// The share of pixels that differ, 0…1.
        public var ratio: Double { total == 0 ? 0 : Double(mismatch) / Double(total) }
    }

    /// Compares two images of the same size. Bands of rows run on every core; a row whose bytes
    /// equal the other image's is skipped without a colour delta (only greyed into the diff
    /// image), and equal pixels are found by one 32-bit compare. The counts and the diff image are
    /// pixelmatch's whatever the number of bands.
    public static func compare(_ a: RGBAImage, _ b: RGBAImage, options: Options = Options(), makeImage: Bool = true) -> Result {
        precondition(a.width == b.width && a.height == b.height, "compare images of the same size")
        let width = a.width, height = a.height, count = width * height
        // Every pixel of the image is written by `diff`: no need to clear 48 MB of a 4000 × 3000 image first.
        var output = !makeImage ? [] : [UInt8](largeBufferOf: count * 4) { _ in }
        let bands = max(1, min(height, ProcessInfo.processInfo.activeProcessorCount * 4))
        let found = Found()
        a.pixels.withUnsafeBufferPointer { pa in
            b.pixels.withUnsafeBufferPointer { pb in
                output.withUnsafeMutableBytes { out in
                    let shared = Shared(a: pa, b: pb, out: makeImage ? out.baseAddress : nil)
                    DispatchQueue.concurrentPerform(iterations: bands) { band in
                        let rows = (height * band / bands)..<(height * (band + 1) / bands)
                        found.add(diff(rows: rows, shared, width, height, options,
                                             into: shared.out.map { $0 + rows.lowerBound * width * 4 }, stride: width * 4))
                    }
                }
            }
        }
        return found.result(count: count, width: width, image: makeImage ? RGBAImage(width: width, height: height, pixels: output) : nil)
    }

    /// Compares two images of the same size, as `compare`, and gives the diff image as PNG bytes
    /// (what `PNGWriter.encodeRGBA` makes of `compare`'s image): each band of rows the writer
    /// compresses is compared into the writer's own buffer, so the image is never held whole.
    public static func compareEncodingDiffImage(_ a: RGBAImage, _ b: RGBAImage, options: Options = Options()) throws -> (result: Result, png: Data) {
        precondition(a.width == b.width && a.height == b.height, "compare images of the same size")
        let width = a.width, height = a.height
        let found = Found()
        let png = try a.pixels.withUnsafeBufferPointer { pa in
            try b.pixels.withUnsafeBufferPointer { pb in
                let shared = Shared(a: pa, b: pb, out: nil)
                return try PNGWriter.encodeRGBA(width: width, height: height) { rows, out, stride in
                    found.add(diff(rows: rows, shared, width, height, options, into: out, stride: stride))
                    return true
                }
            }
        }
        return (found.result(count: width * height, width: width, image: nil), png)
    }

    /// What the bands found, whichever order they finish in: their counts and occupied cells
    /// (a band's grid of cells is let go when it ends).
    final class Found: Sendable {
        private let bands = Mutex<(mismatch: Int, cells: [[(key: Int, box: DiffCells.Box)]])>((0, []))

        func add(_ found: (Int, DiffCells)) {
            let cells = found.1.occupied
            bands.withLock { $0.mismatch += found.0; $0.cells.append(cells) }
        }

        /// One result: neither the sum nor the regions depend on the bands' order.
        func result(count: Int, width: Int, image: RGBAImage?) -> Result {
            let (mismatch, cells) = bands.withLock { $0 }
            return Result(mismatch: mismatch, total: count, image: image, regions: DiffCells.regions(cells, width: width))
        }
    }

    /// The images the bands read, from row `firstRow` on (0 for whole images; a band of rows
    /// decoded as they are compared starts a little above the band), and where the diff image
    /// goes when it is made whole (each band writes only its own rows).
    struct Shared: @unchecked Sendable {
        let a: UnsafeBufferPointer<UInt8>
        let b: UnsafeBufferPointer<UInt8>
        var firstRow = 0
        var out: UnsafeMutableRawPointer? = nil
        var a32: UnsafePointer<UInt32> { UnsafeRawPointer(a.baseAddress!).assumingMemoryBound(to: UInt32.self) }
        var b32: UnsafePointer<UInt32> { UnsafeRawPointer(b.baseAddress!).assumingMemoryBound(to: UInt32.self) }
    }

    /// Compares rows `rows`, drawing row y of the diff image (every pixel of it) at
    /// `output + (y - rows.lowerBound) * stride` when there is an output; the count of differing
    /// pixels and where they are.
    static func diff(rows: Range<Int>, _ s: Shared, _ width: Int, _ height: Int, _ options: Options,
                     into output: UnsafeMutableRawPointer?, stride: Int) -> (Int, DiffCells) {
        let maxDelta = 35215 * options.threshold * options.threshold
        // The colours are read only when something is drawn, as pixelmatch reads them.
        let drawn = output == nil ? nil : (aa: pixel(options.aaColor), diff: pixel(options.diffColor), alt: pixel(options.diffColorAlt ?? options.diffColor))
        let img1 = s.a, img2 = s.b, a32 = s.a32, b32 = s.b32
        var mismatch = 0
        var differing = DiffCells(width: width, rows: rows)
        var gray = Gray(alpha: output == nil || options.diffMask ? 0 : options.alpha)   // alpha is used only to grey
        // Pixels are found at their index less the first row's (pixelmatch's blend of translucent
        // pixels reads the index itself).
        let first = s.firstRow * width
        for y in rows {
            let rowStart = y * width - first, rowEnd = rowStart + width
            let line = output.map { $0 + (y - rows.lowerBound) * stride }
            // Where unchanged pixels are drawn grey: not in a mask, whose background is transparent.
            var grey: UnsafeMutableRawPointer? = line
            if options.diffMask, let line {
                line.initializeMemory(as: UInt8.self, repeating: 0, count: width * 4)
                grey = nil
            }
            if memcmp(img1.baseAddress! + rowStart * 4, img2.baseAddress! + rowStart * 4, width * 4) == 0 {
                if let grey {
                    // Eight pixels at once while they are of the cached colour (a blank row's background).
                    var x = 0
                    while x < width {
                        if x + 8 <= width, UnsafeRawPointer(a32 + rowStart + x).loadUnaligned(as: SIMD8<UInt32>.self) == SIMD8(repeating: gray.pixel) {
                            grey.storeBytes(of: SIMD8(repeating: gray.gray), toByteOffset: x * 4, as: SIMD8<UInt32>.self)
                            x += 8
                        } else {
                            grey.storeBytes(of: gray.of(a32[rowStart + x]), toByteOffset: x * 4, as: UInt32.self)
                            x += 1
                        }
                    }
                }
                continue
            }
            var i = rowStart
            while i < rowEnd {
                // A run of equal pixels (most of a changed row) in a loop of its own: a compare
                // and, for the diff image, a grey from the one-entry cache.
                if let grey {
                    while i < rowEnd {
                        // Eight pixels at once while they are equal and of the cached colour (the
                        // page's background): one vector compare and store.
                        if i + 8 <= rowEnd {
                            let pixels = UnsafeRawPointer(a32 + i).loadUnaligned(as: SIMD8<UInt32>.self)
                            if pixels == SIMD8(repeating: gray.pixel), pixels == UnsafeRawPointer(b32 + i).loadUnaligned(as: SIMD8<UInt32>.self) {
                                grey.storeBytes(of: SIMD8(repeating: gray.gray), toByteOffset: (i - rowStart) * 4, as: SIMD8<UInt32>.self)
                                i += 8
                                continue
                            }
                        }
                        guard a32[i] == b32[i] else { break }
                        grey.storeBytes(of: gray.of(a32[i]), toByteOffset: (i - rowStart) * 4, as: UInt32.self)
                        i += 1
                    }
                } else {
                    while i < rowEnd, a32[i] == b32[i] { i += 1 }
                }
                guard i < rowEnd else { break }
                let x = i - rowStart, pos = i * 4
                let delta = colorDelta(img1, img2, pos, pos, position: pos + first * 4, yOnly: false)
                if abs(delta) > maxDelta {
                    let isAA = antialiased(img1, x, y, width, height, a32, b32, s.firstRow) || antialiased(img2, x, y, width, height, b32, a32, s.firstRow)
                    if !options.includeAA && isAA {
                        if let drawn { grey?.storeBytes(of: drawn.aa, toByteOffset: x * 4, as: UInt32.self) }
                    } else {
                        if let drawn { line?.storeBytes(of: delta < 0 ? drawn.alt : drawn.diff, toByteOffset: x * 4, as: UInt32.self) }
                        mismatch += 1
                        differing.add(x: x, y: y)
                    }
                } else {
                    grey?.storeBytes(of: gray.of(a32[i]), toByteOffset: x * 4, as: UInt32.self)
                }
                i += 1
            }
        }
        return (mismatch, differing)
    }

    /// An opaque pixel of an RGB colour, as the 32 bits of its RGBA bytes.
    private static func pixel(_ rgb: [UInt8]) -> UInt32 {
        (UInt32(rgb[0]) | UInt32(rgb[1]) << 8 | UInt32(rgb[2]) << 16 | 0xFF00_0000).littleEndian
    }

    /// A pixel with both darker and brighter neighbours, whose extreme neighbour has 3+ equal
    /// siblings in both images, is anti-aliasing. The images hold rows from `firstRow` on.
    private static func antialiased(_ img: UnsafeBufferPointer<UInt8>, _ x1: Int, _ y1: Int, _ width: Int, _ height: Int,
                                    _ a32: UnsafePointer<UInt32>, _ b32: UnsafePointer<UInt32>, _ firstRow: Int) -> Bool {
        let x0 = max(x1 - 1, 0), y0 = max(y1 - 1, 0)
        let x2 = min(x1 + 1, width - 1), y2 = min(y1 + 1, height - 1)
        let first = firstRow * width, pos = y1 * width + x1 - first
        var zeroes = x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2 ? 1 : 0
        var minDelta = 0.0, maxDelta = 0.0
        var minX = 0, minY = 0, maxX = 0, maxY = 0
        // The centre's channels once, from its 32 bits (little-endian RGBA), for opaque neighbours.
        let centre = a32[pos], opaque = centre >> 24 == 255
        let r0 = Double(centre & 0xFF), g0 = Double(centre >> 8 & 0xFF), b0 = Double(centre >> 16 & 0xFF)
        for x in x0...x2 {
            for y in y0...y2 {
                if x == x1 && y == y1 { continue }
                // `a32` is `img` itself: an equal neighbour (most of a page's background) needs no colour math.
                let neighbour = y * width + x - first, other = a32[neighbour]
                let delta: Double
                if centre == other {
                    delta = 0
                } else if opaque && other >> 24 == 255 {
                    // `colorDelta(yOnly: true)` of two opaque pixels, the same operations.
                    let dr = r0 - Double(other & 0xFF), dg = g0 - Double(other >> 8 & 0xFF), db = b0 - Double(other >> 16 & 0xFF)
                    delta = dr == 0 && dg == 0 && db == 0 ? 0 : yiqDelta(dr, dg, db, yOnly: true)
                } else {
                    delta = colorDelta(img, img, pos * 4, neighbour * 4, position: (pos + first) * 4, yOnly: true)
                }
                if delta == 0 {
                    zeroes += 1
                    if zeroes > 2 { return false }
                } else if delta < minDelta {
                    minDelta = delta; minX = x; minY = y
                } else if delta > maxDelta {
                    maxDelta = delta; maxX = x; maxY = y
                }
            }
        }
        if minDelta == 0 || maxDelta == 0 { return false }
        return (hasManySiblings(a32, minX, minY, width, height, first) && hasManySiblings(b32, minX, minY, width, height, first))
            || (hasManySiblings(a32, maxX, maxY, width, height, first) && hasManySiblings(b32, maxX, maxY, width, height, first))
    }

    /// `img` holds pixels from index `first` on.
    private static func hasManySiblings(_ img: UnsafePointer<UInt32>, _ x1: Int, _ y1: Int, _ width: Int, _ height: Int, _ first: Int) -> Bool {
        let x0 = max(x1 - 1, 0), y0 = max(y1 - 1, 0)
        let x2 = min(x1 + 1, width - 1), y2 = min(y1 + 1, height - 1)
        let value = img[y1 * width + x1 - first]
        var zeroes = x1 == x0 || x1 == x2 || y1 == y0 || y1 == y2 ? 1 : 0
        for x in x0...x2 {
            for y in y0...y2 {
                if x == x1 && y == y1 { continue }
                if value == img[y * width + x - first] { zeroes += 1 }
                if zeroes > 2 { return true }
            }
        }
        return false
    }

    /// YIQ distance (Kotsarenko and Ramos), negative when the second pixel is lighter... as
    /// pixelmatch encodes it: the sign says whether the pixel lightens or darkens. Opaque pixels
    /// (every frame's) take the short way: the blend below would otherwise be computed, with
    /// its two divisions, ahead of the branch that needs it. `k` and `m` are where the pixels
    /// are held; `position` is the first one's byte index in its whole image.
    @inline(__always)
    private static func colorDelta(_ img1: UnsafeBufferPointer<UInt8>, _ img2: UnsafeBufferPointer<UInt8>,
                                   _ k: Int, _ m: Int, position: Int, yOnly: Bool) -> Double {
        guard img1[k + 3] == 255 && img2[m + 3] == 255 else { return blendedColorDelta(img1, img2, k, m, position: position, yOnly: yOnly) }
        let dr = Double(img1[k]) - Double(img2[m]), dg = Double(img1[k + 1]) - Double(img2[m + 1]), db = Double(img1[k + 2]) - Double(img2[m + 2])
        if dr == 0 && dg == 0 && db == 0 { return 0 }
        return yiqDelta(dr, dg, db, yOnly: yOnly)
    }

    /// `colorDelta` of pixels not both opaque: blended with a background that varies per pixel,
    /// as pixelmatch does (by the first pixel's position).
    @inline(never)
    private static func blendedColorDelta(_ img1: UnsafeBufferPointer<UInt8>, _ img2: UnsafeBufferPointer<UInt8>,
                                          _ k: Int, _ m: Int, position: Int, yOnly: Bool) -> Double {
        let r1 = Double(img1[k]), g1 = Double(img1[k + 1]), b1 = Double(img1[k + 2]), a1 = Double(img1[k + 3])
        let r2 = Double(img2[m]), g2 = Double(img2[m + 1]), b2 = Double(img2[m + 2]), a2 = Double(img2[m + 3])
        let da = a1 - a2
        if r1 == r2 && g1 == g2 && b1 == b2 && da == 0 { return 0 }
        let rb = 48 + 159 * Double(position % 2)
        let gb = 48 + 159 * Double(Int(Double(position) / 1.618033988749895) % 2)
        let bb = 48 + 159 * Double(Int(Double(position) / 2.618033988749895) % 2)
        let dr = (r1 * a1 - r2 * a2 - rb * da) / 255
        let dg = (g1 * a1 - g2 * a2 - gb * da) / 255
        let db = (b1 * a1 - b2 * a2 - bb * da) / 255
        return yiqDelta(dr, dg, db, yOnly: yOnly)
    }

    @inline(__always)
    private static func yiqDelta(_ dr: Double, _ dg: Double, _ db: Double, yOnly: Bool) -> Double {
        let y = dr * 0.29889531 + dg * 0.58662247 + db * 0.11448223
        if yOnly { return y }
        let i = dr * 0.59597799 - dg * 0.27417610 - db * 0.32180189
        let q = dr * 0.21147017 - dg * 0.52261711 + db * 0.31114694
        let delta = 0.5053 * y * y + 0.299 * i * i + 0.1957 * q * q
        return y > 0 ? -delta : delta
    }

    /// Unchanged pixels: the first image's luminance blended with white at `alpha` (truncated to
    /// a byte, as a typed array stores it). Runs of one colour (most of a page of text) are
    /// computed once: the last pixel's grey is kept.
    private struct Gray {
        let alpha: Double
        private(set) var pixel: UInt32 = 0
        private(set) var gray: UInt32

        init(alpha: Double) {
            self.alpha = alpha
            gray = Self.gray(of: 0, alpha: alpha)
        }

        @inline(__always)
        mutating func of(_ pixel: UInt32) -> UInt32 {
            if pixel != self.pixel { self.pixel = pixel; gray = Self.gray(of: pixel, alpha: alpha) }
            return gray
        }

        private static func gray(of pixel: UInt32, alpha: Double) -> UInt32 {
            let value = UInt32(littleEndian: pixel)
            let r = Double(value & 0xFF), g = Double(value >> 8 & 0xFF), b = Double(value >> 16 & 0xFF), a = Double(value >> 24)
            let luma = r * 0.29889531 + g * 0.58662247 + b * 0.11448223
            let byte = UInt32(UInt8(clamping: Int(255 + (luma - 255) * alpha * a / 255)))
            return (byte | byte << 8 | byte << 16 | 0xFF00_0000).littleEndian
        }
    }
}
