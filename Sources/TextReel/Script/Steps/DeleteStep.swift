import Foundation

/// `{deleteBackward: n}` and `{deleteForward: n}`: the delete keys pressed n times: the
/// selection, then one grapheme cluster before (or after) the caret each time (a family emoji, a
/// flag, a letter with its marks go whole).
public struct DeleteStep: ScriptStep, Equatable {
    /// Forward delete (the cluster after the caret) rather than backspace.
    public var forward: Bool
    /// How many times the key is pressed.
    public var count: Int
    /// The backspace key, or with `forward` the forward-delete key, pressed `count` times.
    public init(forward: Bool = false, _ count: Int = 1) { self.forward = forward; self.count = count }

    public static let keys = ["deleteBackward", "deleteForward"]

    public static func decode(_ key: String, from step: StepSource) throws -> any ScriptStep {
        DeleteStep(forward: key == "deleteForward", Int(try step.step.number(key, in: 1...10_000)))
    }

    public var json5: String { "{\(forward ? "deleteForward" : "deleteBackward"): \(count)}" }

    public func schedule(on timeline: inout TimelineBuilder, index: Int) { timeline.instant(self, index: index) }

    public func perform(_ part: StepPart, index: Int, runner: ScriptRunner) throws -> FrameEvent.Edit? {
        let view = runner.view
        guard view.selectedTextRange != nil else { throw TextReelError("there is no caret to delete at; select a place first") }
        for _ in 0..<count { try forward ? view.deleteForward() : view.deleteBackward() }
        return runner.revealCaret(after: forward ? "deleteForward" : "deleteBackward")
    }

}
