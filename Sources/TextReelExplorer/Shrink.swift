import Foundation

/// Simpler numbers for shrinking: the floor, and halfway towards it (to 3 decimals).
enum Shrink {
    static func candidates(_ value: Double, floor: Double = 0) -> [Double] {
        var out: [Double] = []
        for candidate in [floor, (value + floor) / 2] {
            let simpler = (candidate * 1000).rounded(.towardZero) / 1000
            guard simpler != value, abs(simpler - floor) <= abs(value - floor), !out.contains(simpler) else { continue }
            out.append(simpler)
        }
        return out
    }

    /// The same for whole numbers (indices, offsets).
    static func candidates(_ value: Int, floor: Int = 0) -> [Int] {
        var out: [Int] = []
        for simpler in [floor, floor + (value - floor) / 2] where simpler != value && !out.contains(simpler) { out.append(simpler) }
        return out
    }
}
