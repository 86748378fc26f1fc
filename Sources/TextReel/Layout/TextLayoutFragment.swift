import Foundation

/// One laid-out paragraph: its frame in the document, its lines and its attachments' frames (the
/// `NSTextLayoutFragment` analogue). It belongs to one version of a paragraph; an edit replaces it.
///
/// Open, as in TextKit: a `TextLayoutManagerDelegate` may return a subclass that pads and spaces
/// itself (`leadingPadding`, `trailingPadding`, `topMargin`, `bottomMargin`, honoured by layout:
/// paddings narrow the lines, margins add space above and below, inside `layoutFragmentFrame`),
/// draws more (`draw(at:in:)`, into the cached rendering surface) and says where it draws
/// (`renderingSurfaceBounds`, which the surface covers, beyond the frame if need be). What a
/// subclass draws must follow from its paragraph and its own properties set by the delegate: the
/// surface is cached by paragraph, width, scale and class.
open class TextLayoutFragment {
    /// How far layout has gone, as in TextKit.
    public enum State: String, Sendable {
        /// Not shaped: an estimated height, no lines.
        case estimatedUsageBounds
        /// Shaped: lines and a measured height.
        case layoutAvailable
    }

    /// The paragraph it lays out (its `textElement`).
    public let paragraph: TextParagraph
    /// `paragraph`, by TextKit's name.
    public var textElement: TextElement { paragraph }
    /// The part of the element it lays out, as given when it was made (the whole paragraph when
    /// none was given, and for TextReel's own), as TextKit's.
    public let rangeInElement: TextRange
    /// The layout manager that laid it out.
    public internal(set) weak var textLayoutManager: TextLayoutManager?
    /// The tiling rect in document coordinates, margins included; `origin.y` moves as the
    /// fragments above it change.
    public internal(set) var layoutFragmentFrame: CGRect
    /// What the typesetter's drawing covers (text ink and block decorations), relative to the
    /// frame's origin.
    public private(set) var typographicSurfaceBounds: CGRect
    /// Its lines, top to bottom; empty until it is shaped.
    public private(set) var textLineFragments: [TextLineFragment] = []
    /// Attachment frames relative to the frame's origin, in text order.
    public private(set) var attachmentFrames: [(attachment: TextAttachment, frame: CGRect)] = []
    /// Whether it is shaped, or only has an estimated height.
    public var state: State { shaped == nil ? .estimatedUsageBounds : .layoutAvailable }

    /// What the typesetter made of the paragraph, as drawing and caret geometry read it; nil
    /// while the fragment only has an estimated height.
    private(set) var shaped: ShapedParagraph?
    /// The content width it was laid out (or estimated) for.
    private(set) var containerWidth: Double = 0
    /// Where the Pango layout's origin sits, relative to the frame's origin.
    var layoutOrigin: CGPoint { shaped?.layoutOrigin ?? .zero }
    /// A table row's cell layouts and where they sit (empty for other paragraphs).
    var cells: [(box: PangoLayoutBox, origin: CGPoint)] { shaped?.cells ?? [] }

    /// A fragment for `textElement` (its `textParagraph`), laid out by the layout manager that
    /// asked its delegate for it.
    public init(textElement: TextElement, range rangeInElement: TextRange?) {
        paragraph = textElement.textParagraph
        self.rangeInElement = rangeInElement ?? paragraph.wholeRange
        layoutFragmentFrame = .zero
        typographicSurfaceBounds = .zero
    }

    /// A fragment that has not been shaped: an estimated height, no lines yet.
    init(estimating paragraph: TextParagraph, height: Double, containerWidth: Double) {
        self.paragraph = paragraph
        rangeInElement = paragraph.wholeRange
        layoutFragmentFrame = CGRect(x: 0, y: 0, width: containerWidth, height: height)
        typographicSurfaceBounds = CGRect(x: 0, y: 0, width: containerWidth, height: height)
        self.containerWidth = containerWidth
    }

    /// Takes what the typesetter made of the paragraph (with this fragment's paddings and margins).
    func lay(out shaped: ShapedParagraph) {
        layoutFragmentFrame.size = shaped.size
        typographicSurfaceBounds = shaped.renderingSurfaceBounds
        textLineFragments = shaped.lines
        attachmentFrames = shaped.attachmentFrames
        containerWidth = shaped.containerWidth
        self.shaped = shaped
    }

