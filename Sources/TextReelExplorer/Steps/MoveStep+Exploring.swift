import Foundation
import TextReel

extension MoveStep: ExplorableStep {
    public var simplifications: [any ScriptStep] {
        Shrink.candidates(count, floor: 1).map { MoveStep(direction, destination, extending: extending, count: $0) }
    }

    public static let generatorWeight = 1

    public static func generate(_ choice: Int, _ g: inout ScriptGenerator) -> [any ScriptStep]? {
        guard !g.model.isEmpty else { return nil }
        let directions = TextSelectionNavigation.Direction.allCases, destinations = TextSelectionNavigation.Destination.allCases
        let p = g.paragraph()
        let select = SelectStep(.range(paragraph: p, from: g.below(g.model[p].length + 1), to: nil))
        let move = MoveStep(directions[g.below(directions.count)], destinations[g.below(destinations.count)], extending: g.below(3) == 0,
                            count: 1 + g.below(4))
        return [select, move]
    }
}
