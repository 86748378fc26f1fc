import Foundation
import TextReel

/// What the explorer may send an attachment of one kind, drawing choices from `random` (nil:
/// nothing fits it).
public typealias ExploreActions = @Sendable (_ attachment: TextAttachment, _ random: inout ExploreRandom) -> [AttachmentAction]?

/// The explorer's actions by attachment scheme: the built-in kinds' here; a custom kind's are
/// handed to `ScriptGenerator` beside them.
public enum AttachmentExploring {
    public static let builtIn: [String: ExploreActions] = [
        // Play, pause, seek within its length, or rewind by name.
        "video": { attachment, random in
            let choice = random.below(4)
            let at = (random.unit() * VideoAttachmentViewProvider.duration(of: attachment) * 10).rounded(.down) / 10
            return [[.play, .pause, .seek(at), .named("rewind", arguments: ["seconds": .number(at)])][choice]]
        },
        // Focus then type into a text field, flip a toggle, move a slider.
        "control": { attachment, random in
            switch attachment.parameters["kind"] {
            case "textfield": [.focus, .type("Ada")]
            case "toggle": [.toggle]
            case "slider": [.slide((random.unit() * 10).rounded() / 10)]
            default: nil
            }
        },
    ]
}
