/// A stable 64-bit hash of a string (FNV-1a), so derived colours, strokes and cache folder names
/// never depend on Swift's per-process hash seed. Written by hand: it is a few lines.
public enum StableHash {
    /// The hash of `string`'s UTF-8 bytes.
    public static func of(_ string: String) -> UInt64 {
        string.utf8.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 }
    }

    /// The same hash of UTF-8 bytes.
    public static func of(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        bytes.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 }
    }
}
