import Foundation
import TextReel

/// A script step kind the explorer draws and shrinks: each kind's generator, weight and
/// simplifications live here, beside the explorer, not in the step's own file.
public protocol ExplorableStep: ScriptStep {
    /// Simpler versions, for shrinking a failing script (smaller numbers, nearer their floors).
    var simplifications: [any ScriptStep] { get }
    /// Steps of this kind the explorer may add next (`choice` is which of its
    /// `generatorWeight` slots was drawn); nil when none fits the document now.
    static func generate(_ choice: Int, _ generator: inout ScriptGenerator) -> [any ScriptStep]?
    /// How many of the explorer's draws pick this kind.
    static var generatorWeight: Int { get }
}

extension ExplorableStep {
    public var simplifications: [any ScriptStep] { [] }
    public static func generate(_ choice: Int, _ generator: inout ScriptGenerator) -> [any ScriptStep]? { nil }
    public static var generatorWeight: Int { 0 }
}

extension ScriptSteps {
    /// The kinds the explorer draws, in `kinds`' order (so a seed writes the same scripts).
    static let explorable: [any ExplorableStep.Type] = kinds.compactMap { $0 as? any ExplorableStep.Type }
}

/// Simpler versions of `step` (none for a kind the explorer does not draw).
public func simplifications(of step: any ScriptStep) -> [any ScriptStep] {
    (step as? any ExplorableStep)?.simplifications ?? []
}
