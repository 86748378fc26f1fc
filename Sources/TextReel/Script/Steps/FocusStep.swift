import Foundation

/// `{firstResponder: false}`: the view resigns the keyboard focus, as UIKit's
/// `resignFirstResponder()` (its caret goes, its highlight turns the unfocused colour);
/// `{firstResponder: true}` gives it back. (`focus` is a text field attachment's action.)
public struct FocusStep: ScriptStep, Equatable {
    /// Whether the view is focused after the step.
    public var focused: Bool
    /// The step.
    public init(_ focused: Bool) { self.focused = focused }

    public static let keys = ["firstResponder"]

    public static func decode(_ key: String, from step: StepSource) throws -> any ScriptStep {
        FocusStep(try step.step.required(Bool.self, key))
    }

    public var json5: String { "{firstResponder: \(focused)}" }

    public func schedule(on timeline: inout TimelineBuilder, index: Int) { timeline.instant(self, index: index) }

    public func perform(_ part: StepPart, index: Int, runner: ScriptRunner) throws -> FrameEvent.Edit? {
        runner.view.isFocused = focused
        return nil
    }

}
