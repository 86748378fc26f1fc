import Foundation
import TextReel

extension SelectStep: ExplorableStep {
    public var simplifications: [any ScriptStep] {
        guard case .range(let p, let from, let to) = target else { return [] }
        let s: (Int, Int) -> [Int] = Shrink.candidates
        return s(p, 0).map { SelectStep(.range(paragraph: $0, from: from, to: to)) } + s(from, 0).map { SelectStep(.range(paragraph: p, from: $0, to: to)) }
    }

    public static let generatorWeight = 1

    public static func generate(_ choice: Int, _ g: inout ScriptGenerator) -> [any ScriptStep]? {
        guard !g.model.isEmpty else { return nil }
        return [generated(&g, caret: true)]
    }

    /// A range in a paragraph the model holds (with `caret`, half the time a caret), for the
    /// kinds that act on a selection.
    static func generated(_ g: inout ScriptGenerator, caret: Bool) -> SelectStep {
        let p = g.paragraph(), length = g.model[p].length
        let from = g.below(length + 1)
        return SelectStep(.range(paragraph: p, from: from, to: caret && g.below(2) == 0 ? nil : from + g.below(length - from + 1)))
    }
}
