import Foundation

/// Whether bytes are UTF-8 text as the reader takes it: valid UTF-8 with no NUL. From the
/// standard library's validation (`UTF8Span`, several GB/s on ASCII), so reading a document
/// needs no C library for it.
package enum UTF8Text {
    /// The offset of the first byte that is not text (the start of an invalid sequence, or a
    /// NUL), nil when every byte is.
    package static func firstInvalidByte(in raw: UnsafeRawBufferPointer) -> Int? {
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

    /// Whether `text` holds `byte`: memchr over a native string's bytes (the generic
    /// `utf8.contains` steps a byte at a time, a sixth of reading a paragraph's Markdown).
    package static func contains(_ byte: UInt8, in text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { contains(byte, in: UnsafeRawBufferPointer($0)) } ?? text.utf8.contains(byte)
    }

    /// Whether `bytes` hold `byte`, by memchr.
    package static func contains(_ byte: UInt8, in bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return false }
        return memchr(base, Int32(byte), bytes.count) != nil
    }
}
