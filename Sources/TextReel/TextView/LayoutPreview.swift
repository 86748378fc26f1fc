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
    public var paragraphs: Int
    public var measuredParagraphs: Int
    public var visibleRect: Rect
    public var viewportBounds: Rect
    public var fragments: [Fragment]

    /// The preview of `view` after its last layout pass; `lastEvents` maps attachment ids to the
    /// last event seen for them.
    public init(view: TextView, frame: Int, time: Double, lastEvents: [String: String] = [:]) {
        let manager = view.textLayoutManager
        let visible = view.visibleRect
        self.frame = frame
        self.time = time
        documentHeight = manager.documentHeight
        measuredHeight = manager.measuredHeight
        paragraphs = manager.paragraphCount
        measuredParagraphs = manager.measuredParagraphCount
        visibleRect = Rect(visible)
        viewportBounds = Rect(view.textViewportLayoutController.viewportBounds)
        fragments = view.configuredFragments.map { fragment in
            let f = fragment.layoutFragmentFrame
            let words = fragment.paragraph.text.replacingOccurrences(of: TextAttachment.character, with: "▣")
                .split(whereSeparator: { $0.isWhitespace }).prefix(6).joined(separator: " ")
            return Fragment(
                paragraph: fragment.paragraph.id.rawValue,
                index: manager.index(of: fragment.paragraph.id) ?? -1,
                kind: fragment.paragraph.kind.name,
                top: f.minY, bottom: f.maxY,
                lines: fragment.textLineFragments.count,
                state: fragment.state.rawValue,
                visible: f.maxY > visible.minY && f.minY < visible.maxY,
                firstWords: String(words.prefix(48)),
                attachments: fragment.paragraph.attachments.map { attachment in
                    let view = view.attachmentView(id: attachment.id)
                    let state = view.map { v in
                        v.visibleState.keys.sorted().map { "\($0)=\(v.visibleState[$0]!)" }.joined(separator: " ")
                    } ?? "no view"
                    return Attachment(id: attachment.id, provider: attachment.scheme, state: state, lastEvent: lastEvents[attachment.id])
                })
        }
    }
}
