import CCompress
import Foundation
import Synchronization

/// How frames are compressed. Every mode is deterministic: the same frame gives the same bytes.
public enum PNGCompression: String, Sendable, CaseIterable {
    /// ISA-L's igzip at level 1: about ten times faster than zlib, files a little larger.
    case fast
    /// libdeflate at level 9, rows unfiltered or Up-filtered, whichever is smaller: the smallest
    /// files at a bounded cost (level 12 is a few percent smaller and ten times slower).
    case small
    /// Stored deflate blocks (no compression): the largest files, the least work.
    case none
}

/// Writes an opaque frame as an 8-bit RGB PNG: IHDR, one IDAT holding a zlib stream of the
/// filtered rows, IEND, each chunk with its CRC-32. The chunk layout is the PNG specification's
/// and small enough to write by hand; the compression is the libraries' (ISA-L, libdeflate, zlib).
public enum PNGWriter {
    /// Recorded in golden fingerprints: the writer and its default mode's compressor.
    public static let encoderDescription = "TextReel PNGWriter 2 (RGB, filter None, ISA-L igzip level 1 in bands)"

    /// The fast mode: compressed band by band (see `FrameBands`); only the rows of bands not
    /// kept are read, so the others need not be drawn.
    static func encode(_ surface: CairoSurface, bands: FrameBands) throws -> Data {
        png(stream: try bandedStream(surface, bands), width: surface.width, height: surface.height, colorType: 2)
    }

    /// The other modes: the rows compressed whole.
    static func encode(_ surface: CairoSurface, compression: PNGCompression) throws -> Data {
        precondition(compression != .fast, "the fast mode is banded: encode(_:bands:)")
        return try encode(rows: rgbRows(surface), width: surface.width, height: surface.height, colorType: 2, compression: compression)
    }

    /// The zlib stream of the frame's rows, band by band: each band a raw deflate piece by ISA-L
    /// ended by a full flush (the kept piece when the plan found one), then an empty final
    /// block, and the Adler-32 of the whole combined from the pieces'. Only the rows of bands
    /// compressed here are converted to RGB.
    static func bandedStream(_ surface: CairoSurface, _ plan: FrameBands) throws -> [UInt8] {
        let pieces = try plan.bands.map { band in
            if let kept = band.kept { return kept }
            let piece = try rgbRows(surface, band.rows).withUnsafeBufferPointer { try DeflatePiece($0, level: 1, final: false) }
            if let key = band.key { plan.cache?.store(piece, for: key) }
            return piece
        }
        return zlibStream(joining: pieces, lastIsFinal: false)
    }

    /// Input compressed by ISA-L as a raw deflate piece ended on a byte boundary (a full flush,
    /// unless `final`), with what joining it to others needs: the input's Adler-32 and length.
    struct DeflatePiece: Sendable {
        let stream: [UInt8]
        let adler: UInt32
        let length: Int

        init(_ input: UnsafeBufferPointer<UInt8>, level: Int32, final: Bool, streams: ISALStreams = .shared) throws {
            stream = try isal(input, level: level, format: UInt16(IGZIP_DEFLATE), final: final, streams: streams)
            adler = UInt32(isal_adler32(1, input.baseAddress, UInt64(input.count)))
            length = input.count
        }
    }

    /// One zlib stream of raw deflate pieces, each ended on a byte boundary, behind the zlib
    /// header, with the Adler-32 of the whole combined from the pieces' (zlib's
    /// `adler32_combine`). When the last piece is not final, an empty final block ends it.
    private static func zlibStream(joining pieces: [DeflatePiece], lastIsFinal: Bool) -> [UInt8] {
        var stream: [UInt8] = [0x78, 0x01]   // zlib: deflate, 32 KB window, no dictionary
        stream.reserveCapacity(pieces.reduce(8) { $0 + $1.stream.count })
        var adler: uLong = 1
        for (k, piece) in pieces.enumerated() {
            stream += piece.stream
            adler = k == 0 ? uLong(piece.adler) : adler32_combine(adler, uLong(piece.adler), off_t(piece.length))
        }
        if !lastIsFinal { stream += [0x03, 0x00] }   // an empty final block (fixed Huffman codes)
        stream.append(bigEndian: UInt32(adler))
        return stream
    }

