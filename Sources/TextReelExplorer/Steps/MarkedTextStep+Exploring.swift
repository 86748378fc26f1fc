import Foundation
import TextReel

extension MarkedTextStep: ExplorableStep {
    public static let generatorWeight = 1

    /// A caret, two rounds of composition (the second replacing the first), then the commit.
    public static func generate(_ choice: Int, _ g: inout ScriptGenerator) -> [any ScriptStep]? {
        guard !g.model.isEmpty else { return nil }
        let p = g.paragraph()
        let select = SelectStep(.range(paragraph: p, from: g.below(g.model[p].length + 1), to: nil))
        g.model[p].length += 3
        g.model[p].heading = nil
        return [select, MarkedTextStep("に"), MarkedTextStep("日本語"), MarkedTextStep(nil)]
    }
}
