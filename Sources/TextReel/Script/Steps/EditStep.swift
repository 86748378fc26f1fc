import Foundation

/// `{edit: {paragraph, insert, at}}`, `{edit: {paragraph, delete: {from, length}}}`,
/// `{edit: {insertParagraph: "Markdown", after}}`, `{edit: {deleteParagraph: n}}`: an edit of
/// the document, which the layout, the height index and the attachment policies see.
public struct EditStep: ScriptStep, Equatable {
    /// One edit; paragraphs by index (0-based), offsets in characters.
    public enum Edit: Sendable, Equatable {
        /// Inserts `text` into a paragraph before character `at`.
        case insert(paragraph: Int, text: String, at: Int)
        /// Deletes `length` characters of a paragraph from character `from`.
        case delete(paragraph: Int, from: Int, length: Int)
        /// Inserts the paragraphs of `markdown` after paragraph `after` (-1: at the start).
        case insertParagraph(markdown: String, after: Int)
        /// Deletes a paragraph.
        case deleteParagraph(Int)
    }

    /// The edit to make.
    public var edit: Edit
    /// A step making `edit`.
    public init(_ edit: Edit) { self.edit = edit }

    public static let keys = ["edit"]

    public static func decode(_ key: String, from step: StepSource) throws -> any ScriptStep {
        let e = try step.object(allowed: ["paragraph", "insert", "at", "delete", "insertParagraph", "after", "deleteParagraph"])
        if e.has("insertParagraph") {
            return EditStep(.insertParagraph(markdown: try e.required(String.self, "insertParagraph"),
                                             after: Int(try e.number("after", in: -1...1e9))))
        }
        if e.has("deleteParagraph") { return EditStep(.deleteParagraph(try e.index("deleteParagraph"))) }
        let paragraph = try e.index("paragraph")
        if e.has("insert") {
            return EditStep(.insert(paragraph: paragraph, text: try e.required(String.self, "insert"),
                                    at: e.has("at") ? try e.index("at", what: "a character offset") : 0))
        }
        if e.has("delete") {
            let d = try StrictContainer(e.container.superDecoder(forKey: AnyKey("delete")), allowed: ["from", "length"])
            return EditStep(.delete(paragraph: paragraph, from: try d.index("from", what: "a character offset"),
                                    length: try d.index("length", what: "a number of characters")))
        }
        throw e.impossible("paragraph", "an edit needs insert, delete, insertParagraph or deleteParagraph")
    }

    public var json5: String {
        let q = JSON5Writer.quoted
        return switch edit {
        case .insert(let p, let text, let at): "{edit: {paragraph: \(p), insert: \(q(text)), at: \(at)}}"
        case .delete(let p, let from, let length): "{edit: {paragraph: \(p), delete: {from: \(from), length: \(length)}}}"
        case .insertParagraph(let markdown, let after): "{edit: {insertParagraph: \(q(markdown)), after: \(after)}}"
        case .deleteParagraph(let p): "{edit: {deleteParagraph: \(p)}}"
        }
    }

    public func schedule(on timeline: inout TimelineBuilder, index: Int) { timeline.instant(self, index: index) }

    public func perform(_ part: StepPart, index: Int, runner: ScriptRunner) throws -> FrameEvent.Edit? {
        let view = runner.view
        let paragraphs = view.document.paragraphs
        switch edit {
        case .insert(let index, let text, let at):
            try view.insertText(text, inParagraphAt: index, atCharacter: at)
            return FrameEvent.Edit(kind: "insert", paragraph: paragraphs[index].id.rawValue, index: index)
        case .delete(let index, let from, let length):
            try view.deleteText(inParagraphAt: index, fromCharacter: from, length: length)
            return FrameEvent.Edit(kind: "delete", paragraph: paragraphs[index].id.rawValue, index: index)
        case .insertParagraph(let markdown, let after):
            try view.insertParagraphs(markdown: markdown, after: after)
            return FrameEvent.Edit(kind: "insertParagraph", paragraph: view.document.paragraphs[after + 1].id.rawValue, index: after + 1)
        case .deleteParagraph(let index):
            let id = index < paragraphs.count ? paragraphs[index].id.rawValue : nil
            try view.deleteParagraph(at: index)
            return FrameEvent.Edit(kind: "deleteParagraph", paragraph: id, index: index)
        }
    }

}
