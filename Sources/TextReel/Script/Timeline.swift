import Foundation

/// The script laid out in frames: what happens before each frame is drawn. Frame 1 is time 0;
/// a step with a duration spans `duration × fps` frames; instant steps act on the next frame.
struct Timeline {
    enum Action: Equatable {
        /// Part of a scroll step: eased progress goes from `from` to `to` (0…1) on this frame.
        case scroll(step: Int, target: ScrollScript.ScrollTarget, from: Double, to: Double)
        /// A fling's precomputed displacement on this frame.
        case fling(delta: Double)
        case edit(step: Int, ScrollScript.Edit)
        case resize(width: Double, height: Double)
        case setNeedsLayout
        case attachment(step: Int, id: String, AttachmentAction)
        case register([ScrollScript.Registration])
    }

    struct Frame {
        var actions: [Action] = []
        var snapshots: [String] = []
    }

    private(set) var frames: [Frame] = []

    init(script: ScrollScript, maximumFrames: Int = ScrollScript.maximumFrames) throws {
        var pending = Frame()
        if !script.registrations.isEmpty { pending.actions.append(.register(script.registrations)) }
        var produced: [Frame] = []
        /// Frame 1 shows the state after the leading instant steps.
        func startIfNeeded() {
            if produced.isEmpty { produced.append(pending); pending = Frame() }
        }
        func emit(_ actions: [Action]) throws {
            var frame = pending
            pending = Frame()
            frame.actions += actions
            produced.append(frame)
            guard produced.count <= maximumFrames else {
                throw TextReelError(file: script.fileName, "the script makes more than \(maximumFrames) frames; shorten its steps, lower fps, or raise the limit with --max-frames")
            }
        }
        func frameCount(_ duration: Double) -> Int { max(1, Int((duration * script.fps).rounded())) }

        for (index, step) in script.steps.enumerated() {
            switch step {
            case .scroll(let target, 0, _):
                pending.actions.append(.scroll(step: index, target: target, from: 0, to: 1))
            case .scroll(let target, let duration, let curve):
                startIfNeeded()
                let n = frameCount(duration)
                for k in 1...n {
                    try emit([.scroll(step: index, target: target,
                                      from: curve(Double(k - 1) / Double(n)), to: curve(Double(k) / Double(n)))])
                }
            case .fling(let velocity, let deceleration):
                startIfNeeded()
                for delta in Self.flingDeltas(velocity: velocity, rate: deceleration.rate, fps: script.fps) {
                    try emit([.fling(delta: delta)])
                }
            case .wait(let duration):
                startIfNeeded()
                if duration > 0 { for _ in 0..<frameCount(duration) { try emit([]) } }
            case .edit(let edit):
                pending.actions.append(.edit(step: index, edit))
            case .resize(let width, let height):
                pending.actions.append(.resize(width: width, height: height))
            case .setNeedsLayout:
                pending.actions.append(.setNeedsLayout)
            case .attachment(let id, let action):
                pending.actions.append(.attachment(step: index, id: id, action))
            case .register(let registrations):
                pending.actions.append(.register(registrations))
            case .snapshot(let name):
                startIfNeeded()
                if pending.actions.isEmpty {
                    produced[produced.count - 1].snapshots.append(name)
                } else {
                    pending.snapshots.append(name)
                    try emit([])
                }
            }
        }
        startIfNeeded()
        if !pending.actions.isEmpty { try emit([]) }
        frames = produced
    }

    /// A fling decelerates like UIScrollView: velocity × rateᵗ (t in ms); it stops below 10 pt/s.
    static func flingDeltas(velocity: Double, rate: Double, fps: Double) -> [Double] {
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
