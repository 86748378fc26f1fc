import Foundation
import TextReel

extension ResizeStep: ExplorableStep {
    /// A viewport keeps a size: no side shrinks below 100.
    public var simplifications: [any ScriptStep] {
        Shrink.candidates(width, floor: 100).map { ResizeStep(width: $0, height: height) }
            + Shrink.candidates(height, floor: 100).map { ResizeStep(width: width, height: $0) }
    }

    public static let generatorWeight = 1

    public static func generate(_ choice: Int, _ g: inout ScriptGenerator) -> [any ScriptStep]? {
        let width = Double(200 + g.below(900))
        return [ResizeStep(width: width, height: Double(150 + g.below(700)))]
    }
}
