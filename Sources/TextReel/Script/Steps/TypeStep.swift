import Foundation

/// `{type: "text"}` or `{type: {text: "text", rate: 12}}`: typed at the caret, all at once or
/// `rate` characters a second, the view following the caret. What a frame types is one edit (as
/// a paste is): the characters of a frame are never seen apart, and a paragraph is rebuilt once
/// per frame rather than once per character, so a long step costs what it types. `{type: {id, text}}` types into
/// an attachment's text field instead (an `AttachmentStep`).
public struct TypeStep: ScriptStep, Equatable {
    /// What is typed.
    public var text: String
    /// Characters a second; nil: all at once.
    public var rate: Double?

    /// Typing `text`, all at once or at `rate` characters a second.
    public init(_ text: String, rate: Double? = nil) { self.text = text; self.rate = rate }

    public static let keys = ["type"]

    public static func decode(_ key: String, from step: StepSource) throws -> any ScriptStep {
        if let text = try? step.step.required(String.self, key) { return TypeStep(text) }
        let t = try step.object(allowed: ["text", "rate", "id"])
        if t.has("id") { return try AttachmentStep.decode("type", from: step) }
        let text = try t.required(String.self, "text")
        return TypeStep(text, rate: t.has("rate") ? try t.number("rate", in: 0.1...1000) : nil)
    }

    public var json5: String {
        rate.map { "{type: {text: \(JSON5Writer.quoted(text)), rate: \(JSON5Writer.number($0))}}" } ?? "{type: \(JSON5Writer.quoted(text))}"
    }

    public func schedule(on timeline: inout TimelineBuilder, index: Int) {
        guard let rate, text.count > 1 else { return timeline.instant(self, index: index) }
        // One character a frame part: frame k types the characters due by then.
        let characters = text.count
        let frames = max(timeline.frameCount(Double(characters) / rate), 1)
        timeline.frames(of: self, index: index, (1...frames).map { .progress(from: Double($0 - 1) / Double(frames), to: Double($0) / Double(frames)) })
    }

    public func perform(_ part: StepPart, index: Int, runner: ScriptRunner) throws -> FrameEvent.Edit? {
        let view = runner.view
        let characters = Array(text)
        let (from, to) = part.span
        let typed = String(characters[Int((from * Double(characters.count)).rounded())..<Int((to * Double(characters.count)).rounded())])
        guard !typed.isEmpty else { return nil }
        try view.insertText(typed)
        return runner.revealCaret(after: "type")
    }

}
