import Foundation
import TextReel

extension TypeStep: ExplorableStep {
    public static let generatorWeight = 1

    public static func generate(_ choice: Int, _ g: inout ScriptGenerator) -> [any ScriptStep]? {
        guard !g.model.isEmpty else { return nil }
        let p = g.paragraph(), at = g.below(g.model[p].length + 1)
        let select = SelectStep(.range(paragraph: p, from: at, to: nil))
        let text = ["x", "Hello ", "文本", "نص ", "👨‍👩‍👧", "end\nnew "][g.below(6)]
        g.model[p].heading = nil
        if let newline = text.firstIndex(of: "\n") {
            // Return: the paragraph breaks at the caret; what follows the break starts the next.
            let rest = g.model[p].length - at
            g.model[p].length = at + text[..<newline].count
            g.model[p].attachments = []
            g.model.insert(ScriptGenerator.Paragraph(length: rest + text[text.index(after: newline)...].count), at: p + 1)
        } else {
            g.model[p].length += text.count
        }
        return [select, TypeStep(text, rate: g.below(2) == 0 ? nil : 20)]
    }
}