    /// The surface's scanlines `rows` (all by default) as RGB, each led by filter byte None.
    static func rgbRows(_ surface: CairoSurface, _ rows: Range<Int>? = nil) -> [UInt8] {
        let rows = rows ?? 0..<surface.height, width = surface.width
        let rowBytes = 1 + width * 3
        // Every byte is written below: no need to zero a megabyte first.
        return [UInt8](unsafeUninitializedCapacity: rowBytes * rows.count) { out, count in
            surface.withPixels { data, stride in
                let out = out.baseAddress!
                for (n, y) in rows.enumerated() {
                    out[n * rowBytes] = 0   // filter type None
                    RowConversion.bgrxToRGB(data + y * stride, out + n * rowBytes + 1, count: width)
                }
            }
            count = rowBytes * rows.count
        }
    }

    /// Straight RGBA pixels (4 bytes each, row after row) as an RGBA PNG.
    public static func encodeRGBA(_ pixels: [UInt8], width: Int, height: Int, compression: PNGCompression = .fast) throws -> Data {
        try pixels.withUnsafeBytes { p in
            let source = UncheckedPointer(UnsafeMutableRawPointer(mutating: p.baseAddress!))
            return try encodeRGBA(width: width, height: height, compression: compression) { rows, out, stride in
                for (k, y) in rows.enumerated() {
                    (out + k * stride).copyMemory(from: source.pointer + y * width * 4, byteCount: width * 4)
                }
                return true
            }
        }
    }

    /// An RGBA PNG whose rows are made while it is compressed: `rows(range, out, stride)` writes
    /// the straight RGBA pixels of rows `range`, row y at `out + (y - range.lowerBound) * stride`,
    /// and touches nothing between them; it is called for several ranges at once, on several
    /// threads. A large image is compressed in pieces of whole rows on every core, each piece's
    /// rows made into a buffer of its own (reused by the next piece), so the image itself is never
    /// held: a 4000 × 3000 diff image would be 48 MB of fresh memory, which the kernel zeroes.
    /// The pieces depend on the width alone, never on the cores. The ranges are contiguous, not
    /// empty, and handed out from the top in increasing order as threads claim them (a diff
    /// decoding its images as it goes relies on it). `rows` returns false when the
    /// rows cannot be made (their source is damaged): no more are asked for, and `RowsUnavailable`
    /// is thrown.
    public static func encodeRGBA(width: Int, height: Int, compression: PNGCompression = .fast,
                                  rows: @Sendable (Range<Int>, UnsafeMutableRawPointer, Int) -> Bool) throws -> Data {
        let rowBytes = 1 + width * 4, total = rowBytes * height
        /// Scanlines `range` into `out`: each led by filter byte None.
        @Sendable func scanlines(_ range: Range<Int>, _ out: UnsafeMutablePointer<UInt8>) -> Bool {
            guard rows(range, UnsafeMutableRawPointer(out + 1), rowBytes) else { return false }
            for k in 0..<range.count { out[k * rowBytes] = 0 }
            return true
        }
        let stream: [UInt8]
        // Pieces of whole rows, so a scanline longer than a piece (over a million pixels wide) is compressed whole.
        if compression == .fast && total >= 2 * isalPieceBytes && rowBytes <= isalPieceBytes {
            let pieceRows = isalPieceBytes / rowBytes
            stream = try isalInPieces(count: total, pieceBytes: pieceRows * rowBytes) { range, out in
                scanlines(range.lowerBound / rowBytes..<range.upperBound / rowBytes, out)
            }
        } else {
            // The rows are still made in bands on every core (a diff image's comparison is its rows).
            let made = Atomic(true)
            let rows = [UInt8](largeBufferOf: total) { buffer in
                let bands = max(1, min(height, ProcessInfo.processInfo.activeProcessorCount * 4))
                let out = UncheckedPointer(UnsafeMutableRawPointer(buffer))
                DispatchQueue.concurrentPerform(iterations: bands) { band in
                    let range = (height * band / bands)..<(height * (band + 1) / bands)
                    if made.load(ordering: .relaxed) && !scanlines(range, out.pointer.assumingMemoryBound(to: UInt8.self) + range.lowerBound * rowBytes) {
                        made.store(false, ordering: .relaxed)
                    }
                }
            }
            guard made.load(ordering: .relaxed) else { throw RowsUnavailable() }
            stream = try self.stream(rows, height: height, compression: compression)
        }
        return png(stream: stream, width: width, height: height, colorType: 6)
    }

