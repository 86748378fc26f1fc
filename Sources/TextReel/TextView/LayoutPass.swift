import Foundation

/// Everything one layout pass decided, as a value the next stages read instead of reaching into
/// the layout manager, the controller, the attachment host or the renderer: the fragments with
/// their frames, lines and attachments, the viewport, the delegate calls, the correction the
/// anchor absorbed, the paragraphs shaped, the attachment decisions, the cache counters and the
/// checks. `FrameEvent`, `LayoutPreview` and golden `layout.json` are views of it.
public struct LayoutPass: Sendable {
    /// One line of a fragment.
    public struct Line: Sendable, Equatable {
        /// UTF-8 byte offset where the line starts.
        public var start: Int
        /// Top and height of the line's typographic bounds, relative to the fragment.
        public var top: Double
        /// Height of the line's typographic bounds, in points.
        public var height: Double
    }

    /// An attachment in a fragment.
    public struct Attachment: Sendable, Equatable {
        /// The attachment's id.
        public var id: String
        /// The provider's URL scheme ("video", "drawing" …).
        public var provider: String
        /// Relative to the fragment's frame.
        public var frame: LayoutRect
        /// The view's visible state after the pass ("playing=true time=3" …), or "no view".
        public var state: String
    }

    /// A fragment handed to the delegate in the pass.
    public struct Fragment: Sendable, Equatable {
        /// The paragraph's id (`ParagraphID.rawValue`).
        public var paragraph: Int
        /// The paragraph's index in the document.
        public var index: Int
        /// The paragraph's kind, by `ParagraphKind.name` ("heading2").
        public var kind: String
        /// `layoutFragmentFrame`, in document coordinates.
        public var frame: LayoutRect
        /// `renderingSurfaceBounds`, in document coordinates.
        public var surfaceBounds: LayoutRect
        /// Shaped, or only estimated.
        public var state: TextLayoutFragment.State
        /// Its lines, top to bottom (none when estimated).
        public var lines: [Line]
        /// Its attachments, in text order.
        public var attachments: [Attachment]
        /// The paragraph's text (shared, not copied), for previews.
        public var text: String
        /// What of the fragment the view cuts off (a table wider than the view even at its
        /// columns' narrowest), nil when all of it shows.
        public var clipped: String? = nil
        /// What a reader should know about the fragment: it is cut off (`clipped`), and which
        /// remote images in it were not fetched.
        public var warnings: [String] = []

        /// The paragraph's first words, for previews (attachments as ▣).
        public var firstWords: String {
            let words = text.prefix(400).replacingOccurrences(of: TextAttachment.character, with: "▣")
                .split(whereSeparator: { $0.isWhitespace }).prefix(6).joined(separator: " ")
            return String(words.prefix(48))
        }
    }

    /// Surfaces drawn and reused by the frame drawn after the pass (zero when it was not drawn).
    public typealias Counters = RenderCounters

    /// The visible rect, in document coordinates.
    public var visibleRect: LayoutRect
    /// The visible rect plus overdraw, as laid out.
    public var viewportBounds: LayoutRect
    /// Pixels per point.
    public var scale: Double
    /// Estimated until every paragraph is measured.
    public var documentHeight: Double
    /// The summed height of the measured paragraphs, in points.
    public var measuredHeight: Double
    /// The height of the paragraphs not measured yet (estimates).
    public var estimatedHeight: Double
    /// How many paragraphs the document has.
    public var paragraphCount: Int
    /// How many of them are measured.
    public var measuredParagraphCount: Int
    /// The base delegate calls in order: "willLayout", "configure:<paragraph id>"…, "didLayout".
    public var delegateCalls: [String]
    /// Fragments handed to the delegate, top to bottom.
    public var fragments: [Fragment]
    /// Points the content offset moved while the content stayed still (absorbed by the anchor).
    public var correction: Double
    /// Ids of the paragraphs shaped since the previous pass, in order.
    public var shaped: [Int]
    /// Attachment view decisions since the previous pass.
    public var attachmentEvents: [AttachmentEvent]
    /// Surfaces drawn and reused by the frame drawn after the pass (zero when it was not drawn).
    public var counters = Counters()
    /// The invariants and measures checked after the pass.
    public var checks: PassChecks
    /// The first selection as drawn after the pass (nil: none).
    public var selection: Selection?

