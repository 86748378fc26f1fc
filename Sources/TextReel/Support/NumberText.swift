import Foundation

/// The one way numbers are written for people: in messages, script and case files, layout
/// snapshots. A whole number has no ".0"; any other has `decimals` places, or Swift's shortest
/// form when nil; with `roundingFirst` a number that rounds to a whole one at those places is
/// written whole (24.02 at one decimal is "24"). Huge and non-finite numbers are written as Swift
/// prints them, never through an Int conversion that would trap.
public enum NumberText {
    /// Whether `value` is a whole number of at most six digits in `range` (for kinds' `trusts`).
    public static func isWholeNumber(_ value: String, in range: ClosedRange<Int>) -> Bool {
        value.utf8.count <= 6 && !value.isEmpty && value.utf8.allSatisfy { (0x30...0x39).contains($0) } && range.contains(Int(value)!)
    }

    /// `value` as people read it: whole numbers without ".0", others at `decimals` places (nil: shortest).
    public static func text(_ value: Double, decimals: Int? = nil, roundingFirst: Bool = false) -> String {
        guard value.isFinite, abs(value) < 1e15 else { return "\(value)" }
        var value = value
        if roundingFirst, let decimals {
            let k = pow(10, Double(decimals))
            value = (value * k).rounded() / k
        }
        if value == value.rounded() { return String(Int(value)) }
        guard let decimals else { return "\(value)".replacingOccurrences(of: ".0e", with: "e") }
        return String(format: "%.\(decimals)f", value)
    }

    /// As script files write numbers (the explorer's, shrunk): at most three decimals, no
    /// trailing zeros.
    static func script(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e15 else { return "\(value)" }
        return text((value * 1000).rounded() / 1000)
    }
}
