import CCompress
import Foundation

/// The common case of PNG decoding done faster than libpng with zlib: 8-bit RGB or RGBA, not
/// interlaced, no palette or transparent colour (every frame TextReel writes, and most
/// screenshots). Its IDAT stream is inflated by libdeflate in one call (several times zlib's
/// speed on frame-sized images) and unfiltered here; anything else goes to libpng. The pixels are
/// the ones libpng gives (a test compares them on every filter type).
enum PNGFastDecoder {
    /// What the header and chunks of a PNG of the common kind say.
    struct Layout {
        let width: Int, height: Int, channels: Int
        /// The IDAT chunks' bodies, in order: one zlib stream.
        let streamPieces: [Range<Int>]
        /// Bytes of a row of pixels, without its filter byte.
        var rowBytes: Int { width * channels }
        /// Bytes of the zlib stream, all chunks together.
        var streamCount: Int { streamPieces.reduce(0) { $0 + $1.count } }

        /// Copies the stream out of the file's `bytes` to `out`, which holds `streamCount`.
        func copyStream(from bytes: UnsafeBufferPointer<UInt8>, to out: UnsafeMutablePointer<UInt8>) {
            var at = 0
            for piece in streamPieces {
                (out + at).update(from: bytes.baseAddress! + piece.lowerBound, count: piece.count)
                at += piece.count
            }
        }

        /// Nil when the file is not of the common kind (or is damaged: libpng then says why).
        init?(_ bytes: UnsafeBufferPointer<UInt8>, maximumPixels: Int) {
            guard bytes.count > 33, bytes[0] == 0x89, bytes[1] == 0x50, bytes[2] == 0x4E, bytes[3] == 0x47 else { return nil }
            func u32(_ at: Int) -> Int { Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]) }
            // IHDR first: width, height, depth 8, colour type 2 or 6, no interlace.
            guard u32(8) == 13, bytes[12] == 0x49, bytes[13] == 0x48, bytes[14] == 0x44, bytes[15] == 0x52 else { return nil }
            let width = u32(16), height = u32(20), depth = bytes[24], color = bytes[25], interlace = bytes[28]
            // Sizes are checked before they are multiplied: a damaged header's product overflows (the fuzzer's find).
            guard depth == 8, color == 2 || color == 6, interlace == 0, width > 0, height > 0, width <= maximumPixels, height <= maximumPixels,
                  case let (pixels, overflow) = width.multipliedReportingOverflow(by: height), !overflow, pixels <= maximumPixels,
                  pixels <= Int.max / 8 else { return nil }
            // The IDAT chunks, one stream; a tRNS chunk (a transparent colour) is libpng's to apply.
            var pieces: [Range<Int>] = []
            var at = 33
            while at + 12 <= bytes.count {
                let length = u32(at)
                guard at + 12 + length <= bytes.count else { return nil }
                let type = (bytes[at + 4], bytes[at + 5], bytes[at + 6], bytes[at + 7])
                if type == (0x49, 0x44, 0x41, 0x54) { pieces.append(at + 8..<at + 8 + length) }
                if type == (0x74, 0x52, 0x4E, 0x53) || type == (0x50, 0x4C, 0x54, 0x45) { return nil }
                if type == (0x49, 0x45, 0x4E, 0x44) { break }
                at += 12 + length
            }
            (self.width, self.height, channels, streamPieces) = (width, height, color == 6 ? 4 : 3, pieces)
        }
    }

    /// The pixels as straight RGBA, or nil when the file is not of the common kind (or is
    /// damaged: libpng then says why).
    static func decode(_ data: Data, maximumPixels: Int) -> (width: Int, height: Int, rgba: [UInt8])? {
        data.withUnsafeBytes { raw -> (Int, Int, [UInt8])? in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard let layout = Layout(bytes, maximumPixels: maximumPixels) else { return nil }
            let stream = [UInt8](unsafeUninitializedCapacity: max(1, layout.streamCount)) { buffer, count in
                layout.copyStream(from: bytes, to: buffer.baseAddress!)
                count = layout.streamCount
            }
            let width = layout.width, height = layout.height
            let expected = (layout.rowBytes + 1) * height, count = width * height * 4
            // The stream is inflated into the end of the pixels' own buffer and unfiltered row by
            // row to its start: row y's pixels end before row y + 1's filtered bytes begin (a
            // filtered row is one byte longer than an RGBA row's 4 × width only for RGBA, whose
            // buffer gets `height` bytes more). No second buffer of the image's size.
            let capacity = max(count, expected)
            guard let decompressor = libdeflate_alloc_decompressor() else { return nil }
            defer { libdeflate_free_decompressor(decompressor) }
            var ok = false
            let rgba = [UInt8](largeBufferOf: count, capacity: capacity) { buffer in
                let filtered = buffer + (capacity - expected)
                var produced = 0
                let result = stream.withUnsafeBytes { input in
                    libdeflate_zlib_decompress(decompressor, input.baseAddress, input.count, filtered, expected, &produced)
                }
                guard result == LIBDEFLATE_SUCCESS, produced == expected else { return }
                let unfilter = PNGUnfilter(width: width, channels: layout.channels)
                ok = unfilter.rows(filtered, count: height, endImage: true, into: buffer)
            }
            return ok ? (width, height, rgba) : nil
        }
    }
}

