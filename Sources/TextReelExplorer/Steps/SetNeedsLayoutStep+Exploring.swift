import Foundation
import TextReel

extension SetNeedsLayoutStep: ExplorableStep {
    public static let generatorWeight = 1

    public static func generate(_ choice: Int, _ g: inout ScriptGenerator) -> [any ScriptStep]? { [SetNeedsLayoutStep()] }
}
