import Foundation

/// `{select: {paragraph: n, from: a, to: b}}` (character offsets; `to` left out: a caret),
/// `{select: {find: "text"}}` (its first occurrence), `{select: "all"}`: the view's selection.
public struct SelectStep: ScriptStep, Equatable {
    /// What is selected.
    public enum Target: Sendable, Equatable {
        /// Characters `from` to `to` of paragraph `paragraph`; a caret at `from` when `to` is nil.
        case range(paragraph: Int, from: Int, to: Int?)
        /// The first occurrence of the text.
        case find(String)
        /// The whole document.
        case all
    }

    /// What the step selects.
    public var target: Target
    /// A step that selects `target`.
    public init(_ target: Target) { self.target = target }

    public static let keys = ["select"]

    public static func decode(_ key: String, from step: StepSource) throws -> any ScriptStep {
        if let word = try? step.step.required(String.self, key) {
            guard word == "all" else { throw step.step.impossible(key, "'\(word)' is not a selection; expected \"all\", {find: …} or {paragraph, from, to}") }
            return SelectStep(.all)
        }
        let s = try step.object(allowed: ["paragraph", "from", "to", "find"])
        if s.has("find") { return SelectStep(.find(try s.required(String.self, "find"))) }
        return SelectStep(.range(paragraph: try s.index("paragraph"), from: try s.index("from", what: "a character offset"),
                                 to: s.has("to") ? try s.index("to", what: "a character offset") : nil))
    }

    public var json5: String {
        switch target {
        case .all: "{select: \"all\"}"
        case .find(let text): "{select: {find: \(JSON5Writer.quoted(text))}}"
        case .range(let p, let from, let to): "{select: {paragraph: \(p), from: \(from)\(to.map { ", to: \($0)" } ?? "")}}"
        }
    }

    public func schedule(on timeline: inout TimelineBuilder, index: Int) { timeline.instant(self, index: index) }

    public func perform(_ part: StepPart, index: Int, runner: ScriptRunner) throws -> FrameEvent.Edit? {
        let view = runner.view
        let paragraphs = view.document.paragraphs
        switch target {
        case .all:
            guard let first = paragraphs.first, let last = paragraphs.last else { return nil }
            view.selectedTextRange = TextRange(start: TextLocation(paragraph: first.id), end: TextLocation(paragraph: last.id, offset: last.utf16Count))
        case .find(let text):
            for paragraph in paragraphs {
                if let found = paragraph.text.range(of: text) {
                    let start = paragraph.text.utf16.distance(from: paragraph.text.startIndex, to: found.lowerBound)
                    view.selectedTextRange = TextRange(start: TextLocation(paragraph: paragraph.id, offset: start),
                                                       end: TextLocation(paragraph: paragraph.id, offset: paragraph.text.utf16.distance(from: paragraph.text.startIndex, to: found.upperBound)))
                    return nil
                }
            }
            throw TextReelError("the text \(JSON5Writer.quoted(text)) is not in the document")
        case .range(let p, let from, let to):
            guard p < paragraphs.count else {
                throw TextReelError("paragraph \(p) does not exist; the document has paragraphs 0 to \(paragraphs.count - 1)")
            }
            let paragraph = paragraphs[p]
            guard let start = paragraph.utf16Offset(ofCharacter: from), let end = paragraph.utf16Offset(ofCharacter: to ?? from), end >= start else {
                throw TextReelError("cannot select characters \(from) to \(to ?? from) of paragraph \(p): it has \(paragraph.characterCount)")
            }
            view.selectedTextRange = TextRange(start: TextLocation(paragraph: paragraph.id, offset: start), end: TextLocation(paragraph: paragraph.id, offset: end))
        }
        if let range = view.selectedTextRange { view.scrollRangeToVisible(range) }
        return nil
    }

}
