import Foundation

/// One kind of script step (scroll, wait, edit …), declared whole in one file under `Steps/`:
/// how it is read from JSON5 (errors at its line and column), how many frames it spans, what it
/// does to the text view, and how it is written back. A new kind is one file plus one line in
/// `ScriptSteps.kinds` (and, for the explorer to draw it, an `ExplorableStep` conformance in
/// TextReelExplorer).
public protocol ScriptStep: Sendable {
    /// The keys a step of this kind is written with (`{wait: 0.5}` is "wait").
    static var keys: [String] { get }
    /// Reads the step written under `key`.
    static func decode(_ key: String, from step: StepSource) throws -> any ScriptStep
    /// Puts the step's frames on the timeline (instant steps act on the next frame).
    func schedule(on timeline: inout TimelineBuilder, index: Int)
    /// Does the step's `part` before a frame, through the view's public verbs; an edit returns
    /// what it changed, for the frame's event.
    func perform(_ part: StepPart, index: Int, runner: ScriptRunner) throws -> FrameEvent.Edit?
    /// The step in the script language.
    var json5: String { get }
    /// Refuses, before the first frame, a step the view can never run (a resize too large).
    func check(for view: TextView) throws
    /// Points this part will scroll, for the leading overdraw (0: none).
    func motion(_ part: StepPart, index: Int, runner: ScriptRunner) -> Double
}

extension ScriptStep {
    public func check(for view: TextView) throws {}
    public func motion(_ part: StepPart, index: Int, runner: ScriptRunner) -> Double { 0 }
}

/// Which part of a step runs before a frame.
public enum StepPart: Equatable, Sendable {
    /// All of an instant step.
    case instant
    /// Eased progress from `from` to `to` (0…1) of a step with a duration.
    case progress(from: Double, to: Double)
    /// A precomputed displacement (a fling's, this frame).
    case delta(Double)
}

/// Every step kind a script may hold, in the order the explorer's draws are shared out.
public enum ScriptSteps {
    /// The step types, in that order.
    public static let kinds: [any ScriptStep.Type] = [
        ScrollStep.self, FlingStep.self, WaitStep.self, EditStep.self, ResizeStep.self, SetNeedsLayoutStep.self,
        SnapshotStep.self, RegisterStep.self, AttachmentStep.self, PerformStep.self,
        SelectStep.self, MoveStep.self, TypeStep.self, DeleteStep.self, TapStep.self, RevealStep.self,
        MarkedTextStep.self, FocusStep.self, InvalidateStep.self,
    ]

    /// Every key a step may be written with.
    static var keys: [String] { kinds.flatMap { $0.keys } }

    static func kind(forKey key: String) -> (any ScriptStep.Type)? {
        kinds.first { $0.keys.contains(key) }
    }
}

/// What a step kind reads itself from: the step object `{key: value}`.
public struct StepSource {
    let step: StrictContainer
    /// The step's one key.
    public let key: String

    /// The value must be `true` (`{setNeedsLayout: true}`): a step with nothing more to say.
    func requireTrue() throws {
        guard try step.required(Bool.self, key) else { throw step.impossible(key, "expected true") }
    }

    /// The value as an object with only `allowed` keys.
    func object(allowed: [String]) throws -> StrictContainer {
        try StrictContainer(step.container.superDecoder(forKey: AnyKey(key)), allowed: allowed)
    }
}

/// Writes script values back as JSON5.
enum JSON5Writer {
    /// A string literal, escaped (a fuzzed script with a carriage return in a snapshot name
    /// was written back as a string that did not read).
    static func quoted(_ text: String) -> String {
        var s = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": s += "\\\""
            case "\\": s += "\\\\"
            case "\n": s += "\\n"
            // Other control characters and the line separators cannot stand in a JSON5 string.
            case _ where scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029 || scalar.value == 0x7F:
                s += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
            default: s.unicodeScalars.append(scalar)
            }
        }
        return s + "\""
    }

    static func number(_ value: Double) -> String { NumberText.script(value) }
}
