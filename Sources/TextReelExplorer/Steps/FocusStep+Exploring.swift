import Foundation
import TextReel

extension FocusStep: ExplorableStep {
    public static let generatorWeight = 1

    /// A selection, then the focus lost or regained.
    public static func generate(_ choice: Int, _ g: inout ScriptGenerator) -> [any ScriptStep]? {
        guard !g.model.isEmpty else { return nil }
        return [SelectStep.generated(&g, caret: false), FocusStep(g.below(2) == 0)]
    }
}
