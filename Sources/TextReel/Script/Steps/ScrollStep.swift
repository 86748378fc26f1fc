import Foundation

/// `{scroll: {to: y | by: dy | toParagraph: n | toHeading: "…" | toAttachment: "id", duration,
/// curve, align, exact}}`: an animated or instant scroll. A target is followed where it is on
/// every frame, so corrections met on the way never show up as a jump at the end.
public struct ScrollStep: ScriptStep, Equatable {
    /// Where a scroll goes.
    public enum Target: Sendable, Equatable {
        /// An absolute y: where the (partly estimated) coordinates put it, or with `exact: true`
        /// after measuring the paragraphs above it.
        case to(Double, exact: Bool = false)
        /// By `dy` points from where the scroll starts (negative: up).
        case by(Double)
        /// To a paragraph by index (0-based), aligned in the viewport.
        case toParagraph(Int, ScrollScript.Align)
        /// To the heading with this title, aligned in the viewport.
        case toHeading(String, ScrollScript.Align)
        /// To the attachment with this id (its own box), aligned in the viewport.
        case toAttachment(String, ScrollScript.Align)
    }

    /// Where it goes.
    public var target: Target
    /// How long it takes, in seconds (0: at once).
    public var duration: Double
    /// How the animation eases.
    public var curve: ScrollScript.Curve

    /// A scroll to `target`, instant unless `duration` is given.
    public init(_ target: Target, duration: Double = 0, curve: ScrollScript.Curve = .easeInOut) {
        self.target = target; self.duration = duration; self.curve = curve
    }

    // MARK: Reading and writing

    public static let keys = ["scroll"]

    public static func decode(_ key: String, from step: StepSource) throws -> any ScriptStep {
        let s = try step.object(allowed: ["to", "by", "toParagraph", "toHeading", "toAttachment", "duration", "curve", "align", "exact"])
        let targets = ["to", "by", "toParagraph", "toHeading", "toAttachment"].filter(s.has)
        guard targets.count == 1 else {
            throw s.impossible(targets.dropFirst().first ?? "to", "a scroll has exactly one of to, by, toParagraph, toHeading, toAttachment")
        }
        let align = try s.choice(ScrollScript.Align.self, "align", default: .top)
        if s.has("exact") && targets.first != "to" {
            throw s.impossible("exact", "exact goes with an absolute target (to: y); toParagraph, toHeading and toAttachment always land exactly")
        }
        let target: Target = switch targets[0] {
        case "to": .to(try s.number("to", in: 0...1e12), exact: try s.optional(Bool.self, "exact") ?? false)
        case "by": .by(try s.number("by", in: -1e12...1e12))
        case "toParagraph": .toParagraph(try s.index("toParagraph"), align)
        case "toHeading": .toHeading(try s.required(String.self, "toHeading"), align)
        default: .toAttachment(try s.required(String.self, "toAttachment"), align)
        }
        return ScrollStep(target, duration: try s.number("duration", default: 0, in: 0...3600),
                          curve: try s.choice(ScrollScript.Curve.self, "curve", default: .easeInOut))
    }

    public var json5: String {
        let n = JSON5Writer.number, q = JSON5Writer.quoted
        let written = switch target {
        case .to(let y, let exact): "to: \(n(y))" + (exact ? ", exact: true" : "")
        case .by(let dy): "by: \(n(dy))"
        case .toParagraph(let index, let align): "toParagraph: \(index), align: \"\(align.rawValue)\""
        case .toHeading(let title, let align): "toHeading: \(q(title)), align: \"\(align.rawValue)\""
        case .toAttachment(let id, let align): "toAttachment: \(q(id)), align: \"\(align.rawValue)\""
        }
        return duration > 0 ? "{scroll: {\(written), duration: \(n(duration)), curve: \"\(curve.rawValue)\"}}" : "{scroll: {\(written)}}"
    }

    // MARK: Frames