    /// Pango's cursor geometry of the shaped paragraph (nil while only estimated).
    var cursor: CursorGeometry? {
        shaped.map { shaped in
            let length = paragraph.text.utf8.count
            let ranges = TableColumns.cellRanges(of: paragraph.text)
            return CursorGeometry(box: shaped.layout, shift: shaped.textShift, length: length, cells: zip(shaped.cells, ranges).map { cell, range in
                CursorGeometry.Cell(geometry: CursorGeometry(box: cell.box, shift: -range.lowerBound, length: length), range: range,
                                    offset: CGPoint(x: cell.origin.x - layoutOrigin.x, y: cell.origin.y - layoutOrigin.y))
            })
        }
    }

    // MARK: What a subclass overrides

    /// Space between the frame's leading edge and the text (the lines are narrower by it).
    open var leadingPadding: CGFloat { 0 }
    /// Space between the text and the frame's trailing edge.
    open var trailingPadding: CGFloat { 0 }
    /// Space above the text, inside the frame.
    open var topMargin: CGFloat { 0 }
    /// Space below the text, inside the frame.
    open var bottomMargin: CGFloat { 0 }

    /// What drawing covers, relative to the frame's origin (it may overhang the frame); the
    /// cached surface covers exactly this. A subclass that draws more says so here.
    open var renderingSurfaceBounds: CGRect { typographicSurfaceBounds }
    /// What this fragment's drawing depends on beyond its paragraph, width, scale and class: a
    /// subclass that draws by a setting of its own (invisibles shown, a label's text) returns
    /// it, and a surface drawn under another value is never composited for it. Nil: nothing.
    /// (TextKit redraws on `invalidateRenderingAttributes(for:)`; this also works without one.)
    open var renderingSurfaceKey: AnyHashable? { nil }

    /// Draws the fragment with `point` as its frame's origin: the paragraph's block decorations
    /// (code background, quote bars, rules) and its text. A subclass draws around it and calls
    /// `super`.
    open func draw(at point: CGPoint, in context: GraphicsContext) {
        context.drawTypesetContent(of: self, at: point)
    }

    // MARK: Reading it

    /// The caret at UTF-8 offset `offset` of the paragraph, relative to the frame's origin: a
    /// zero-width rect as tall as its line. With `.upstream` affinity at a wrap, the caret sits
    /// at the end of the line before, as TextKit draws it; nil while not laid out. Internal, as
    /// the other byte-offset readers here: the public API counts UTF-16 (`TextLineFragment`,
    /// `enumerateTextSegments`).
    func caretRect(atOffset offset: Int, affinity: TextSelection.Affinity = .downstream) -> CGRect? {
        guard let cursor else { return nil }
        let clamped = min(max(offset, 0), paragraph.text.utf8.count)
        var rect = cursor.caret(at: clamped)
        if affinity == .upstream, clamped > 0, textLineFragments.dropFirst().contains(where: { $0.utf8Range.lowerBound == clamped }),
           let previous = cursor.cursorOffsets.last(where: { $0 < clamped }) {
            rect = cursor.caretUpstream(at: clamped, previous: previous)
        }
        rect = rect.offsetBy(dx: layoutOrigin.x, dy: layoutOrigin.y)
        // A line set tighter than its font (a heading's line height 1.25) is shorter than the
        // font's caret: the caret keeps to its line, as a browser's does to the line box.
        if let line = textLineFragments.first(where: { $0.typographicBounds.minY <= rect.midY && rect.midY <= $0.typographicBounds.maxY }) {
            let top = max(rect.minY, line.typographicBounds.minY), bottom = min(rect.maxY, line.typographicBounds.maxY)
            if bottom > top { rect = CGRect(x: rect.minX, y: top, width: rect.width, height: bottom - top) }
        }
        return rect
    }

    /// The UTF-8 offset of the paragraph nearest `point` (relative to the frame's origin), as
    /// `NSTextLineFragment.characterIndex(for:)` answers for its line.
    func characterIndex(for point: CGPoint) -> Int? {
        cursor?.offset(at: CGPoint(x: point.x - layoutOrigin.x, y: point.y - layoutOrigin.y))
    }

    /// Rects covering UTF-8 `range` of the paragraph, relative to the frame's origin: a piece per
    /// line and direction run.
    func selectionRects(for range: Range<Int>) -> [CGRect] {
        (cursor?.selectionRects(range) ?? []).map { $0.offsetBy(dx: layoutOrigin.x, dy: layoutOrigin.y) }
    }

    /// The frame of the attachment with `id`, relative to the fragment's frame.
    public func frameForTextAttachment(id: String) -> CGRect? {
        attachmentFrames.first { $0.attachment.id == id }?.frame
    }
}
