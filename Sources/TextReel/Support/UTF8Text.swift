import Foundation

/// Whether bytes are UTF-8 text as the reader takes it: valid UTF-8 with no NUL. From the
/// standard library's validation (`UTF8Span`, several GB/s on ASCII), so reading a document
/// needs no C library for it.
enum UTF8Text {
    /// The offset of the first byte that is not text (the start of an invalid sequence, or a
    /// NUL), nil when every byte is.
    static func firstInvalidByte(in raw: UnsafeRawBufferPointer) -> Int? {
        guard let base = raw.baseAddress, !raw.isEmpty else { return nil }
        let nul = memchr(base, 0, raw.count).map { base.distance(to: UnsafeRawPointer($0)) }
        let bytes = raw.assumingMemoryBound(to: UInt8.self)
        do {
            _ = try UTF8Span(validating: bytes.span)
            return nul
        } catch {
            return min(error.byteOffsets.lowerBound, nul ?? .max)
        }
    }
}
