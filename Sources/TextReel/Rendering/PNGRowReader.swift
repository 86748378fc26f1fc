import CCompress
import Foundation

/// The rows of a PNG of the fast decoder's kind, decoded in order a few at a time into memory
/// the caller reuses: comparing two 4000 × 3000 images whole touches 96 MB of fresh memory,
/// which the kernel zeroes (a quarter of `textreel diff`'s time). ISA-L inflates the stream as it
/// is asked for more (libdeflate inflates only whole streams); the pixels are the fast decoder's.
public final class PNGRowReader {
    /// The image's size in pixels, from its header.
    public let width: Int, height: Int
    /// Rows decoded so far.
    public private(set) var rowsRead = 0
    /// Set by a read that failed: the reader then never finishes.
    private var failed = false
    private let rowBytes: Int
    /// The IDAT chunks' bodies joined: one zlib stream, which ISA-L keeps pointers into.
    private let stream: UnsafeMutableBufferPointer<UInt8>
    private let unfilter: PNGUnfilter
    /// ISA-L's state (about 90 KB, most of it its window): allocated once the file is known to be
    /// of the kind (a failed initialiser runs no deinit; the fuzzer found the leak).
    private let state: UnsafeMutablePointer<inflate_state>
    /// Filtered rows inflated and not yet unfiltered.
    private var filtered: [UInt8] = []

    /// Nil when the file is not of the fast decoder's kind (libpng's then, which says what is wrong).
    public init?(_ data: Data, maximumPixels: Int) {
        guard let (layout, stream) = data.withUnsafeBytes({ raw -> (PNGFastDecoder.Layout, UnsafeMutableBufferPointer<UInt8>)? in
            let bytes = raw.bindMemory(to: UInt8.self)
            // ISA-L counts its input in 32 bits.
            guard let layout = PNGFastDecoder.Layout(bytes, maximumPixels: maximumPixels), layout.streamCount <= Int(UInt32.max) else { return nil }
            let stream = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, layout.streamCount))
            layout.copyStream(from: bytes, to: stream.baseAddress!)
            return (layout, UnsafeMutableBufferPointer(rebasing: stream[..<layout.streamCount]))
        }) else { return nil }
        (width, height, rowBytes, self.stream) = (layout.width, layout.height, layout.rowBytes, stream)
        unfilter = PNGUnfilter(width: layout.width, channels: layout.channels)
        state = .allocate(capacity: 1)
        isal_inflate_init(state)
        state.pointee.crc_flag = UInt32(ISAL_ZLIB)
        state.pointee.next_in = stream.baseAddress
        state.pointee.avail_in = UInt32(stream.count)
    }

    deinit {
        state.deallocate()
        stream.baseAddress?.deallocate()
    }

    /// Decodes the next `count` rows as RGBA into `out` (4 × width bytes a row); false when the
    /// data is damaged or ends early.
    public func read(_ count: Int, into out: UnsafeMutablePointer<UInt8>) -> Bool {
        guard count > 0 else { return !failed }
        let stride = rowBytes + 1
        guard !failed, rowsRead + count <= height, count * stride <= Int(UInt32.max) else { failed = true; return false }
        if filtered.count < count * stride { filtered = [UInt8](unsafeUninitializedCapacity: count * stride) { $1 = $0.count } }
        let ok = filtered.withUnsafeMutableBufferPointer { buffer in
            inflate(into: buffer.baseAddress!, count: count * stride) == .filled
                && unfilter.rows(buffer.baseAddress!, count: count, endImage: rowsRead + count == height, into: out)
        }
        rowsRead += count
        failed = !ok
        return ok
    }

    /// True when every row was read and the stream ended right after them, its checksum right,
    /// with nothing after it.
    public func finish() -> Bool {
        var extra: UInt8 = 0
        return !failed && rowsRead == height && inflate(into: &extra, count: 1) == .ended && state.pointee.avail_in == 0
    }

    private enum Inflated { case filled, ended, failed }

    /// Inflates `count` bytes into `out`: `.filled`, or `.ended` when the stream ends (ISA-L has
    /// checked its Adler-32) before that.
    private func inflate(into out: UnsafeMutablePointer<UInt8>, count: Int) -> Inflated {
        state.pointee.next_out = out
        state.pointee.avail_out = UInt32(count)
        guard isal_inflate(state) == ISAL_DECOMP_OK else { return .failed }
        if state.pointee.avail_out == 0 { return .filled }
        return state.pointee.block_state == ISAL_BLOCK_FINISH ? .ended : .failed
    }
}
