import Foundation
import TextReel

extension TapStep: ExplorableStep {
    public var simplifications: [any ScriptStep] {
        Shrink.candidates(x).map { TapStep(x: $0, y: y, count: count) } + Shrink.candidates(y).map { TapStep(x: x, y: $0, count: count) }
            + Shrink.candidates(count, floor: 1).map { TapStep(x: x, y: y, count: $0) }
    }

    public static let generatorWeight = 1

    public static func generate(_ choice: Int, _ g: inout ScriptGenerator) -> [any ScriptStep]? {
        let x = g.round(g.unit() * g.viewport.width), y = g.round(g.unit() * g.viewport.height)
        return [TapStep(x: x, y: y, count: 1 + g.below(3))]
    }
}
