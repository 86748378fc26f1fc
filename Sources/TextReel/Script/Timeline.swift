import Foundation

/// The script laid out in frames: what happens before each frame is drawn. Frame 1 is time 0;
/// a step with a duration spans `duration × fps` frames; instant steps act on the next frame.
/// Each step kind puts itself on it (`ScriptStep.schedule`).
struct Timeline {
    /// One step's part, due before a frame.
    struct Action {
        let step: any ScriptStep
        /// The step's place in the script (-1: the script's top-level `register`).
        let index: Int
        let part: StepPart
    }

    struct Frame {
        var actions: [Action] = []
        var snapshots: [String] = []
    }

    let frames: [Frame]

    init(script: ScrollScript, maximumFrames: Int = ScrollScript.maximumFrames) throws {
        var builder = TimelineBuilder(fps: script.fps, maximumFrames: maximumFrames)
        if !script.registrations.isEmpty { builder.instant(RegisterStep(script.registrations), index: -1) }
        func check() throws {
            guard builder.overflowed else { return }
            throw TextReelError(file: script.fileName, "the script makes more than \(maximumFrames) frames; shorten its steps, lower fps, or raise the limit with --max-frames")
        }
        for (index, step) in script.steps.enumerated() {
            step.schedule(on: &builder, index: index)
            try check()
        }
        builder.finish()
        try check()
        frames = builder.produced
    }
}

/// What step kinds put on the timeline: instant actions for the next frame, frames of their
/// own, idle frames, snapshot names.
public struct TimelineBuilder {
    /// Frames per second of the script.
    public let fps: Double
    private let maximumFrames: Int
    private var pending = Timeline.Frame()
    fileprivate private(set) var produced: [Timeline.Frame] = []
    /// More frames than allowed were asked for (the rest are dropped).
    private(set) var overflowed = false

    init(fps: Double, maximumFrames: Int) {
        self.fps = fps
        self.maximumFrames = maximumFrames
    }

    /// Frames a duration spans at this frame rate (at least one).
    public func frameCount(_ duration: Double) -> Int { max(1, Int((duration * fps).rounded())) }

    /// `step` acts, all at once, before the next frame.
    public mutating func instant(_ step: any ScriptStep, index: Int) {
        pending.actions.append(Timeline.Action(step: step, index: index, part: .instant))
    }

    /// One frame per part of `step`.
    public mutating func frames(of step: any ScriptStep, index: Int, _ parts: [StepPart]) {
        startIfNeeded()
        for part in parts where !overflowed { emit([Timeline.Action(step: step, index: index, part: part)]) }
    }

    /// `count` frames where no step acts.
    public mutating func idle(_ count: Int) {
        startIfNeeded()
        for _ in 0..<count where !overflowed { emit([]) }
    }

    /// Names the frame that shows the steps so far.
    public mutating func snapshot(_ name: String) {
        startIfNeeded()
        if pending.actions.isEmpty {
            produced[produced.count - 1].snapshots.append(name)
        } else {
            pending.snapshots.append(name)
            emit([])
        }
    }

    /// Frame 1 shows the state after the leading instant steps.
    private mutating func startIfNeeded() {
        if produced.isEmpty { produced.append(pending); pending = Timeline.Frame() }
    }

    private mutating func emit(_ actions: [Timeline.Action]) {
        guard produced.count < maximumFrames else { overflowed = true; return }
        var frame = pending
        pending = Timeline.Frame()
        frame.actions += actions
        produced.append(frame)
    }

    fileprivate mutating func finish() {
        startIfNeeded()
        if !pending.actions.isEmpty { emit([]) }
    }
}