/// Undoes PNG rows' filters (None, Sub, Up, Average, Paeth: the specification's five) and writes
/// them as RGBA, keeping the last row between calls, so an image can be unfiltered in pieces.
final class PNGUnfilter {
    let width: Int, channels: Int, rowBytes: Int
    /// The row above the next one, and the row being made.
    private var above: UnsafeMutablePointer<UInt8>, row: UnsafeMutablePointer<UInt8>
    /// Whether `above` holds a row: above the first, the specification's zeros are written only
    /// when a filter reads them (a damaged file claiming a 16-million-pixel width had them
    /// cleared before its data was found wanting: the fuzzer's find).
    private var aboveIsSet = false

    init(width: Int, channels: Int) {
        (self.width, self.channels, rowBytes) = (width, channels, width * channels)
        above = .allocate(capacity: rowBytes)
        row = .allocate(capacity: rowBytes)
    }

    deinit {
        above.deallocate()
        row.deallocate()
    }

    /// Unfilters `count` rows (each a filter byte and `rowBytes`) into RGBA at `out`, 4 × width
    /// bytes a row, which may overlap `rows` beyond the row being written; `endImage`: no row
    /// follows these. False for an unknown filter type.
    func rows(_ rows: UnsafePointer<UInt8>, count: Int, endImage: Bool, into out: UnsafeMutablePointer<UInt8>) -> Bool {
        let stride = rowBytes + 1
        for y in 0..<count {
            let filter = rows[y * stride], filtered = rows + y * stride + 1
            let target = out + y * width * 4
            // A row filtered with None, below which no row reads it (None or Sub; every row of
            // TextReel's frames): expanded straight from the stream, without the scratch copy.
            // Its RGBA ends before the next row's stream begins, and each pixel is written
            // below the bytes it is read from. The last row of a call is kept: the next call's
            // first row may read it.
            if filter == 0 && (y + 1 == count ? endImage : rows[(y + 1) * stride] <= 1) {
                if channels == 4 { memmove(target, filtered, rowBytes) } else { Self.expandRGB(filtered, to: target, width: width) }
                continue
            }
            if (2...4).contains(filter) && !aboveIsSet { above.initialize(repeating: 0, count: rowBytes) }
            switch filter {
            case 0:
                row.update(from: filtered, count: rowBytes)
            case 1:
                for i in 0..<channels { row[i] = filtered[i] }
                for i in channels..<rowBytes { row[i] = filtered[i] &+ row[i - channels] }
            case 2:
                for i in 0..<rowBytes { row[i] = filtered[i] &+ above[i] }
            case 3:
                for i in 0..<channels { row[i] = filtered[i] &+ above[i] >> 1 }
                for i in channels..<rowBytes { row[i] = filtered[i] &+ UInt8((Int(row[i - channels]) + Int(above[i])) >> 1) }
            case 4:
                // With no left neighbour, Paeth predicts the byte above.
                for i in 0..<channels { row[i] = filtered[i] &+ above[i] }
                for i in channels..<rowBytes {
                    let a = Int(row[i - channels]), b = Int(above[i]), c = Int(above[i - channels])
                    let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                    row[i] = filtered[i] &+ UInt8(pa <= pb && pa <= pc ? a : pb <= pc ? b : c)
                }
            default:
                return false
            }
            if channels == 4 {
                target.update(from: row, count: rowBytes)
            } else {
                Self.expandRGB(row, to: target, width: width)
            }
            swap(&above, &row)
            aboveIsSet = true
        }
        return true
    }

    /// RGB to opaque RGBA, a pixel a 32-bit load and store (the last pixel byte by byte, so no
    /// load reads past the row).
    @inline(__always)
    private static func expandRGB(_ rgb: UnsafePointer<UInt8>, to rgba: UnsafeMutablePointer<UInt8>, width: Int) {
        let source = UnsafeRawPointer(rgb), target = UnsafeMutableRawPointer(rgba)
        for x in 0..<width - 1 {
            let pixel = UInt32(littleEndian: source.loadUnaligned(fromByteOffset: x * 3, as: UInt32.self))
            target.storeBytes(of: (pixel | 0xFF00_0000).littleEndian, toByteOffset: x * 4, as: UInt32.self)
        }
        let last = width - 1
        rgba[last * 4] = rgb[last * 3]; rgba[last * 4 + 1] = rgb[last * 3 + 1]; rgba[last * 4 + 2] = rgb[last * 3 + 2]; rgba[last * 4 + 3] = 255
    }
}
