import Foundation

/// `{register: [{provider: "video", policies: ["onScrollingOutOfViewport"]}]}`: reuse policies
/// per provider type, from this frame on (a script's top-level `register` applies before frame 1).
public struct RegisterStep: ScriptStep, Equatable {
    /// The provider types and their policies, applied in order.
    public var registrations: [ScrollScript.Registration]
    /// A step applying `registrations`.
    public init(_ registrations: [ScrollScript.Registration]) { self.registrations = registrations }

    public static let keys = ["register"]

    public static func decode(_ key: String, from step: StepSource) throws -> any ScriptStep {
        RegisterStep(try step.step.required([ScrollScript.Registration].self, key))
    }

    public var json5: String {
        let written = registrations.map { r in
            "{provider: \(JSON5Writer.quoted(r.provider)), policies: [\(r.policy.memberNames.map { "\"\($0)\"" }.joined(separator: ", "))]}"
        }
        return "{register: [\(written.joined(separator: ", "))]}"
    }

    public func schedule(on timeline: inout TimelineBuilder, index: Int) { timeline.instant(self, index: index) }

    public func perform(_ part: StepPart, index: Int, runner: ScriptRunner) throws -> FrameEvent.Edit? {
        let view = runner.view
        for registration in registrations {
            if let type = view.providers.type(named: registration.provider) {
                view.register(registration.policy, forTextAttachmentViewProviderType: type)
            }
        }
        return nil
    }
}
