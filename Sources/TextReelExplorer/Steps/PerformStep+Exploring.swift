import Foundation
import TextReel

extension PerformStep: ExplorableStep {
    /// Each number argument nearer 0.
    public var simplifications: [any ScriptStep] {
        arguments.keys.sorted().flatMap { key -> [any ScriptStep] in
            guard case .number(let n) = arguments[key]! else { return [] }
            return Shrink.candidates(n).map { var simpler = self; simpler.arguments[key] = .number($0); return simpler }
        }
    }
}