    /// What `encodeRGBA(width:height:rows:)` throws when its rows cannot be made.
    public struct RowsUnavailable: Error {}

    /// A pointer handed to the bands' threads, each of which reads or writes only its own rows.
    private struct UncheckedPointer: @unchecked Sendable {
        let pointer: UnsafeMutableRawPointer
        init(_ pointer: UnsafeMutableRawPointer) { self.pointer = pointer }
    }

    /// `rows` are the scanlines, each led by its filter byte (0: None).
    private static func encode(rows: [UInt8], width: Int, height: Int, colorType: UInt8, compression: PNGCompression) throws -> Data {
        png(stream: try stream(rows, height: height, compression: compression), width: width, height: height, colorType: colorType)
    }

    /// The file: signature, header, the zlib stream of the rows as one IDAT chunk, IEND.
    private static func png(stream: [UInt8], width: Int, height: Int, colorType: UInt8) -> Data {
        var png = start(width: width, height: height, colorType: colorType)
        png.reserveCapacity(stream.count + 64)
        appendChunk("IDAT", stream, to: &png)
        appendChunk("IEND", [], to: &png)
        return png
    }

    /// The zlib stream of `rows` (scanlines led by their filter bytes) in `compression`'s way.
    static func stream(_ rows: [UInt8], height: Int, compression: PNGCompression) throws -> [UInt8] {
        switch compression {
        case .fast:
            return try isal(rows, level: 1)
        case .none:
            return try zlibStored(rows)
        case .small:
            let plain = try libdeflate(rows, level: 9)
            let up = try libdeflate(upFiltered(rows, rowBytes: rows.count / max(height, 1)), level: 9)
            return up.count < plain.count ? up : plain
        }
    }

    /// The signature and the header chunk.
    static func start(width: Int, height: Int, colorType: UInt8) -> Data {
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var header = [UInt8]()
        header.append(bigEndian: UInt32(width))
        header.append(bigEndian: UInt32(height))
        header += [8, colorType, 0, 0, 0]   // 8 bits, RGB or RGBA, deflate, adaptive filtering, no interlace
        appendChunk("IHDR", header, to: &png)
        return png
    }

    static func appendChunk(_ type: String, _ body: [UInt8], to png: inout Data) {
        var length = [UInt8]()
        length.append(bigEndian: UInt32(body.count))
        png.append(contentsOf: length)
        let typeBytes = Array(type.utf8)
        png.append(contentsOf: typeBytes)
        png.append(contentsOf: body)
        // ISA-L's CRC-32 (the gzip and PNG polynomial, chained as zlib's is), several times zlib's speed.
        var crc = crc32_gzip_refl(0, typeBytes, UInt64(typeBytes.count))
        crc = body.withUnsafeBufferPointer { crc32_gzip_refl(crc, $0.baseAddress, UInt64($0.count)) }
        var tail = [UInt8]()
        tail.append(bigEndian: UInt32(crc))
        png.append(contentsOf: tail)
    }

    /// Rows with filter type Up (2): each byte minus the byte above it.
    private static func upFiltered(_ rows: [UInt8], rowBytes: Int) -> [UInt8] {
        var out = rows
        let height = rows.count / rowBytes
        out.withUnsafeMutableBufferPointer { o in
            rows.withUnsafeBufferPointer { r in
                for y in stride(from: height - 1, through: 0, by: -1) {
                    let row = y * rowBytes
                    o[row] = 2
                    guard y > 0 else { continue }
                    for x in 1..<rowBytes { o[row + x] = r[row + x] &- r[row - rowBytes + x] }
                }
            }
        }
        return out
    }

    /// The most input a piece of `isalInPieces` compresses: fixed, so the bytes never depend on the
    /// number of cores. A megabyte: a piece's rows (and a diff's band of both images) stay in
    /// the cores' caches, and the buffers made for them are few pages to fault in.
    static let isalPieceBytes = 1 << 20