    /// A selection as a pass sees it: its range, affinity, and where its highlight and caret are,
    /// in document coordinates (only on fragments the pass configured).
    public struct Selection: Encodable, Sendable, Equatable {
        /// Start and end: paragraph id and UTF-8 offset each.
        public var start: [Int], end: [Int]
        /// "upstream" or "downstream".
        public var affinity: String
        /// The caret's rect, for an empty selection in the viewport bounds.
        public var caret: LayoutRect?
        /// The highlight's rects, a piece per line and direction run.
        public var highlight: [LayoutRect]
        /// The underlines of marked (uncommitted) text, when there is some.
        public var marked: [LayoutRect]?
    }
}

extension LayoutPass.Fragment {
    /// The record of `fragment`, at `index`; `viewState` names an attachment view's state.
    init(_ fragment: TextLayoutFragment, index: Int, viewState: (String) -> String) {
        let f = fragment.layoutFragmentFrame
        let tableCut = fragment.shaped?.table?.overflow, mathCut = LayoutPass.mathOverflow(of: fragment)
        var warnings: [String] = []
        if let tableCut { warnings.append("table cut: \(tableCut)") }
        if let mathCut { warnings.append("math cut: \(mathCut)") }
        warnings += fragment.paragraph.attachments.filter(\.isNotFetched).map { "remote image not fetched: \($0.url)" }
        // A formula is typeset, a diagram drawn, when its paragraph is first laid out: only then
        // is a failure known.
        warnings += fragment.paragraph.attachments.compactMap { a in
            ["math", "diagram"].contains(a.scheme) ? a.problem.map { "\($0) ('\(a.altText.prefix(40).split(separator: "\n").joined(separator: " "))')" } : nil
        }
        self.init(
            paragraph: fragment.paragraph.id.rawValue, index: index, kind: fragment.paragraph.kind.name,
            frame: LayoutRect(f),
            surfaceBounds: LayoutRect(fragment.renderingSurfaceBounds.offsetBy(dx: f.minX, dy: f.minY)),
            state: fragment.state,
            lines: fragment.textLineFragments.map {
                LayoutPass.Line(start: $0.utf8Range.lowerBound, top: $0.typographicBounds.minY, height: $0.typographicBounds.height)
            },
            attachments: fragment.attachmentFrames.map {
                LayoutPass.Attachment(id: $0.attachment.id, provider: $0.attachment.scheme, frame: LayoutRect($0.frame),
                                      state: viewState($0.attachment.id))
            },
            text: fragment.paragraph.text, clipped: tableCut ?? mathCut, warnings: warnings)
    }
}

extension LayoutPass {
    /// How far the widest formula of `fragment` runs past the text column ("12 pt past the
    /// column's right edge"), or nil when each fits.
    static func mathOverflow(of fragment: TextLayoutFragment) -> String? {
        guard let style = fragment.shaped?.style else { return nil }
        let edge = fragment.containerWidth - style.rightIndent
        let past = fragment.attachmentFrames.filter { $0.attachment.scheme == "math" }.map { $0.frame.maxX - edge }.max() ?? 0
        return past > 0.5 ? "a formula runs \(NumberText.text(past, decimals: 0, roundingFirst: true)) pt past the column's right edge" : nil
    }
}

/// An `events.jsonl` line's fragment: the keys its readers have always had.
extension LayoutPass.Fragment: Encodable {
    private enum EventKeys: String, CodingKey { case paragraph, index, frame, state, clipped }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: EventKeys.self)
        try container.encode(paragraph, forKey: .paragraph)
        try container.encode(index, forKey: .index)
        try container.encode(frame, forKey: .frame)
        try container.encode(state.rawValue, forKey: .state)
        try container.encodeIfPresent(clipped, forKey: .clipped)
    }
}
