import Foundation

/// What a layout preview shows for one moment: the document's height (measured versus estimated),
/// the visible rect and overdraw band, and each fragment in the viewport bounds. Codable, so
/// `textreel preview --json` prints exactly this.
public struct LayoutPreview: Codable, Equatable, Sendable {
    /// Rects are in points, in document coordinates.
    public typealias Rect = FrameEvent.Rect

    /// An attachment in a fragment.
    public struct Attachment: Codable, Equatable, Sendable {
        /// The attachment's id.
        public var id: String
        /// The attachment's URL scheme ("video").
        public var provider: String
        /// The view's visible state ("playing 0:03", "focused \"Ada\"") or "no view".
        public var state: String
        /// The last event recorded for it, if any.
        public var lastEvent: String?
    }

    /// A fragment in the viewport bounds.
    public struct Fragment: Codable, Equatable, Sendable {
        /// The paragraph's id (`ParagraphID.rawValue`).
        public var paragraph: Int
        /// The paragraph's index in the document.
        public var index: Int
        /// The paragraph's kind, by `ParagraphKind.name` ("heading2").
        public var kind: String
        /// The frame's top, in document coordinates.
        public var top: Double
        /// The frame's bottom, in document coordinates.
        public var bottom: Double
        /// How many lines it has (0 when estimated).
        public var lines: Int
        /// "layoutAvailable" or "estimatedUsageBounds".
        public var state: String
        /// True when it intersects the visible rect; false when only in the overdraw band.
        public var visible: Bool
        /// The paragraph's first words (attachments as ▣).
        public var firstWords: String
        /// Its attachments, in text order.
        public var attachments: [Attachment]
        /// A table cut at the view's edge, remote images not fetched (nil: nothing to say).
        public var warnings: [String]?
    }

    /// The selection, and where its caret is.
    public struct Selection: Codable, Equatable, Sendable {
        /// Where it starts and ends: [paragraph id, UTF-8 offset].
        public var start: [Int], end: [Int]
        /// The caret's rect for an empty selection in the viewport bounds.
        public var caret: Rect?
        /// The caret's line in its paragraph (0 first), when its fragment is laid out.
        public var line: Int?
        /// How many highlight segments the selection draws.
        public var segments: Int

        /// In words: "caret at paragraph 3, offset 14, line 2" or "paragraph 1, offset 2 to paragraph 3, offset 5".
        public var summary: String {
            guard start == end else { return "paragraph \(start[0]), offset \(start[1]) to paragraph \(end[0]), offset \(end[1]) (\(segments) segments)" }
            let line = self.line.map { ", line \($0 + 1)" } ?? ""
            let at = caret.map { " at x \(Int($0.x.rounded())), y \(Int($0.y.rounded()))" } ?? " (not in the viewport bounds)"
            return "caret at paragraph \(start[0]), offset \(start[1])\(line)\(at)"
        }
    }

    /// The frame's number.
    public var frame: Int
    /// Script time, in seconds.
    public var time: Double
    /// The document's height with insets, in points (estimated until every paragraph is measured).
    public var documentHeight: Double
    /// The summed height of the measured paragraphs, in points.
    public var measuredHeight: Double
    /// The estimated part of the height (the insets are neither measured nor estimated).
    public var estimatedHeight: Double
    /// How many paragraphs the document has.
    public var paragraphs: Int
    /// How many of them are measured.
    public var measuredParagraphs: Int
    /// The visible rect.
    public var visibleRect: Rect
    /// The visible rect plus overdraw, as laid out.
    public var viewportBounds: Rect
    /// The fragments in the viewport bounds, top to bottom.
    public var fragments: [Fragment]
    /// The first selection (nil: none).
    public var selection: Selection?

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
                     },
                     warnings: f.warnings.isEmpty ? nil : f.warnings)
        }
        selection = pass.selection.map { s in
            let fragment = pass.fragments.first { $0.paragraph == s.start[0] }
            var line: Int?
            if let caret = s.caret, let fragment {
                let middle = caret.y + caret.height / 2
                line = fragment.lines.firstIndex { fragment.frame.y + $0.top <= middle && middle <= fragment.frame.y + $0.top + $0.height }
            }
            return Selection(start: s.start, end: s.end, caret: s.caret, line: line, segments: s.highlight.count)
        }
    }
}
