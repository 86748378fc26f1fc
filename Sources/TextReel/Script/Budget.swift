import Foundation

/// Limits a run's frames must keep, beyond the invariants every frame keeps: how far content may
/// jump, how large a correction may be, how many attachment views may be made again, whether
/// anything may flicker, how far height estimates may be off. Given in a golden case's
/// `expect: {…}`, or to the explorer as `--budget maxJump=0,flicker=false`. Unset limits are
/// not checked.
public struct Budget: Sendable, Equatable {
    /// The most the content under the scroll anchor may jump in a frame, in points.
    public var maxJump: Double?
    /// The largest correction a frame may make, in points (either sign).
    public var maxCorrection: Double?
    /// The most attachment views a frame may create.
    public var maxCreated: Int?
    /// The most attachment views a frame may recreate.
    public var maxRecreated: Int?
    /// The most attachment views a frame may discard.
    public var maxDiscarded: Int?
    /// false: no attachment may flicker.
    public var flicker: Bool?
    /// How far height estimates may be off, as a fraction of what was measured (0.1: 10 %).
    public var maxEstimateError: Double?
    /// true: the caret may be outside the visible rect after a step that reveals it. Checked
    /// unless set (a view that does not follow its caret is broken, as an invariant is).
    public var caretHidden: Bool?

    /// No limits set.
    public init() {}

    /// The limits' names, as `set(_:_:)` and `--budget` take them.
    public static let names = ["maxJump", "maxCorrection", "maxCreated", "maxRecreated", "maxDiscarded", "flicker", "maxEstimateError", "caretHidden"]

    /// Sets limit `name` from its text ("0", "300", "false"); errors say what was expected.
    public mutating func set(_ name: String, _ text: String) throws {
        func number() throws -> Double {
            guard let value = Double(text), value.isFinite, value >= 0 else {
                throw TextReelError("budget \(name) expects a number of at least 0, got '\(text)'")
            }
            return value
        }
        func count() throws -> Int {
            guard let value = Int(text), value >= 0 else { throw TextReelError("budget \(name) expects a whole number of at least 0, got '\(text)'") }
            return value
        }
        switch name {
        case "maxJump": maxJump = try number()
        case "maxCorrection": maxCorrection = try number()
        case "maxCreated": maxCreated = try count()
        case "maxRecreated": maxRecreated = try count()
        case "maxDiscarded": maxDiscarded = try count()
        case "maxEstimateError": maxEstimateError = try number()
        case "flicker":
            guard let value = Bool(text) else { throw TextReelError("budget flicker expects true or false, got '\(text)'") }
            flicker = value
        case "caretHidden":
            guard let value = Bool(text) else { throw TextReelError("budget caretHidden expects true or false, got '\(text)'") }
            caretHidden = value
        default:
            throw TextReelError("unknown budget '\(name)'; expected one of \(Self.names.joined(separator: ", "))")
        }
    }

    /// Parses "maxJump=0,flicker=false".
    public init(parsing list: String) throws {
        for item in list.split(separator: ",", omittingEmptySubsequences: true) {
            let parts = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2 else { throw TextReelError("budget '\(item)' is not name=value; expected e.g. maxJump=0") }
            try set(parts[0], parts[1])
        }
    }

    /// The limits as `name=value` pairs, for messages and case files.
    public var settings: [(name: String, value: String)] {
        var out: [(String, String)] = []
        func fmt(_ v: Double) -> String { NumberText.text(v) }
        if let maxJump { out.append(("maxJump", fmt(maxJump))) }
        if let maxCorrection { out.append(("maxCorrection", fmt(maxCorrection))) }
        if let maxCreated { out.append(("maxCreated", String(maxCreated))) }
        if let maxRecreated { out.append(("maxRecreated", String(maxRecreated))) }
        if let maxDiscarded { out.append(("maxDiscarded", String(maxDiscarded))) }
        if let flicker { out.append(("flicker", String(flicker))) }
        if let maxEstimateError { out.append(("maxEstimateError", fmt(maxEstimateError))) }
        if let caretHidden { out.append(("caretHidden", String(caretHidden))) }
        return out
    }

    /// A broken limit or invariant in one frame.
    public struct Violation: Sendable, Equatable, CustomStringConvertible {
        /// "invariant" or the budget's name.
        public var check: String
        /// The number of the frame that breaks it.
        public var frame: Int
        /// What broke, with the numbers and the limit.
        public var message: String
        public var description: String { "frame \(frame): \(message)" }
    }

    /// What frame `event` breaks: every invariant, then the limits set here.
    public func violations(of event: FrameEvent) -> [Violation] {
        let c = event.checks
        var out = c.errors.map { Violation(check: "invariant", frame: event.frame, message: $0) }
        func say(_ check: String, _ message: String) { out.append(Violation(check: check, frame: event.frame, message: message)) }
        let f = PassChecks.fmt
        if let maxJump, c.jump > maxJump {
            say("maxJump", "the content under the scroll anchor jumped \(f(c.jump)) pt (budget \(f(maxJump)))")
        }
        if let maxCorrection, abs(event.correction) > maxCorrection {
            let at = event.fragments.first.map { " at paragraph \($0.index)" } ?? ""
            say("maxCorrection", "a correction of \(f(event.correction)) pt\(at) (budget \(f(maxCorrection)))")
        }
        func ids(_ kind: AttachmentEvent.Kind) -> String {
            event.attachments.filter { $0.event == kind }.map(\.id).joined(separator: ", ")
        }
        if let maxCreated, c.created > maxCreated { say("maxCreated", "\(c.created) attachment views created (\(ids(.created))) (budget \(maxCreated))") }
        if let maxRecreated, c.recreated > maxRecreated { say("maxRecreated", "\(c.recreated) attachment views recreated (\(ids(.recreated))) (budget \(maxRecreated))") }
        if let maxDiscarded, c.discarded > maxDiscarded { say("maxDiscarded", "\(c.discarded) attachment views discarded (\(ids(.discarded))) (budget \(maxDiscarded))") }
        if flicker == false, !c.flicker.isEmpty { say("flicker", "attachment \(c.flicker.joined(separator: ", ")) flickers: drawn loading again after it had loaded") }
        if let maxEstimateError, abs(c.estimateError) > maxEstimateError {
            say("maxEstimateError", "height estimates are off by \(f(c.estimateError * 100))% of what was measured (budget \(f(maxEstimateError * 100))%)")
        }
        if caretHidden != true, c.caretHidden, let caret = event.selection {
            say("caretHidden", "the caret at paragraph \(caret.start[0]), offset \(caret.start[1]) is outside the visible rect after a step that reveals it")
        }
        return out
    }
}