    public func schedule(on timeline: inout TimelineBuilder, index: Int) {
        guard duration > 0 else { return timeline.instant(self, index: index) }
        let n = timeline.frameCount(duration)
        timeline.frames(of: self, index: index, (1...n).map { k in
            .progress(from: curve(Double(k - 1) / Double(n)), to: curve(Double(k) / Double(n)))
        })
    }

    /// What a scroll fixed when it started: the distance to cover and where it lands.
    struct Course: Sendable {
        var distance: Double
        var landing: Landing
    }

    /// Where a scroll lands: an absolute y, or a place in a paragraph that moves with it.
    enum Landing: Sendable {
        case y(Double, exact: Bool)
        case paragraph(ParagraphID, offset: Double)
    }

    public func perform(_ part: StepPart, index: Int, runner: ScriptRunner) throws -> FrameEvent.Edit? {
        let view = runner.view
        let (from, to) = part.span
        // The course is fixed when the step starts; from there on the target is followed where it is.
        let course: Course
        if from > 0, let started = runner.courses[index] {
            course = started
        } else {
            let landing = try resolve(view)
            course = Course(distance: Self.y(of: landing, in: view) - view.contentOffset.y, landing: landing)
            runner.courses[index] = course
        }
        if case .by = target {
            // Moving by deltas keeps visible content moving exactly by them.
            view.scroll(by: course.distance * (to - from))
        } else if to >= 1 {
            switch course.landing {
            case .paragraph(let id, let offset): view.scroll(toParagraph: id, offset: offset)
            case .y(let y, let exact): view.scroll(toY: y, exact: exact)
            }
        } else {
            let remaining = Self.y(of: course.landing, in: view) - view.contentOffset.y
            view.scroll(by: remaining * (to - from) / (1 - from))
        }
        return nil
    }

    public func motion(_ part: StepPart, index: Int, runner: ScriptRunner) -> Double {
        let (from, to) = part.span
        return (runner.courses[index]?.distance ?? 0) * (to - from)
    }

    /// Where `landing` is now, clamped to the document.
    private static func y(of landing: Landing, in view: TextView) -> Double {
        let manager = view.textLayoutManager
        let y = switch landing {
        case .y(let target, _): target
        case .paragraph(let id, let offset): manager.index(of: id).map { manager.y(ofParagraphAt: $0) + offset } ?? view.contentOffset.y
        }
        return min(max(y, 0), view.maximumContentOffset)
    }

    /// The landing the target asks for. Paragraph targets anchor to their paragraph, so a far jump
    /// lays out one viewport whatever the distance; only the target itself is shaped here (its
    /// height places center and bottom alignments and attachment boxes).
    private func resolve(_ view: TextView) throws -> Landing {
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
        case .by(let delta):
            return .y(view.contentOffset.y + delta, exact: false)
        case .to(let y, let exact):
            if exact { view.measureParagraphs(above: y) }
            return .y(y, exact: exact)
        case .toParagraph(let index, let align):
            guard index < manager.paragraphCount else {
                throw TextReelError("paragraph \(index) does not exist; the document has paragraphs 0 to \(manager.paragraphCount - 1)")
            }
            return landing(index, box: nil, align)
        case .toHeading(let title, let align):
            guard let index = manager.document.index(ofHeading: title) else { throw TextReelError("no heading '\(title)' in the document") }
            return landing(index, box: nil, align)
        case .toAttachment(let id, let align):
            guard let index = manager.document.index(ofAttachment: id) else { throw TextReelError("no attachment '\(id)' in the document") }
            let box = manager.ensureLayout(forParagraphAt: index).frameForTextAttachment(id: id) ?? .zero
            return landing(index, box: box, align)
        }
    }

}

extension StepPart {
    /// The progress a part covers (an instant step goes all the way at once).
    var span: (from: Double, to: Double) {
        if case .progress(let from, let to) = self { return (from, to) }
        return (0, 1)
    }
}