    /// One zlib stream compressed as pigz does, in pieces of `isalPieceBytes` on every core: each
    /// piece a raw deflate stream by ISA-L ended on a byte boundary (a full flush; the last one
    /// final), behind the zlib header, with the Adler-32 of the whole (zlib combines the pieces')
    /// after them. A piece refers to nothing before it, which costs a few bytes.
    static func isalInPieces(count total: Int, pieceBytes: Int = isalPieceBytes,
                             fill: @Sendable (Range<Int>, UnsafeMutablePointer<UInt8>) -> Bool) throws -> [UInt8] {
        precondition(pieceBytes <= isalPieceBytes)
        let count = (total + pieceBytes - 1) / pieceBytes
        /// Each piece's result, written by its own only.
        final class Pieces: @unchecked Sendable {
            var results: [Result<DeflatePiece, Error>?]
            init(_ count: Int) { results = Array(repeating: nil, count: count) }
        }
        let pieces = Pieces(count)
        // A piece's input buffer is handed on to the next piece: as many are made as run at
        // once, not one per piece (fresh memory is zeroed by the kernel: 48 MB of it cost more
        // than copying the rows).
        let spare = Mutex<[[UInt8]]>([])
        // Once a piece's rows cannot be made, the pieces after it are not begun.
        let made = Atomic(true)
        DispatchQueue.concurrentPerform(iterations: count) { k in
            let range = k * pieceBytes..<min(total, (k + 1) * pieceBytes)
            guard made.load(ordering: .relaxed) else { pieces.results[k] = .failure(RowsUnavailable()); return }
            var input = spare.withLock { $0.popLast() } ?? [UInt8](unsafeUninitializedCapacity: isalPieceBytes) { $1 = $0.count }
            pieces.results[k] = input.withUnsafeMutableBufferPointer { buffer in
                guard fill(range, buffer.baseAddress!) else {
                    made.store(false, ordering: .relaxed)
                    return .failure(RowsUnavailable())
                }
                return Result { try DeflatePiece(UnsafeBufferPointer(rebasing: buffer[..<range.count]), level: 1, final: k == count - 1) }
            }
            spare.withLock { $0.append(input) }
        }
        return zlibStream(joining: try pieces.results.map { try $0!.get() }, lastIsFinal: true)
    }

    /// A zlib stream by ISA-L's stateless igzip.
    private static func isal(_ input: [UInt8], level: Int32) throws -> [UInt8] {
        try input.withUnsafeBufferPointer { try isal($0, level: level, format: UInt16(IGZIP_ZLIB), final: true) }
    }

    /// Compressed by ISA-L's stateless igzip: a zlib stream, or a raw deflate piece (`final`
    /// false: ended by a full flush on a byte boundary, so another can follow it).
    private static func isal(_ input: UnsafeBufferPointer<UInt8>, level: Int32, format: UInt16, final: Bool,
                             streams: ISALStreams = .shared) throws -> [UInt8] {
        // The output is written before it is read, so it is left uninitialised; the stream and
        // its level buffer are one of `ISALStreams`, whose addresses cannot change the bytes.
        var output = [UInt8](unsafeUninitializedCapacity: input.count + input.count / 16 + 1024) { $1 = $0.count }
        var produced = 0
        let status = try output.withUnsafeMutableBufferPointer { out in
            try streams.withStream(level: level) { s in
                s.pointee.gzip_flag = format
                s.pointee.end_of_stream = final ? 1 : 0
                s.pointee.flush = UInt16(final ? NO_FLUSH : FULL_FLUSH)
                s.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                s.pointee.avail_in = UInt32(input.count)
                s.pointee.next_out = out.baseAddress
                s.pointee.avail_out = UInt32(out.count)
                let result = isal_deflate_stateless(s)
                produced = Int(s.pointee.total_out)
                return result
            }
        }
        guard status == COMP_OK else {
            // Incompressible input can overflow the guess: stored blocks always fit (zlib's, as a
            // whole stream or as a piece).
            if status == STATELESS_OVERFLOW {
                return try zlibStored(input, raw: format != UInt16(IGZIP_ZLIB), final: final)
            }
            throw TextReelError("PNG compression failed (ISA-L status \(status))")
        }
        return Array(output.prefix(produced))
    }

