import Foundation

/// One line of `events.jsonl`: what happened in one frame.
public struct FrameEvent: Encodable, Sendable {
    public struct Rect: Codable, Sendable, Equatable {
        public var x, y, width, height: Double
        init(_ r: CGRect) { x = r.minX; y = r.minY; width = r.width; height = r.height }
    }

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
}

/// `summary.json`: totals over a run.
public struct RunSummary: Encodable, Sendable {
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

    mutating func add(_ event: FrameEvent, written: Bool) {
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
    }
}
