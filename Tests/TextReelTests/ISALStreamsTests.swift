import XCTest
@testable import TextReel

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
        let second = try streams.withStream { held in
            addresses.insert(UInt(bitPattern: held))
            return try piece(streams)
        }
        try streams.withStream { a in try streams.withStream { b in addresses.formUnion([UInt(bitPattern: a), UInt(bitPattern: b)]) } }
        XCTAssertEqual(addresses.count, 2, "the pool placed two streams")
        for address in addresses {
            XCTAssertEqual(ISALStreams.slot(ofStreamAt: address), 1234, "a stream lies in a block that hashes to the pool's slot")
        }
        XCTAssertEqual(try piece(streams), second, "the first stream gives the bytes the second gave")
    }
}