    /// A zlib stream by libdeflate (levels 1–12).
    private static func libdeflate(_ input: [UInt8], level: Int32) throws -> [UInt8] {
        guard let compressor = libdeflate_alloc_compressor(level) else { throw TextReelError("out of memory for PNG compression") }
        defer { libdeflate_free_compressor(compressor) }
        let bound = libdeflate_zlib_compress_bound(compressor, input.count)
        var output = [UInt8](repeating: 0, count: bound)
        let size = input.withUnsafeBytes { inp in
            output.withUnsafeMutableBytes { libdeflate_zlib_compress(compressor, inp.baseAddress, inp.count, $0.baseAddress, $0.count) }
        }
        guard size > 0 else { throw TextReelError("PNG compression failed (libdeflate)") }
        return Array(output.prefix(size))
    }

    /// A zlib stream of stored blocks, by zlib at level 0.
    private static func zlibStored(_ input: [UInt8]) throws -> [UInt8] {
        try input.withUnsafeBufferPointer { try zlibStored($0, raw: false, final: true) }
    }

    /// Stored blocks by zlib at level 0: a zlib stream, or a raw deflate piece (`final` false:
    /// ended by a full flush, so another can follow it).
    private static func zlibStored(_ input: UnsafeBufferPointer<UInt8>, raw: Bool, final: Bool) throws -> [UInt8] {
        var z = z_stream()
        guard deflateInit2_(&z, 0, Z_DEFLATED, raw ? -15 : 15, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw TextReelError("PNG compression failed (zlib could not start)")
        }
        defer { deflateEnd(&z) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&z, uLong(input.count))) + 16)
        let status = output.withUnsafeMutableBufferPointer { out -> Int32 in
            z.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            z.avail_in = uInt(input.count)
            z.next_out = out.baseAddress
            z.avail_out = uInt(out.count)
            return deflate(&z, final ? Z_FINISH : Z_FULL_FLUSH)
        }
        guard status == (final ? Z_STREAM_END : Z_OK) else { throw TextReelError("PNG compression failed (zlib status \(status))") }
        return Array(output.prefix(Int(z.total_out)))
    }
}

/// The one conversion from Cairo's pixels to RGB bytes: RGB24 is B, G, R, x in memory on
/// little-endian machines.
enum RowConversion {
    @inline(__always)
    static func bgrxToRGB(_ source: UnsafePointer<UInt8>, _ target: UnsafeMutablePointer<UInt8>, count: Int) {
        // Four pixels at a time: four 32-bit loads, three 32-bit stores. On little-endian
        // machines a pixel's bytes are B, G, R, x; `byteSwapped >> 8` leaves R, G, B, 0, and the
        // three words are those twelve bytes packed.
        let pixels = UnsafeRawPointer(source), out = UnsafeMutableRawPointer(target)
        var i = 0
        while i + 4 <= count {
            let q0 = pixels.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self).byteSwapped >> 8
            let q1 = pixels.loadUnaligned(fromByteOffset: i * 4 + 4, as: UInt32.self).byteSwapped >> 8
            let q2 = pixels.loadUnaligned(fromByteOffset: i * 4 + 8, as: UInt32.self).byteSwapped >> 8
            let q3 = pixels.loadUnaligned(fromByteOffset: i * 4 + 12, as: UInt32.self).byteSwapped >> 8
            out.storeBytes(of: (q0 | q1 << 24).littleEndian, toByteOffset: i * 3, as: UInt32.self)
            out.storeBytes(of: (q1 >> 8 | q2 << 16).littleEndian, toByteOffset: i * 3 + 4, as: UInt32.self)
            out.storeBytes(of: (q2 >> 16 | q3 << 8).littleEndian, toByteOffset: i * 3 + 8, as: UInt32.self)
            i += 4
        }
        var t = target + i * 3
        while i < count {
            let p = pixels.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self)
            t[0] = UInt8(truncatingIfNeeded: p >> 16); t[1] = UInt8(truncatingIfNeeded: p >> 8); t[2] = UInt8(truncatingIfNeeded: p)
            t += 3
            i += 1
        }
    }
}

extension Array where Element == UInt8 {
    mutating func append(bigEndian value: UInt32) {
        append(UInt8(value >> 24)); append(UInt8(value >> 16 & 0xFF)); append(UInt8(value >> 8 & 0xFF)); append(UInt8(value & 0xFF))
    }
}
