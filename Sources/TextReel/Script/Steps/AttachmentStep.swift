import Foundation

/// `{play: "id"}`, `{pause: "id"}`, `{focus: "id"}`, `{blur: "id"}`, `{toggle: "id"}`,
/// `{seek: {id, to: seconds}}`, `{slide: {id, to: 0…1}}`, `{type: {id, text}}`,
/// `{stroke: {id, points: [[x, y], …]}}`: an action on an attachment's view (made if it has none).
public struct AttachmentStep: ScriptStep, Equatable {
    /// The attachment's id.
    public var id: String
    /// What to do to its view.
    public var action: AttachmentAction
    /// A step sending `action` to attachment `id`.
    public init(id: String, _ action: AttachmentAction) { self.id = id; self.action = action }

    /// (`type` with an `id` is read by `TypeStep`, which owns the key.)
    public static let keys = ["play", "pause", "seek", "focus", "blur", "toggle", "slide", "stroke"]

    public static func decode(_ key: String, from step: StepSource) throws -> any ScriptStep {
        let c = step.step
        switch key {
        case "seek", "slide":
            let a = try step.object(allowed: ["id", "to"])
            let to = try a.number("to", in: key == "seek" ? 0...1e6 : 0...1)
            return AttachmentStep(id: try a.required(String.self, "id"), key == "seek" ? .seek(to) : .slide(to))
        case "type":
            let a = try step.object(allowed: ["id", "text"])
            return AttachmentStep(id: try a.required(String.self, "id"), .type(try a.required(String.self, "text")))
        case "stroke":
            let a = try step.object(allowed: ["id", "points"])
            let raw = try a.required([[Double]].self, "points")
            guard !raw.isEmpty, raw.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isFinite) }) else {
                throw a.impossible("points", "expected a list of [x, y] pairs")
            }
            return AttachmentStep(id: try a.required(String.self, "id"), .stroke(raw.map { CGPoint(x: $0[0], y: $0[1]) }))
        default:
            let id = try c.required(String.self, key)
            let action: AttachmentAction = switch key {
            case "play": .play
            case "pause": .pause
            case "focus": .focus
            case "blur": .blur
            default: .toggle
            }
            return AttachmentStep(id: id, action)
        }
    }

    public var json5: String {
        let n = JSON5Writer.number, q = JSON5Writer.quoted(id)
        return switch action {
        case .seek(let to): "{seek: {id: \(q), to: \(n(to))}}"
        case .slide(let to): "{slide: {id: \(q), to: \(n(to))}}"
        case .type(let text): "{type: {id: \(q), text: \(JSON5Writer.quoted(text))}}"
        case .stroke(let points): "{stroke: {id: \(q), points: [\(points.map { "[\(n($0.x)), \(n($0.y))]" }.joined(separator: ", "))]}}"
        case .named(let name, let arguments): PerformStep(attachment: id, action: name, arguments: arguments).json5
        default: "{\(action.name): \(q)}"
        }
    }

    public func schedule(on timeline: inout TimelineBuilder, index: Int) { timeline.instant(self, index: index) }

    public func perform(_ part: StepPart, index: Int, runner: ScriptRunner) throws -> FrameEvent.Edit? {
        try runner.view.perform(action, onAttachment: id)
        return nil
    }

}
