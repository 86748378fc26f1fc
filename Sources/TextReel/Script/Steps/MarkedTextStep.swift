import Foundation

/// `{setMarkedText: "にほ"}` and `{unmarkText: true}`: an input method's uncommitted text, put in
/// place of the marked text (or the selection) and underlined, then committed.
public struct MarkedTextStep: ScriptStep, Equatable {
    /// The text to mark; nil: commit the marked text.
    public var text: String?

    /// Marks `text`, or commits (`nil`).
    public init(_ text: String?) { self.text = text }

    public static let keys = ["setMarkedText", "unmarkText"]

    public static func decode(_ key: String, from step: StepSource) throws -> any ScriptStep {
        if key == "unmarkText" {
            try step.requireTrue()
            return MarkedTextStep(nil)
        }
        return MarkedTextStep(try step.step.required(String.self, key))
    }

    public var json5: String { text.map { "{setMarkedText: \(JSON5Writer.quoted($0))}" } ?? "{unmarkText: true}" }

    public func schedule(on timeline: inout TimelineBuilder, index: Int) { timeline.instant(self, index: index) }

    public func perform(_ part: StepPart, index: Int, runner: ScriptRunner) throws -> FrameEvent.Edit? {
        let view = runner.view
        guard let text else { view.unmarkText(); return nil }
        try view.setMarkedText(text)
        return runner.revealCaret(after: "setMarkedText")
    }

}
