import Foundation
import TextReel

extension EditStep: ExplorableStep {
    public var simplifications: [any ScriptStep] {
        let s: (Int, Int) -> [Int] = Shrink.candidates
        return switch edit {
        case .insert(let p, let text, let at):
            s(p, 0).map { EditStep(.insert(paragraph: $0, text: text, at: at)) } + s(at, 0).map { EditStep(.insert(paragraph: p, text: text, at: $0)) }
        case .delete(let p, let from, let length):
            s(p, 0).map { EditStep(.delete(paragraph: $0, from: from, length: length)) }
                + s(from, 0).map { EditStep(.delete(paragraph: p, from: $0, length: length)) }
                + s(length, 0).map { EditStep(.delete(paragraph: p, from: from, length: $0)) }
        case .insertParagraph(let markdown, let after): s(after, -1).map { EditStep(.insertParagraph(markdown: markdown, after: $0)) }
        case .deleteParagraph(let p): s(p, 0).map { EditStep(.deleteParagraph($0)) }
        }
    }

    /// Inserting text, deleting text, inserting a paragraph, deleting paragraphs: at the first
    /// and last paragraph often, and now and then everything. The generator's model follows.
    public static let generatorWeight = 4

    public static func generate(_ choice: Int, _ g: inout ScriptGenerator) -> [any ScriptStep]? {
        switch choice {
        case 0:
            guard !g.model.isEmpty else { return nil }
            let p = g.paragraph(), at = g.below(g.model[p].length + 1)
            let text = ["x", "Hello ", " more words to wrap the line further", "文本", "نص "][g.below(5)]
            g.model[p].length += text.count
            g.model[p].heading = nil
            return [EditStep(.insert(paragraph: p, text: text, at: at))]
        case 1:
            guard !g.model.isEmpty else { return nil }
            let p = g.paragraph()
            guard g.model[p].length > 0 else { return nil }
            let from = g.below(g.model[p].length), length = 1 + g.below(g.model[p].length - from)
            g.model[p].length -= length
            g.model[p].heading = nil
            g.model[p].attachments = []
            return [EditStep(.delete(paragraph: p, from: from, length: length))]
        case 2:
            let after = g.model.isEmpty || g.below(4) == 0 ? -1 : g.paragraph()
            let markdown = ["A new paragraph.", "## New heading", "- a list item", "```\ncode\n```",
                            "![](video:v\(g.random.next() % 1000)?size=200x100)", String(repeating: "long ", count: 120),
                            "^[A comment](commentDepth: \(1 + g.below(3))) with attributes"][g.below(7)]
            guard let format = g.document.format,
                  let parsed = (try? format.paragraphs(of: markdown, like: g.document, kinds: g.providers.kinds))?.first else { return nil }
            var inserted = ScriptGenerator.Paragraph(parsed)
            inserted.attachments = []    // its id is the reader's to choose in the whole document
            g.model.insert(inserted, at: after + 1)
            return [EditStep(.insertParagraph(markdown: markdown, after: after))]
        default:
            guard g.model.count > 1 else { return nil }
            if g.model.count <= 40 && g.below(6) == 0 {
                // Delete everything that can be deleted (one paragraph always stays).
                let steps = (1..<g.model.count).map { _ in EditStep(.deleteParagraph(0)) }
                g.model = [g.model.last!]
                return steps
            }
            let p = g.paragraph()
            g.model.remove(at: p)
            return [EditStep(.deleteParagraph(p))]
        }
    }
}
