import Foundation

/// One line of `events.jsonl`: what happened in one frame.
public struct FrameEvent: Encodable, Sendable {
    public typealias Rect = LayoutRect

    public struct Fragment: Encodable, Sendable {
        public var paragraph: Int
        public var index: Int
        public var frame: Rect
        public var state: String
    }

    public struct Edit: Encodable, Sendable {
        public var kind: String
        public var paragraph: Int?
        public var index: Int
    }

    public var frame: Int
    public var time: Double
    public var viewport: Rect
    public var scale: Double
    public var viewportBounds: Rect
    public var pass: [String]
    public var fragments: [Fragment]
    public var edits: [Edit]
    public var correction: Double
    public var laidOut: [Int]
    public var attachments: [AttachmentEvent]
    public var snapshots: [String]
    /// Fragment surfaces drawn this frame and composited from the cache.
    public var surfaceDraws: Int
    public var surfaceHits: Int
    /// Attachment surfaces drawn this frame and composited from their cache.
    public var attachmentDraws: Int
    public var attachmentHits: Int
    public var checks: PassChecks

    /// The event of frame `number`, a view of its layout pass.
    init(frame number: Int, time: Double, pass: LayoutPass, edits: [Edit], snapshots: [String]) {
        frame = number
        self.time = time
        viewport = pass.visibleRect
        scale = pass.scale
        viewportBounds = pass.viewportBounds
        self.pass = pass.delegateCalls
        fragments = pass.fragments.map { Fragment(paragraph: $0.paragraph, index: $0.index, frame: $0.frame, state: $0.state.rawValue) }
        self.edits = edits
        correction = pass.correction
        laidOut = pass.shaped
        attachments = pass.attachmentEvents
        self.snapshots = snapshots
        surfaceDraws = pass.counters.surfaceDraws
        surfaceHits = pass.counters.surfaceHits
        attachmentDraws = pass.counters.attachmentDraws
        attachmentHits = pass.counters.attachmentHits
        checks = pass.checks
    }
}

/// `summary.json`: totals over a run.
public struct RunSummary: Encodable, Sendable {
    /// "complete", or "running", "failed" or "interrupted" for a render that did not finish:
    /// then `frames` counts the frames it finished, and `error` says why it stopped.
    public var status = "complete"
    public var error: String?
    /// What the frames depend on (see the CLI's `--frames`): a later run of part of the frames
    /// into the same folder must have the same.
    public var inputs: String?
    public var frames = 0
    public var framesWritten = 0
    public var laidOut = 0
    public var surfaceDraws = 0
    public var surfaceHits = 0
    public var corrections = 0
    public var largestCorrection = 0.0
    public var edits = 0
    public var snapshots: [String: Int] = [:]
    /// Attachment events per provider type and kind.
    public var attachmentEvents: [String: [String: Int]] = [:]
    public var attachmentDraws = 0
    public var attachmentHits = 0
    public var documentHeight = 0.0
    public var paragraphs = 0
    public var checks = CheckTotals()

    /// The per-frame checks summed over a run.
    public struct CheckTotals: Encodable, Sendable {
        /// Frames with a broken invariant, and the first of them in words.
        public var framesWithErrors = 0
        public var firstError: String?
        public var largestJump = 0.0
        public var framesWithJumps = 0
        public var created = 0
        public var recreated = 0
        public var discarded = 0
        public var framesWithFlicker = 0
        public var largestEstimateError = 0.0
    }

    public init() {}

    /// Counts one frame (`written` when it was drawn and written).
    public mutating func add(_ event: FrameEvent, written: Bool) {
        frames += 1
        if written { framesWritten += 1 }
        laidOut += event.laidOut.count
        surfaceDraws += event.surfaceDraws
        surfaceHits += event.surfaceHits
        if event.correction != 0 { corrections += 1 }
        largestCorrection = max(largestCorrection, abs(event.correction))
        edits += event.edits.count
        for name in event.snapshots { snapshots[name] = event.frame }
        for a in event.attachments { attachmentEvents[a.provider, default: [:]][a.event.rawValue, default: 0] += 1 }
        attachmentDraws += event.attachmentDraws
        attachmentHits += event.attachmentHits
        let c = event.checks
        if !c.errors.isEmpty {
            if checks.framesWithErrors == 0 { checks.firstError = "frame \(event.frame): \(c.errors[0])" }
            checks.framesWithErrors += 1
        }
        checks.largestJump = max(checks.largestJump, c.jump)
        if c.jump > 0 { checks.framesWithJumps += 1 }
        checks.created += c.created
        checks.recreated += c.recreated
        checks.discarded += c.discarded
        if !c.flicker.isEmpty { checks.framesWithFlicker += 1 }
        if abs(c.estimateError) > abs(checks.largestEstimateError) { checks.largestEstimateError = c.estimateError }
    }
}
