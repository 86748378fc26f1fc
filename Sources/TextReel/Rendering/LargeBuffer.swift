import Glibc

extension Array where Element == UInt8 {
    /// Bytes left uninitialised until `initializer` writes them, backed by 2 MB pages where the
    /// kernel gives them on request (transparent huge pages in `madvise` mode). A fresh 48 MB
    /// buffer (one 4000 × 3000 image) otherwise costs 12,000 page faults of 4 KB: in a virtual
    /// machine they were a third of `textreel diff`'s time. `capacity` may exceed `count` (room to
    /// work in); `initializer` must write the first `count` bytes.
    public init(largeBufferOf count: Int, capacity: Int? = nil, _ initializer: (UnsafeMutablePointer<UInt8>) throws -> Void) rethrows {
        // At least one byte, so there is always a base address.
        try self.init(unsafeUninitializedCapacity: Swift.max(count, capacity ?? 0, 1)) { buffer, initialized in
            Self.adviseHugePages(buffer.baseAddress!, buffer.count)
            try initializer(buffer.baseAddress!)
            initialized = count
        }
    }

    /// Asks for huge pages on the 2 MB-aligned part of the range (no effect on smaller buffers,
    /// and none where the kernel has no such pages: the advice is only advice).
    private static func adviseHugePages(_ base: UnsafeMutablePointer<UInt8>, _ count: Int) {
        let huge = 2 << 20
        let start = (Int(bitPattern: base) + huge - 1) & ~(huge - 1)
        let end = (Int(bitPattern: base) + count) & ~(huge - 1)
        guard end > start, let pointer = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(pointer, end - start, MADV_HUGEPAGE)
    }
}
