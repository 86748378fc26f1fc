import Foundation

/// `{fling: {velocity: pt/s, deceleration: "normal" | "fast"}}`: a flick that decelerates like
/// UIScrollView's.
public struct FlingStep: ScriptStep, Equatable {
    /// Initial speed in points per second; positive scrolls towards the end.
    public var velocity: Double
    /// How fast it slows down.
    public var deceleration: ScrollScript.Deceleration

    /// A fling at `velocity` points per second.
    public init(velocity: Double, deceleration: ScrollScript.Deceleration = .normal) {
        self.velocity = velocity; self.deceleration = deceleration
    }

    public static let keys = ["fling"]

    public static func decode(_ key: String, from step: StepSource) throws -> any ScriptStep {
        let f = try step.object(allowed: ["velocity", "deceleration"])
        return FlingStep(velocity: try f.number("velocity", in: -100_000...100_000),
                         deceleration: try f.choice(ScrollScript.Deceleration.self, "deceleration", default: .normal))
    }

    public var json5: String { "{fling: {velocity: \(JSON5Writer.number(velocity)), deceleration: \"\(deceleration.rawValue)\"}}" }

    public func schedule(on timeline: inout TimelineBuilder, index: Int) {
        timeline.frames(of: self, index: index, Self.deltas(velocity: velocity, rate: deceleration.rate, fps: timeline.fps).map { .delta($0) })
    }

    public func perform(_ part: StepPart, index: Int, runner: ScriptRunner) throws -> FrameEvent.Edit? {
        if case .delta(let delta) = part { runner.view.scroll(by: delta) }
        return nil
    }

    public func motion(_ part: StepPart, index: Int, runner: ScriptRunner) -> Double {
        if case .delta(let delta) = part { return delta }
        return 0
    }

    /// A fling decelerates like UIScrollView: velocity × rateᵗ (t in ms); it stops below 10 pt/s.
    static func deltas(velocity: Double, rate: Double, fps: Double) -> [Double] {
        let speed = abs(velocity)
        guard speed > 10 else { return [] }
        let perMs = velocity / 1000
        let stopMs = log(10 / speed) / log(rate)
        let dt = 1000 / fps
        let n = min(Int((stopMs / dt).rounded(.up)), Int(fps * 60))
        func position(_ t: Double) -> Double { perMs * (pow(rate, t) - 1) / log(rate) }
        return (1...max(n, 1)).map { position(Double($0) * dt) - position(Double($0 - 1) * dt) }
    }

}
