import Foundation
import TextReel

extension WaitStep: ExplorableStep {
    public var simplifications: [any ScriptStep] { Shrink.candidates(seconds).map(WaitStep.init) }

    public static let generatorWeight = 1

    public static func generate(_ choice: Int, _ g: inout ScriptGenerator) -> [any ScriptStep]? {
        [WaitStep(g.round(g.unit() * 0.3))]
    }
}
