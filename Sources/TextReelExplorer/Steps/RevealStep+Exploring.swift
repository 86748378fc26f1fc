import Foundation
import TextReel

extension RevealStep: ExplorableStep {
    public static let generatorWeight = 1

    public static func generate(_ choice: Int, _ g: inout ScriptGenerator) -> [any ScriptStep]? {
        guard !g.model.isEmpty else { return nil }
        let p = g.paragraph()
        return [SelectStep(.range(paragraph: p, from: g.below(g.model[p].length + 1), to: nil)), ScrollStep(.to(0)), RevealStep()]
    }
}
