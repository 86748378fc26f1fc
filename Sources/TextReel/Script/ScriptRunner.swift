import Foundation

/// Plays a scroll script on a text view, frame by frame: applies the steps due, lays out, draws
/// (or only lays out, to fast-forward outside `--frames`) and reports a `FrameEvent` per frame.
public final class ScriptRunner {
    public let view: TextView
    public let script: ScrollScript
    let timeline: Timeline
    /// Resolved scroll steps: the distance to cover, fixed when the step starts.
    private var scrollDeltas: [Int: Double] = [:]
    /// Absolute scroll steps: where each lands, followed through corrections.
    private var landings: [Int: Landing] = [:]
    /// How many frames ahead the leading overdraw looks.
    static let lookahead = 6
    /// The most the leading overdraw grows, in viewport heights.
    static let maximumLeadingOverdraw = 2.0

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
        for (step, kind) in script.steps.enumerated() {
            guard case .resize(let width, let height) = kind else { continue }
            do { try ViewportLimits.check(CGSize(width: width, height: height), scale: view.scale, theme: view.theme) } catch let error as TextReelError {
                throw script.error(step: step, "resize: " + error.message)
            }
        }
        self.view = view
        self.script = script
        timeline = try Timeline(script: script, maximumFrames: maximumFrames)
        view.overdraw = script.overdraw
        if let count = script.keptViewCount { view.maximumKeptAttachmentViews = count }
        if let bytes = script.keptViewBytes { view.maximumKeptAttachmentBytes = bytes }
    }

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
        for (offset, planned) in timeline.frames.enumerated().prefix(last ?? timeline.frames.count) {
            let number = offset + 1
            view.time = Double(offset) / script.fps
            let edits = try apply(planned.actions)
            view.leadingOverdraw = leadingOverdraw(after: offset)
            let frame: RenderedFrame?, pass: LayoutPass
            if draws(number) {
                frame = try view.renderFrame()
                pass = frame!.pass!
            } else {
                pass = try view.layoutPass()
                frame = nil
            }
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

    private func apply(_ actions: [Timeline.Action]) throws -> [FrameEvent.Edit] {
        var edits: [FrameEvent.Edit] = []
        for action in actions {
            switch action {
            case .scroll(let step, let target, let from, let to):
                try scroll(step: step, target: target, from: from, to: to)
            case .fling(let delta):
                view.scroll(by: delta)
            case .edit(let step, let edit):
                do { edits.append(try apply(edit)) } catch let error as TextReelError {
                    throw script.error(step: step, error.message)
                }
            case .resize(let width, let height):
                view.resize(to: CGSize(width: width, height: height))
            case .setNeedsLayout:
                view.textViewportLayoutController.setNeedsLayout()
            case .attachment(let step, let id, let action):
                do { try view.perform(action, onAttachment: id) } catch let error as TextReelError {
                    throw script.error(step: step, error.message)
                }
            case .register(let registrations):
                for registration in registrations {
                    if let type = view.providers.type(named: registration.provider) {
                        view.register(registration.policy, forTextAttachmentViewProviderType: type)
                    }
                }
            }
        }
        return edits
    }

    private func scroll(step: Int, target: ScrollScript.ScrollTarget, from: Double, to: Double) throws {
        if case .by(let delta) = target {
            // Moving by deltas keeps visible content moving exactly by them.
            if from == 0 { scrollDeltas[step] = min(max(view.contentOffset.y + delta, 0), view.maximumContentOffset) - view.contentOffset.y }
            view.scroll(by: scrollDeltas[step]! * (to - from))
            return
        }
        if from == 0 {
            // From here on the target is followed where it is now, so corrections met on the way
            // never show up as a jump at the end.
            let landing = try resolve(target, step: step)
            landings[step] = landing
            scrollDeltas[step] = y(of: landing) - view.contentOffset.y
        }
        let landing = landings[step]!
        if to >= 1 {
            switch landing {
            case .paragraph(let id, let offset): view.scrollPosition.scroll(toParagraph: id, offset: offset)
            case .y(let y, let exact): view.scroll(toY: y, exact: exact)
            }
        } else {
            let remaining = y(of: landing) - view.contentOffset.y
            view.scroll(by: remaining * (to - from) / (1 - from))
        }
    }

    /// Where a scroll lands: an absolute y, or a place in a paragraph that moves with it.
    enum Landing {
        case y(Double, exact: Bool)
        case paragraph(ParagraphID, offset: Double)
    }

    /// Where `landing` is now, clamped to the document.
    private func y(of landing: Landing) -> Double {
        let manager = view.textLayoutManager
        let y: Double
        switch landing {
        case .y(let target, _): y = target
        case .paragraph(let id, let offset): y = manager.index(of: id).map { manager.y(ofParagraphAt: $0) + offset } ?? view.contentOffset.y
        }
        return min(max(y, 0), view.maximumContentOffset)
    }

    /// The landing a target asks for. Paragraph targets anchor to their paragraph, so a far jump
    /// lays out one viewport whatever the distance; only the target itself is shaped here (its
    /// height places center and bottom alignments and attachment boxes).
    private func resolve(_ target: ScrollScript.ScrollTarget, step: Int) throws -> Landing {
        let manager = view.textLayoutManager
        let height = view.viewportSize.height
        func landing(_ index: Int, box: CGRect?, _ align: ScrollScript.Align) -> Landing {
            let fragment = manager.ensureLayout(forParagraphAt: index)
            let region = box ?? CGRect(x: 0, y: 0, width: 0, height: fragment.layoutFragmentFrame.height)
            let offset = switch align {
            case .top: region.minY
            case .center: region.midY - height / 2
            case .bottom: region.maxY - height
            }
            return .paragraph(manager.document.paragraphs[index].id, offset: offset)
        }
        switch target {
        case .by:
            preconditionFailure("relative scrolls are not resolved")
        case .to(let y, let exact):
            if exact { view.measureParagraphs(above: y) }
            return .y(y, exact: exact)
        case .toParagraph(let index, let align):
            guard index < manager.paragraphCount else {
                throw script.error(step: step, "paragraph \(index) does not exist; the document has paragraphs 0 to \(manager.paragraphCount - 1)")
            }
            return landing(index, box: nil, align)
        case .toHeading(let title, let align):
            guard let index = manager.document.index(ofHeading: title) else {
                throw script.error(step: step, "no heading '\(title)' in the document")
            }
            return landing(index, box: nil, align)
        case .toAttachment(let id, let align):
            guard let index = manager.document.index(ofAttachment: id) else {
                throw script.error(step: step, "no attachment '\(id)' in the document")
            }
            let box = manager.ensureLayout(forParagraphAt: index).frameForTextAttachment(id: id) ?? .zero
            return landing(index, box: box, align)
        }
    }

    private func apply(_ edit: ScrollScript.Edit) throws -> FrameEvent.Edit {
        let paragraphs = view.document.paragraphs
        switch edit {
        case .insert(let index, let text, let at):
            try view.insertText(text, inParagraphAt: index, atCharacter: at)
            return FrameEvent.Edit(kind: "insert", paragraph: paragraphs[index].id.rawValue, index: index)
        case .delete(let index, let from, let length):
            try view.deleteText(inParagraphAt: index, fromCharacter: from, length: length)
            return FrameEvent.Edit(kind: "delete", paragraph: paragraphs[index].id.rawValue, index: index)
        case .insertParagraph(let markdown, let after):
            try view.insertParagraphs(markdown: markdown, after: after)
            return FrameEvent.Edit(kind: "insertParagraph", paragraph: view.document.paragraphs[after + 1].id.rawValue, index: after + 1)
        case .deleteParagraph(let index):
            let id = index < paragraphs.count ? paragraphs[index].id.rawValue : nil
            try view.deleteParagraph(at: index)
            return FrameEvent.Edit(kind: "deleteParagraph", paragraph: id, index: index)
        }
    }

    /// Grows the overdraw on the side the next frames scroll towards, so layout is ready in time;
    /// at most `maximumLeadingOverdraw` viewports, since a scroll that crosses more in a few frames
    /// skips what lies between (the explorer found a far animated scroll laying out thousands of
    /// paragraphs a frame).
    private func leadingOverdraw(after offset: Int) -> (above: Double, below: Double) {
        var total = 0.0
        for frame in timeline.frames.dropFirst(offset + 1).prefix(Self.lookahead) {
            for action in frame.actions {
                switch action {
                case .fling(let delta): total += delta
                case .scroll(let step, _, let from, let to): total += (scrollDeltas[step] ?? 0) * (to - from)
                default: break
                }
            }
        }
        let limit = Self.maximumLeadingOverdraw * view.viewportSize.height
        return (above: min(max(-total, 0), limit), below: min(max(total, 0), limit))
    }
}
