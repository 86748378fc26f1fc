import Foundation

/// Plays a scroll script on a text view, frame by frame: applies the steps due, lays out, draws
/// (or only lays out, to fast-forward outside `--frames`) and reports a `FrameEvent` per frame.
public final class ScriptRunner {
    /// The text view the script plays on.
    public let view: TextView
    /// The script being played.
    public let script: ScrollScript
    let timeline: Timeline
    /// What a scroll step fixed when it started (its distance and landing), by step index.
    var courses: [Int: ScrollStep.Course] = [:]
    /// How many frames ahead the leading overdraw looks.
    static let lookahead = 6
    /// The most the leading overdraw grows, in viewport heights.
    static let maximumLeadingOverdraw = 2.0

    /// Checks every step against `view` and lays out the timeline; throws when the script cannot run.
    public init(view: TextView, script: ScrollScript, maximumFrames: Int = ScrollScript.maximumFrames,
                maximumSteps: Int = ScrollScript.maximumSteps) throws {
        guard script.steps.count <= maximumSteps else {
            throw TextReelError(file: script.fileName, "the script has \(script.steps.count) steps, more than \(maximumSteps); split it, or raise the limit with --max-steps")
        }
        // Every size the view will have, before the first frame: a resize Cairo cannot draw
        // stops here at its step, not in the middle of a render.
        do { try ViewportLimits.check(view.viewportSize, scale: view.scale, theme: view.theme) } catch let error as TextReelError {
            throw TextReelError(file: script.fileName, error.message)
        }
        for (index, step) in script.steps.enumerated() {
            do { try step.check(for: view) } catch let error as TextReelError { throw script.error(step: index, error.message) }
        }
        self.view = view
        self.script = script
        timeline = try Timeline(script: script, maximumFrames: maximumFrames)
        view.overdraw = script.overdraw
        if let count = script.keptViewCount { view.maximumKeptAttachmentViews = count }
        if let bytes = script.keptViewBytes { view.maximumKeptAttachmentBytes = bytes }
        if let blink = script.caretBlink { view.caretBlinkInterval = blink }
    }

    /// How many frames the script makes.
    public var frameCount: Int { timeline.frames.count }

    /// Frame numbers (1-based) of each snapshot name.
    public var snapshots: [String: Int] {
        var result: [String: Int] = [:]
        for (i, frame) in timeline.frames.enumerated() { for name in frame.snapshots { result[name] = i + 1 } }
        return result
    }

    /// Runs every frame; draws those in `drawing` (all when nil) and hands each to `each` with its
    /// event (the frame is nil when only laid out).
    /// `through` stops after that frame.
    @discardableResult
    public func run(drawing: ClosedRange<Int>? = nil, through last: Int? = nil,
                    each: (Int, RenderedFrame?, FrameEvent) throws -> Void) throws -> RunSummary {
        try run(drawingWhere: { number in drawing.map { $0.contains(number) } ?? true }, through: last, each: each)
    }

    /// The same, drawing the frames `draws` picks (a golden case's snapshots, say): the others
    /// are laid out only, and the drawn ones have the pixels of a full run.
    @discardableResult
    public func run(drawingWhere draws: (Int) -> Bool, through last: Int? = nil,
                    each: (Int, RenderedFrame?, FrameEvent) throws -> Void) throws -> RunSummary {
        var summary = RunSummary()
        var lastDrawn: RenderedFrame?
        for (offset, planned) in timeline.frames.enumerated().prefix(last ?? timeline.frames.count) {
            let number = offset + 1
            view.time = Double(offset) / script.fps
            let edits = try apply(planned.actions)
            view.leadingOverdraw = leadingOverdraw(after: offset)
            let frame: RenderedFrame?, pass: LayoutPass
            // A frame in which nothing can have changed repeats the last one without a pass.
            let quiet = planned.actions.isEmpty ? view.repeatablePass() : nil
            if draws(number) {
                if let quiet, let last = lastDrawn {
                    frame = view.repeatFrame(last, pass: quiet)
                } else {
                    frame = try view.renderFrame()
                }
                pass = frame!.pass!
            } else if let quiet {
                view.passedQuietly()
                pass = quiet
                frame = nil
            } else {
                pass = try view.layoutPass()
                frame = nil
            }
            lastDrawn = frame
            let event = FrameEvent(frame: number, time: Double(offset) / script.fps, pass: pass,
                                   edits: edits, snapshots: planned.snapshots)
            summary.add(event, written: frame != nil)
            try each(number, frame, event)
        }
        summary.documentHeight = view.textLayoutManager.documentHeight
        summary.paragraphs = view.textLayoutManager.paragraphCount
        return summary
    }

    // MARK: Steps

    /// After a step that moved the caret by editing: the view follows it, and the frame's event
    /// names the edit (`kind`) in the caret's paragraph.
    func revealCaret(after kind: String) -> FrameEvent.Edit? {
        guard let range = view.selectedTextRange, let paragraph = view.textLayoutManager.index(of: range.start.paragraph) else { return nil }
        view.scrollRangeToVisible(range)
        return FrameEvent.Edit(kind: kind, paragraph: range.start.paragraph.rawValue, index: paragraph)
    }

    /// Runs the parts due before a frame; an error names its step's line and column.
    private func apply(_ actions: [Timeline.Action]) throws -> [FrameEvent.Edit] {
        var edits: [FrameEvent.Edit] = []
        for action in actions {
            do {
                if let edit = try action.step.perform(action.part, index: action.index, runner: self) { edits.append(edit) }
            } catch let error as TextReelError {
                throw script.error(step: action.index, error.message)
            }
        }
        return edits
    }

    /// Grows the overdraw on the side the next frames scroll towards, so layout is ready in time;
    /// at most `maximumLeadingOverdraw` viewports, since a scroll that crosses more in a few frames
    /// skips what lies between (the explorer found a far animated scroll laying out thousands of
    /// paragraphs a frame).
    private func leadingOverdraw(after offset: Int) -> (above: Double, below: Double) {
        var total = 0.0
        for frame in timeline.frames.dropFirst(offset + 1).prefix(Self.lookahead) {
            for action in frame.actions { total += action.step.motion(action.part, index: action.index, runner: self) }
        }
        let limit = Self.maximumLeadingOverdraw * view.viewportSize.height
        return (above: min(max(-total, 0), limit), below: min(max(total, 0), limit))
    }
}
