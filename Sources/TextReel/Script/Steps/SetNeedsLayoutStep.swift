import Foundation

/// `{setNeedsLayout: true}`: asks the viewport controller for a layout pass, as UIKit code does.
public struct SetNeedsLayoutStep: ScriptStep, Equatable {
    /// A step asking for a layout pass.
    public init() {}

    public static let keys = ["setNeedsLayout"]

    public static func decode(_ key: String, from step: StepSource) throws -> any ScriptStep {
        try step.requireTrue()
        return SetNeedsLayoutStep()
    }

    public var json5: String { "{setNeedsLayout: true}" }

    public func schedule(on timeline: inout TimelineBuilder, index: Int) { timeline.instant(self, index: index) }

    public func perform(_ part: StepPart, index: Int, runner: ScriptRunner) throws -> FrameEvent.Edit? {
        runner.view.textViewportLayoutController.setNeedsLayout()
        return nil
    }

}
