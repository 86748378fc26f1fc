import Foundation
import TextReel

extension DeleteStep: ExplorableStep {
    public var simplifications: [any ScriptStep] { Shrink.candidates(count, floor: 1).map { DeleteStep(forward: forward, $0) } }

    public static let generatorWeight = 2

    /// A caret somewhere, then one to three presses of either key; the model loses what they
    /// take, and a press at a paragraph's edge joins it with its neighbour.
    public static func generate(_ choice: Int, _ g: inout ScriptGenerator) -> [any ScriptStep]? {
        guard !g.model.isEmpty else { return nil }
        let forward = g.below(2) == 0
        let start = g.paragraph()
        let at = g.below(g.model[start].length + 1), count = 1 + g.below(3)
        var p = start, caret = at
        for _ in 0..<count {
            g.model[p].heading = nil
            if forward ? caret < g.model[p].length : caret > 0 {
                g.model[p].length -= 1
                if !forward { caret -= 1 }
            } else if forward ? p + 1 < g.model.count : p > 0 {
                let into = forward ? p : p - 1
                if !forward { caret = g.model[into].length }
                g.model[into].length += g.model[into + 1].length
                g.model[into].attachments += g.model[into + 1].attachments
                g.model[into].heading = nil
                g.model.remove(at: into + 1)
                p = into
            }
        }
        g.model[p].attachments = []
        return [SelectStep(.range(paragraph: start, from: at, to: nil)), DeleteStep(forward: forward, count)]
    }
}
