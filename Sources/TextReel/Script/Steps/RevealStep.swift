import Foundation

/// `{reveal: true}`: scrolls the selection into view (`scrollRangeToVisible`), as little as keeps
/// its end 8 points inside the visible rect.
public struct RevealStep: ScriptStep, Equatable {
    /// The step.
    public init() {}

    public static let keys = ["reveal"]

    public static func decode(_ key: String, from step: StepSource) throws -> any ScriptStep {
        try step.requireTrue()
        return RevealStep()
    }

    public var json5: String { "{reveal: true}" }

    public func schedule(on timeline: inout TimelineBuilder, index: Int) { timeline.instant(self, index: index) }

    public func perform(_ part: StepPart, index: Int, runner: ScriptRunner) throws -> FrameEvent.Edit? {
        guard let range = runner.view.selectedTextRange else { throw TextReelError("there is no selection to reveal; select something first") }
        runner.view.scrollRangeToVisible(range)
        return nil
    }

}
