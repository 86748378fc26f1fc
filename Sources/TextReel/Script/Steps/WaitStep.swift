import Foundation

/// `{wait: seconds}`: frames where nothing is scrolled (videos play on).
public struct WaitStep: ScriptStep, Equatable {
    /// How long to wait, in seconds.
    public var seconds: Double
    /// A wait of `seconds`.
    public init(_ seconds: Double) { self.seconds = seconds }

    public static let keys = ["wait"]

    public static func decode(_ key: String, from step: StepSource) throws -> any ScriptStep {
        WaitStep(try step.step.number(key, in: 0...3600))
    }

    public var json5: String { "{wait: \(JSON5Writer.number(seconds))}" }

    public func schedule(on timeline: inout TimelineBuilder, index: Int) {
        timeline.idle(seconds > 0 ? timeline.frameCount(seconds) : 0)
    }

    public func perform(_ part: StepPart, index: Int, runner: ScriptRunner) throws -> FrameEvent.Edit? { nil }

}
