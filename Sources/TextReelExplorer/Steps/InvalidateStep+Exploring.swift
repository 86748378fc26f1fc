import Foundation
import TextReel

extension InvalidateStep: ExplorableStep {
    public static let generatorWeight = 1

    public static func generate(_ choice: Int, _ g: inout ScriptGenerator) -> [any ScriptStep]? {
        [InvalidateStep(g.below(2) == 0 ? .layout : .rendering)]
    }
}
