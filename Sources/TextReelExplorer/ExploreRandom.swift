import Foundation
import TextReel

/// The explorer's random choices, as attachment kinds draw them.
public struct ExploreRandom {
    var random: SplitMix
    init(_ random: SplitMix) { self.random = random }

    /// 0 ..< n (0 when n ≤ 0).
    public mutating func below(_ n: Int) -> Int { n <= 0 ? 0 : Int(random.next() % UInt64(n)) }
    /// 0 ..< 1.
    public mutating func unit() -> Double { Double(random.next() >> 11) / Double(1 << 53) }
    /// 64 random bits.
    public mutating func next() -> UInt64 { random.next() }
}
