import Foundation
import TextReel

extension FlingStep: ExplorableStep {
    public var simplifications: [any ScriptStep] {
        Shrink.candidates(velocity).map { FlingStep(velocity: $0, deceleration: deceleration) }
    }

    public static let generatorWeight = 1

    public static func generate(_ choice: Int, _ g: inout ScriptGenerator) -> [any ScriptStep]? {
        let velocity = g.round((g.unit() * 2 - 1) * 8000)
        return [FlingStep(velocity: velocity, deceleration: g.below(2) == 0 ? .normal : .fast)]
    }
}
