import Foundation
import TextReel

extension ScrollStep: ExplorableStep {
    public var simplifications: [any ScriptStep] {
        var out: [ScrollStep] = Shrink.candidates(duration).map { ScrollStep(target, duration: $0, curve: curve) }
        switch target {
        case .to(let y, let exact): out += Shrink.candidates(y).map { ScrollStep(.to($0, exact: exact), duration: duration, curve: curve) }
        case .by(let dy): out += Shrink.candidates(dy).map { ScrollStep(.by($0), duration: duration, curve: curve) }
        case .toParagraph(let index, let align): out += Shrink.candidates(index).map { ScrollStep(.toParagraph($0, align), duration: duration, curve: curve) }
        case .toHeading, .toAttachment: break
        }
        return out
    }

    public static let generatorWeight = 10

    public static func generate(_ choice: Int, _ g: inout ScriptGenerator) -> [any ScriptStep]? {
        let curve = { (i: Int) in ScrollScript.Curve.allCases[i] }
        let align = { (i: Int) in ScrollScript.Align.allCases[i] }
        switch choice {
        case 0, 1: return [ScrollStep(.to(g.round(g.unit() * g.documentHeight * 1.2)), duration: g.duration(), curve: curve(g.below(4)))]
        case 2, 3, 4: return [ScrollStep(.by(g.round((g.unit() * 2 - 1) * g.viewport.height * 3)), duration: g.duration(), curve: curve(g.below(4)))]
        case 5:
            guard !g.model.isEmpty else { return nil }
            let p = g.paragraph()
            return [ScrollStep(.toParagraph(p, align(g.below(3))))]
        case 6:
            let headings = g.headings
            guard !headings.isEmpty else { return nil }
            let a = align(g.below(3))
            return [ScrollStep(.toHeading(headings[g.below(headings.count)], a))]
        case 7:
            let attachments = g.attachments
            guard !attachments.isEmpty else { return nil }
            let a = align(g.below(3))
            return [ScrollStep(.toAttachment(attachments[g.below(attachments.count)].id, a))]
        default: return [ScrollStep(.by(g.round(g.viewport.height / 2)), duration: g.duration(), curve: .linear)]
        }
    }
}
