import Foundation

/// What a layout preview shows for one moment: the document's height (measured versus estimated),
/// the visible rect and overdraw band, and each fragment in the viewport bounds. Codable, so
/// `textreel preview --json` prints exactly this.
public struct LayoutPreview: Codable, Equatable, Sendable {
    public typealias Rect = FrameEvent.Rect

    public struct Attachment: Codable, Equatable, Sendable {
        public var id: String
        public var provider: String
        /// The view's visible state ("playing 0:03", "focused \"Ada\"") or "no view".
        public var state: String
        /// The last event recorded for it, if any.
        public var lastEvent: String?
    }

    public struct Fragment: Codable, Equatable, Sendable {
        public var paragraph: Int
        public var index: Int
        public var kind: String
        public var top: Double
        public var bottom: Double
        public var lines: Int
        public var state: String
        /// True when it intersects the visible rect; false when only in the overdraw band.
        public var visible: Bool
        public var firstWords: String
        public var attachments: [Attachment]
    }

    public var frame: Int
    public var time: Double
    public var documentHeight: Double
    public var measuredHeight: Double
    /// The estimated part of the height (the insets are neither measured nor estimated).
    public var estimatedHeight: Double
    public var paragraphs: Int
    public var measuredParagraphs: Int
    public var visibleRect: Rect
    public var viewportBounds: Rect
    public var fragments: [Fragment]

    /// The preview of a layout pass; `lastEvents` maps attachment ids to the last event seen
    /// for them.
    public init(_ pass: LayoutPass, frame: Int, time: Double, lastEvents: [String: String] = [:]) {
        let visible = pass.visibleRect
        self.frame = frame
        self.time = time
        documentHeight = pass.documentHeight
        measuredHeight = pass.measuredHeight
        estimatedHeight = pass.estimatedHeight
        paragraphs = pass.paragraphCount
        measuredParagraphs = pass.measuredParagraphCount
        visibleRect = visible
        viewportBounds = pass.viewportBounds
        fragments = pass.fragments.map { f in
            Fragment(paragraph: f.paragraph, index: f.index, kind: f.kind, top: f.frame.minY, bottom: f.frame.maxY,
                     lines: f.lines.count, state: f.state.rawValue,
                     visible: f.frame.maxY > visible.minY && f.frame.minY < visible.maxY,
                     firstWords: f.firstWords,
                     attachments: f.attachments.map {
                         Attachment(id: $0.id, provider: $0.provider, state: $0.state, lastEvent: lastEvents[$0.id])
                     })
        }
    }
}
