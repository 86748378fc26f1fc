import CCompress
import Foundation
import Synchronization

/// The streams ISA-L's stateless igzip compresses with, each placed where its address cannot
/// change a byte of what it writes.
///
/// ISA-L's level-1 body (`isal_deflate_icf_body_hash_hist_*`, 2.30 and since) writes a
/// stream's first byte by hashing a register it never loaded there: `rcx`, which still holds
/// the stream's address. The third byte of the input is entered in the hash table at a slot
/// made from bits 16–47 of that address, so a later match is sometimes found or missed
/// according to where the stream lay: valid deflate either way, the same pixels, other bytes.
/// A stream on a thread's stack or the heap made a frame's bytes depend on which thread
/// compressed it and what the heap held (about one band in 1,600 of a scroll under load).
/// Every stream here lies in a 64 KB block whose number hashes (CRC-32C, as the instruction
/// does) to the same low 13 bits, the largest level-1 hash mask, so that slot is the same
/// for every stream in every process.
///
/// Each stream keeps its own level buffer (ISA-L's hash table, histogram and intermediate
/// tokens) beside it, not cleared between uses: a stateless compression resets the hash table
/// and histogram itself and writes the tokens before reading them, and a fresh 282 KB buffer
/// for every band was a memset and 70 page faults each time.
final class ISALStreams: Sendable {
    /// The streams every compression uses.
    static let shared = ISALStreams(slot: 0)

    /// The level-1 hash table's largest mask (`IGZIP_LVL1_HASH_SIZE - 1`).
    static let hashMask: UInt32 = 8191
    /// The slot every stream's block number hashes to (any value up to `hashMask` would do;
    /// tests make others).
    let slot: UInt32

    init(slot: UInt32) { self.slot = slot & Self.hashMask }

    /// Streams not in use, as addresses (a pointer is not `Sendable`).
    private let idle = Mutex<[UInt]>([])

    /// `body` with a stream of its own at compression `level` (0–3): zeroed, as
    /// `isal_deflate_stateless_init` leaves it, with its level buffer set.
    func withStream<R>(level: Int32, _ body: (UnsafeMutablePointer<isal_zstream>) throws -> R) throws -> R {
        let address = try idle.withLock { $0.popLast() } ?? place()
        defer { idle.withLock { $0.append(address) } }
        let stream = UnsafeMutablePointer<isal_zstream>(bitPattern: address)!
        memset(stream, 0, MemoryLayout<isal_zstream>.size)
        isal_deflate_stateless_init(stream)
        stream.pointee.level = UInt32(level)
        stream.pointee.level_buf = UnsafeMutablePointer(bitPattern: address + UInt(Self.streamBytes))
        stream.pointee.level_buf_size = textreel_isal_level_buffer_size(level)
        return try body(stream)
    }

    /// A stream's share of its mapping, in whole 64 KB blocks; its level buffer follows.
    private static let streamBytes = (MemoryLayout<isal_zstream>.size + 0xFFFF) & ~0xFFFF
    /// A stream and a level buffer large enough for any level.
    private static let mappingBytes = streamBytes + Int((0...3).map { textreel_isal_level_buffer_size($0) }.max()!)

    /// The hash the level-1 body makes of four bytes, or of its leftover register: CRC-32C of
    /// the low 32 bits, from 0, without the checksum's inversions (the `crc32` instruction's).
    static func hash(_ word: UInt64) -> UInt32 {
        var crc = UInt32(truncatingIfNeeded: word)
        for _ in 0..<32 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
        return crc
    }

    /// The slot a stream at `address` enters the third byte of its input at.
    static func slot(ofStreamAt address: UInt) -> UInt32 {
        slot(ofBlock: UInt64(address) >> 16)
    }

    /// The slot of a stream at the start of 64 KB block number `block`.
    private static func slot(ofBlock block: UInt64) -> UInt32 { hash(block) & hashMask }

    /// A new zeroed stream (and its level buffer) at the start of a 64 KB block that hashes to
    /// `slot`: blocks below where the kernel puts mappings are asked for one by one (about one in
    /// 8,192 qualifies).
    private func place() throws -> UInt {
        let size = Self.mappingBytes
        let prot = PROT_READ | PROT_WRITE, flags = MAP_PRIVATE | MAP_ANONYMOUS
        guard let probe = mmap(nil, size, prot, flags, -1, 0), probe != MAP_FAILED else {
            throw TextReelError("out of memory for PNG compression")
        }
        munmap(probe, size)
        var block = UInt64(UInt(bitPattern: probe)) >> 16
        var asked = 0
        while block > 0x100 && asked < 64 {
            block -= 1
            guard Self.slot(ofBlock: block) == slot else { continue }
            asked += 1
            let wanted = UnsafeMutableRawPointer(bitPattern: UInt(block << 16))
            guard let got = mmap(wanted, size, prot, flags, -1, 0), got != MAP_FAILED else { continue }
            if got == wanted { return UInt(bitPattern: got) }
            munmap(got, size)   // the block was taken: the kernel put it elsewhere
        }
        throw TextReelError("no room for a PNG compression stream at a fixed hash")
    }
}
