import Foundation
import TextReel

extension AttachmentStep: ExplorableStep {
    public var simplifications: [any ScriptStep] {
        switch action {
        case .seek(let to): Shrink.candidates(to).map { AttachmentStep(id: id, .seek($0)) }
        case .slide(let to): Shrink.candidates(to).map { AttachmentStep(id: id, .slide($0)) }
        default: []
        }
    }

    /// An attachment's kind says what actions it takes (`ExploreActions`, by scheme):
    /// play, pause or seek a video within its length; focus then type into a text field; …
    public static let generatorWeight = 2

    public static func generate(_ choice: Int, _ g: inout ScriptGenerator) -> [any ScriptStep]? {
        let attachments = g.attachments
        guard !attachments.isEmpty else { return nil }
        let a = attachments[g.below(attachments.count)]
        guard let actions = g.actions[a.scheme] else { return nil }
        return actions(a, &g.random).map { actions in
            actions.map { action -> any ScriptStep in
                if case .named(let name, let arguments) = action { return PerformStep(attachment: a.id, action: name, arguments: arguments) }
                return AttachmentStep(id: a.id, action)
            }
        }
    }
}
