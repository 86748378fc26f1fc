import Foundation

/// One line of `events.jsonl`: what happened in one frame.
public struct FrameEvent: Encodable, Sendable {
    /// Rects are in points, in document coordinates.
    public typealias Rect = LayoutRect

    /// A fragment handed to the delegate this frame: the pass's own record, written as its
    /// paragraph, index, frame, state and (when the view cuts part of it off) `clipped`.
    public typealias Fragment = LayoutPass.Fragment

    /// An edit a step made before this frame.
    public struct Edit: Encodable, Sendable {
        /// "insert", "delete", "insertParagraph" or "deleteParagraph".
        public var kind: String
        /// The id of the paragraph edited, inserted or deleted.
        public var paragraph: Int?
        /// That paragraph's index in the document.
        public var index: Int
    }

    /// The frame's number, from 1.
    public var frame: Int
    /// Script time, in seconds.
    public var time: Double
    /// The visible rect.
    public var viewport: Rect
    /// Pixels per point.
    public var scale: Double
    /// The visible rect plus overdraw, as laid out.
    public var viewportBounds: Rect
    /// The base delegate calls in order: "willLayout", "configure:<paragraph id>"…, "didLayout".
    public var pass: [String]
    /// Fragments handed to the delegate, top to bottom.
    public var fragments: [Fragment]
    /// Edits made before this frame.
    public var edits: [Edit]
    /// Points the content offset moved while the content stayed still (absorbed by the anchor).
    public var correction: Double
    /// Ids of the paragraphs shaped since the previous frame, in order.
    public var laidOut: [Int]
    /// Attachment view decisions since the previous frame.
    public var attachments: [AttachmentEvent]
    /// Snapshot names given to this frame.
    public var snapshots: [String]
    /// Fragment surfaces drawn this frame and composited from the cache.
    public var surfaceDraws: Int
    /// Fragment surfaces composited from the cache, not redrawn.
    public var surfaceHits: Int
    /// Attachment surfaces drawn this frame and composited from their cache.
    public var attachmentDraws: Int
    /// Attachment surfaces composited from their cache, not redrawn.
    public var attachmentHits: Int
    /// The invariants and measures checked after the pass.
    public var checks: PassChecks
    /// The selection and its caret after the pass (left out when there is none).
    public var selection: LayoutPass.Selection?

    /// The event of frame `number`, a view of its layout pass.
    init(frame number: Int, time: Double, pass: LayoutPass, edits: [Edit], snapshots: [String]) {
        frame = number
        self.time = time
        viewport = pass.visibleRect
        scale = pass.scale
        viewportBounds = pass.viewportBounds
        self.pass = pass.delegateCalls
        fragments = pass.fragments
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
        selection = pass.selection
    }
}

/// `summary.json`: totals over a run.
public struct RunSummary: Codable, Sendable {
    /// "complete" when the folder holds every frame of the script (of its part, for a shard);
    /// "partial" when the render finished but frames are missing (a `--frames` run: see
    /// `missingFrames`); "running", "failed" or "interrupted" for a render that did not finish,
    /// and `error` says why it stopped. Whatever the status, `frames` counts the frames run
    /// (each has its line in events.jsonl) and `framesWritten` the files this run wrote.
    public var status = "complete"
    /// The frames of the script the folder lacks ("51-99, 120") when the status is "partial".
    public var missingFrames: String?
    /// Why the run stopped, when it did not complete.
    public var error: String?
    /// What the frames depend on (see the CLI's `--frames`): a later run of part of the frames
    /// into the same folder must have the same.
    public var inputs: String?
    /// The part of a sharded render ("2/4: frames 35-68"); nil for a whole render.
    public var shard: String?
    /// Frames run.
    public var frames = 0
    /// Frames drawn and written as PNG.
    public var framesWritten = 0
    /// Frames written to standard output as a stream (`--format y4m`) instead of files.
    public var streamed: Int?
    /// Paragraph shapings, summed over the frames.
    public var laidOut = 0
    /// Fragment surfaces drawn afresh, summed.
    public var surfaceDraws = 0
    /// Fragment surfaces composited from the cache, summed.
    public var surfaceHits = 0
    /// Frames with a correction.
    public var corrections = 0
    /// The largest correction of any frame, in points (absolute).
    public var largestCorrection = 0.0
    /// Edits made, summed.
    public var edits = 0
    /// The frame number of each snapshot name.
    public var snapshots: [String: Int] = [:]
    /// Attachment events per provider type and kind.
    public var attachmentEvents: [String: [String: Int]] = [:]
    /// Attachment surfaces drawn afresh, summed.
    public var attachmentDraws = 0
    /// Attachment surfaces composited from their cache, summed.
    public var attachmentHits = 0
    /// The document's height after the last frame, in points (estimated where not measured).
    public var documentHeight = 0.0
    /// How many paragraphs the document has after the last frame.
    public var paragraphs = 0
    /// The per-frame checks, summed.
    public var checks = CheckTotals()
    /// Blocks and formulas drawn without the helper process (late, crashed or missing), each
    /// with why (`HelperProcess.incidents`); nil when there were none.
    public var drawnWithoutHelper: [String]?

    /// The per-frame checks summed over a run.
    public struct CheckTotals: Codable, Sendable {
        /// Frames with a broken invariant, and the first of them in words.
        public var framesWithErrors = 0
        /// The first broken invariant, as "frame N: …".
        public var firstError: String?
        /// The largest jump of any frame, in points.
        public var largestJump = 0.0
        /// Frames where the content under the anchor jumped.
        public var framesWithJumps = 0
        /// Attachment views created, summed.
        public var created = 0
        /// Attachment views recreated, summed.
        public var recreated = 0
        /// Attachment views discarded, summed.
        public var discarded = 0
        /// Frames where an attachment flickered.
        public var framesWithFlicker = 0
        /// The estimate error of largest magnitude of any frame (signed; 0.1: 10 % too high).
        public var largestEstimateError = 0.0
        /// Frames where the caret was hidden after a step that reveals it.
        public var framesWithCaretHidden = 0
    }

    /// A summary of no frames, status "complete".
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
        if c.caretHidden { checks.framesWithCaretHidden += 1 }
    }
}
