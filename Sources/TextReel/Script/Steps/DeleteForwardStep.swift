import Foundation

/// `{deleteForward: n}`: the forward-delete key pressed n times: the selection, then one grapheme
/// cluster after the caret each time.
public struct DeleteForwardStep: ScriptStep, Equatable {
    /// How many times the key is pressed.
    public var count: Int
    /// The key pressed `count` times.
    public init(_ count: Int = 1) { self.count = count }

    public static let keys = ["deleteForward"]

    public static func decode(_ key: String, from step: StepSource) throws -> any ScriptStep {
        DeleteForwardStep(Int(try step.step.number(key, in: 1...10_000)))
    }

    public var json5: String { "{deleteForward: \(count)}" }
    public var simplifications: [any ScriptStep] { Shrink.candidates(count, floor: 1).map(DeleteForwardStep.init) }

    public func schedule(on timeline: inout TimelineBuilder, index: Int) { timeline.instant(self, index: index) }

    public func perform(_ part: StepPart, index: Int, runner: ScriptRunner) throws -> FrameEvent.Edit? {
        let view = runner.view
        guard view.selectedTextRange != nil else { throw TextReelError("there is no caret to delete at; select a place first") }
        for _ in 0..<count { try view.deleteForward() }
        guard let range = view.selectedTextRange, let paragraph = view.textLayoutManager.index(of: range.start.paragraph) else { return nil }
        view.scrollRangeToVisible(range)
        return FrameEvent.Edit(kind: "deleteForward", paragraph: range.start.paragraph.rawValue, index: paragraph)
    }

    public static let generatorWeight = 1

    public static func generate(_ choice: Int, _ g: inout ScriptGenerator) -> [any ScriptStep]? {
        guard !g.model.isEmpty else { return nil }
        let p = g.paragraph(), length = g.model[p].length
        let at = g.below(length + 1), count = 1 + g.below(3)
        g.model[p].length = max(length - min(count, length - at), 0)
        g.model[p].heading = nil
        g.model[p].attachments = []
        return [SelectStep(.range(paragraph: p, from: at, to: nil)), DeleteForwardStep(count)]
    }
}
