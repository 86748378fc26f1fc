import XCTest
@testable import TextReel
@testable import TextReelMarkdown

/// ISA-L's level-1 body enters the third byte of an input at a hash slot made from its stream's
/// address; the streams are placed so that slot is the same wherever they lie, and a frame's
/// bytes never depend on which thread compressed it or what the heap held.
final class ISALStreamsTests: XCTestCase {
    /// Five white rows of an RGB frame 375 pixels wide, each led by its filter byte: whether the
    /// third byte is entered where the fourth looks decides the distance of the first match
    /// (the case a render found differing between runs).
    private let whiteRows: [UInt8] = Array(repeating: [0] + [UInt8](repeating: 0xFF, count: 1125), count: 5).flatMap { $0 }

    private func piece(_ streams: ISALStreams) throws -> [UInt8] {
        try whiteRows.withUnsafeBufferPointer { try PNGWriter.DeflatePiece($0, level: 1, final: false, streams: streams).stream }
    }

    func testTheStreamsSlotDecidesTheBytes() throws {
        let third = whiteRows.withUnsafeBytes { UInt64($0.loadUnaligned(fromByteOffset: 2, as: UInt32.self)) }
        let slot = ISALStreams.hash(third) & ISALStreams.hashMask
        XCTAssertNotEqual(try piece(ISALStreams(slot: slot)), try piece(ISALStreams(slot: slot ^ 1)),
                          "where the stream lies changes ISA-L's bytes (if not, ISA-L no longer reads the stream's address)")
    }

    func testStreamsAtTwoAddressesGiveTheSameBytes() throws {
        let streams = ISALStreams(slot: 1234)
        var addresses: Set<UInt> = []
        // While one stream is held, a compression makes the pool place a second.
        let second = try streams.withStream(level: 1) { held in
            addresses.insert(UInt(bitPattern: held))
            return try piece(streams)
        }
        try streams.withStream(level: 1) { a in try streams.withStream(level: 1) { b in addresses.formUnion([UInt(bitPattern: a), UInt(bitPattern: b)]) } }
        XCTAssertEqual(addresses.count, 2, "the pool placed two streams")
        for address in addresses {
            XCTAssertEqual(ISALStreams.slot(ofStreamAt: address), 1234, "a stream lies in a block that hashes to the pool's slot")
        }
        XCTAssertEqual(try piece(streams), second, "the first stream gives the bytes the second gave")
    }

    /// A level buffer is not cleared between compressions: what an earlier input, or any bytes
    /// at all, left in it must not change what the next one writes.
    func testALevelBuffersEarlierContentsChangeNoByte() throws {
        let fresh = try piece(ISALStreams(slot: 77))
        let streams = ISALStreams(slot: 77)
        var noise: UInt64 = 0x9E37_79B9_7F4A_7C15
        for size in [40_000, 7, 300_000, 1126] {
            let input = (0..<size).map { i -> UInt8 in
                noise = noise &* 6364136223846793005 &+ 1442695040888963407
                return i % 3 == 0 ? UInt8(truncatingIfNeeded: noise >> 59) : 0xFF
            }
            _ = try input.withUnsafeBufferPointer { try PNGWriter.DeflatePiece($0, level: 1, final: false, streams: streams) }
        }
        XCTAssertEqual(try piece(streams), fresh, "after other inputs")
        _ = try streams.withStream(level: 1) { s in
            memset(s.pointee.level_buf, 0xA5, Int(s.pointee.level_buf_size))
        }
        XCTAssertEqual(try piece(streams), fresh, "after the level buffer was filled with other bytes")
    }
}
