import Foundation

/// `{snapshot: "name"}`: names the frame that shows the steps before it (a golden case's frame).
public struct SnapshotStep: ScriptStep, Equatable {
    /// The snapshot's name (a golden case's frame name).
    public var name: String
    /// A step naming the frame `name`.
    public init(_ name: String) { self.name = name }

    public static let keys = ["snapshot"]

    public static func decode(_ key: String, from step: StepSource) throws -> any ScriptStep {
        SnapshotStep(try step.step.required(String.self, key))
    }

    public var json5: String { "{snapshot: \(JSON5Writer.quoted(name))}" }

    public func schedule(on timeline: inout TimelineBuilder, index: Int) { timeline.snapshot(name) }

    public func perform(_ part: StepPart, index: Int, runner: ScriptRunner) throws -> FrameEvent.Edit? { nil }
}
