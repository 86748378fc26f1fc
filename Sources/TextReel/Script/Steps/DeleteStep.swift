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
    public var simplifications: [any ScriptStep] { Shrink.candidates(count, floor: 1).map { DeleteStep(forward: forward, $0) } }

    public func schedule(on timeline: inout TimelineBuilder, index: Int) { timeline.instant(self, index: index) }

    public func perform(_ part: StepPart, index: Int, runner: ScriptRunner) throws -> FrameEvent.Edit? {
        let view = runner.view
        guard view.selectedTextRange != nil else { throw TextReelError("there is no caret to delete at; select a place first") }
        for _ in 0..<count { try forward ? view.deleteForward() : view.deleteBackward() }
        return runner.revealCaret(after: forward ? "deleteForward" : "deleteBackward")
    }

    public static let generatorWeight = 2

    /// A caret somewhere, then one to three presses of either key; the model loses what they
    /// take, and a press at a paragraph's edge joins it with its neighbour.
    public static func generate(_ choice: Int, _ g: inout ScriptGenerator) -> [any ScriptStep]? {
        guard !g.model.isEmpty else { return nil }
        let forward = g.below(2) == 0
        let start = g.paragraph()
        let at = g.below(g.model[start].length + 1), count = 1 + g.below(3)
        var p = start, caret = at
        for _ in 0..<count {
            g.model[p].heading = nil
            if forward ? caret < g.model[p].length : caret > 0 {
                g.model[p].length -= 1
                if !forward { caret -= 1 }
            } else if forward ? p + 1 < g.model.count : p > 0 {
                let into = forward ? p : p - 1
                if !forward { caret = g.model[into].length }
                g.model[into].length += g.model[into + 1].length
                g.model[into].attachments += g.model[into + 1].attachments
                g.model[into].heading = nil
                g.model.remove(at: into + 1)
                p = into
            }
        }
        g.model[p].attachments = []
        return [SelectStep(.range(paragraph: start, from: at, to: nil)), DeleteStep(forward: forward, count)]
    }
}
