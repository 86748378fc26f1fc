import Foundation

/// `{perform: {attachment: "id", action: "rewind", arguments: {seconds: 2}}}`: an action by name,
/// with arguments, sent to the attachment's view (made if it has none), which handles it in
/// `perform(_:)` as `.named(action, arguments:)`. A view that does not know the action refuses
/// it, and the error is at this step's line and column.
public struct PerformStep: ScriptStep, Equatable {
    /// The attachment's id.
    public var attachment: String
    /// The action's name ("rewind").
    public var action: String
    /// The action's arguments, by name.
    public var arguments: [String: StateValue]

    /// A step sending `action` with `arguments` to `attachment`.
    public init(attachment: String, action: String, arguments: [String: StateValue] = [:]) {
        self.attachment = attachment; self.action = action; self.arguments = arguments
    }

    public static let keys = ["perform"]

    public static func decode(_ key: String, from step: StepSource) throws -> any ScriptStep {
        let p = try step.object(allowed: ["attachment", "action", "arguments"])
        let action = try p.required(String.self, "action")
        guard !action.isEmpty else { throw p.impossible("action", "expected the name of an action") }
        return PerformStep(attachment: try p.required(String.self, "attachment"), action: action,
                           arguments: try p.optional([String: StateValue].self, "arguments") ?? [:])
    }

    public var json5: String {
        let q = JSON5Writer.quoted
        let written = arguments.keys.sorted().map { key -> String in
            let value = switch arguments[key]! {
            case .number(let n): JSON5Writer.number(n)
            case .bool(let b): String(b)
            case .string(let s): q(s)
            }
            return "\(q(key)): \(value)"
        }
        let tail = written.isEmpty ? "" : ", arguments: {\(written.joined(separator: ", "))}"
        return "{perform: {attachment: \(q(attachment)), action: \(q(action))\(tail)}}"
    }

    public func schedule(on timeline: inout TimelineBuilder, index: Int) { timeline.instant(self, index: index) }

    public func perform(_ part: StepPart, index: Int, runner: ScriptRunner) throws -> FrameEvent.Edit? {
        try runner.view.perform(.named(action, arguments: arguments), onAttachment: attachment)
        return nil
    }

    // The explorer sends named actions through the kinds that list them (`AttachmentStep`).
}
