import Foundation

/// Owns layout: shapes paragraphs into fragments lazily (only when asked, typically for the
/// viewport), and keeps every paragraph's height — measured or estimated — in a `HeightIndex`.
/// Positions are `insets.top` plus the heights above; they move as estimates become measurements,
/// which the viewport controller absorbs with its scroll anchor.
public final class TextLayoutManager {
    /// Options for `enumerateTextLayoutFragments(from:options:using:)`, as in TextKit.
    public struct EnumerationOptions: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Walk towards the start of the document.
        public static let reverse = EnumerationOptions(rawValue: 1 << 0)
        /// Shape each fragment before handing it over, so its frame is measured.
        public static let ensuresLayout = EnumerationOptions(rawValue: 1 << 1)
        /// Accepted as in TextKit; no effect (fragments not shaped have estimated frames anyway).
        public static let estimatesSize = EnumerationOptions(rawValue: 1 << 2)
        /// Accepted as in TextKit; no effect: a paragraph's empty last line is one of its line
        /// fragments already (`TextLineFragment.characterRange` empty).
        public static let ensuresExtraLineFragment = EnumerationOptions(rawValue: 1 << 3)
    }

    /// Asked for each paragraph's fragment when it is shaped (weak, as in TextKit).
    public weak var delegate: TextLayoutManagerDelegate?
    /// Called once for each fragment after it is laid out (and again after
    /// `invalidateRenderingAttributes(for:)` or an edit), before the pass configures and draws
    /// it: a highlighter that sets rendering attributes here colours the same frame.
    public var renderingAttributesValidator: ((TextLayoutManager, TextLayoutFragment) -> Void)?
    /// The rendering attributes (`setRenderingAttributes(_:for:)`), and the paragraphs the
    /// validator has seen since their last change.
    var renderingAttributes = RenderingAttributeStore()
    var validatedRendering: Set<ParagraphID> = []
    /// Applies `TextStorage`'s edits (the view: they are edits of paragraphs, as typing is).
    weak var storageEditor: TextStorageEditor?
    /// The content, with its delegate that restyles paragraphs for display (TextKit's
    /// `textContentManager`, a `NSTextContentStorage`; optional, as TextKit's weak one is).
    public var textContentManager: TextContentManager? { textContentStorage }
    /// The same, as its class (`NSTextContentStorage`).
    public private(set) lazy var textContentStorage = TextContentStorage(manager: self)
    /// The controller that lays out the viewport of this manager's view: never nil, as TextKit's
    /// is not (every layout manager belongs to a view, which makes both).
    public var textViewportLayoutController: TextViewportLayoutController { viewportController! }
    /// Weak, since the view owns the controller.
    weak var viewportController: TextViewportLayoutController?
    /// The selections (`NSTextLayoutManager.textSelections`): empty, no caret; a caret is an empty one.
    public var textSelections: [TextSelection] = [] {
        didSet {
            selectionsVersion += 1
            if textSelections != oldValue { selectionChanged?() }
        }
    }
    /// Told when `textSelections` changes (the view, which tells its delegate).
    var selectionChanged: (() -> Void)?
    /// Counts changes of `textSelections`, so a frame can tell its selection is the last one's.
    private(set) var selectionsVersion = 0
    /// Moves selections as keys do.
    public private(set) lazy var textSelectionNavigation = TextSelectionNavigation(textLayoutManager: self)
    /// Whole-text UTF-16 offsets of the paragraphs, for ranges and offsets between locations.
    private(set) lazy var offsets = DocumentOffsets(self)

    /// The document being laid out, edits included.
    public internal(set) var document: TextDocument
    /// The width laid out for, in points: the view's width (the insets lie inside it).
    public internal(set) var containerWidth: Double
    let typesetter: Typesetter
    var heights: HeightIndex
    var estimator: HeightEstimator
    var shaped: [ParagraphID: TextLayoutFragment] = [:]
    /// Paragraphs whose attachments needed work at layout (`AttachmentKind.prepare`), as done,
    /// with the paragraph it was done on: a paragraph shaped again is not prepared again.
    var prepared: [ParagraphID: (source: TextParagraph, ready: TextParagraph)] = [:]
    /// Paragraphs shaped since the last `drainShaped()`, in order.
    private var shapedLog: [ParagraphID] = []
    /// How many shaped fragments are kept; beyond it, those farthest from the last ensured
    /// paragraph are dropped (their measured heights stay in the index).
    public var maximumShapedFragments = 512

    /// The look paragraphs are shaped in.
    public var theme: Theme { typesetter.theme }

    /// Σ estimate and Σ measured height of the paragraphs measured so far, for `estimateError`.
    private var estimatedTotal = 0.0, measuredTotal = 0.0
    /// How far the estimates of the paragraphs measured so far were off, relative to what they
    /// measured: (Σ estimated − Σ measured) / Σ measured.
    public var estimateError: Double { measuredTotal > 0 ? (estimatedTotal - measuredTotal) / measuredTotal : 0 }

    /// `sampledHeight`: `sampledHeight(of:theme:containerWidth:)` for these, when found
    /// elsewhere (called when a total first needs it).
    init(document: TextDocument, containerWidth: Double, typesetter: Typesetter, sampledHeight: (() -> Double)? = nil) {
        self.document = document
        self.containerWidth = containerWidth
        self.typesetter = typesetter
        estimator = HeightEstimator(theme: typesetter.theme, containerWidth: containerWidth)
        heights = HeightIndex()
        heights = makeLazyIndex(uniform: sampledHeight)
    }

    /// The average estimate of a fixed sample of 64 paragraphs, where every height starts until
    /// its leaf is estimated. It parses the sampled sections and needs no fonts, so a view finds
    /// it before waiting for fonts being set up on another thread (`FontSet.prepare`).
    static func sampledHeight(of document: TextDocument, theme: Theme, containerWidth: Double) -> Double {
        let count = document.count
        guard count > 0 else { return 0 }
        let estimator = HeightEstimator(theme: theme, containerWidth: containerWidth)
        let sample = (0..<min(count, 64)).map { $0 * count / min(count, 64) }
        return sample.reduce(0) { $0 + estimator.estimate(document.paragraphs[$1]) } / Double(sample.count)
    }

    /// Heights estimated leaf by leaf as they are first needed, from a uniform start (sampled
    /// now unless given).
    func makeLazyIndex(uniform: (() -> Double)? = nil) -> HeightIndex {
        let uniform = uniform ?? { [sampled = Self.sampledHeight(of: document, theme: theme, containerWidth: containerWidth)] in sampled }
        return HeightIndex(count: document.count, uniform: uniform) { [unowned self] index in
            estimator.estimate(document.paragraphs[index])
        }
    }

    /// How many paragraphs the document has.
    public var paragraphCount: Int { document.count }

    /// The height of the whole document, with insets: estimated until every paragraph is measured.
    public var documentHeight: Double { theme.insets.top + heights.totalHeight + theme.insets.bottom }

    /// The union of all fragment frames (estimated where not laid out).
    public var usageBoundsForTextContainer: CGRect {
        CGRect(x: 0, y: 0, width: containerWidth, height: documentHeight)
    }

    /// How much of the height is measured rather than estimated.
    public var measuredParagraphCount: Int { heights.measured.count }
    /// The summed height of the measured paragraphs, in points.
    public var measuredHeight: Double { heights.measured.height }

    /// The y of paragraph `index`'s frame.
    public func y(ofParagraphAt index: Int) -> Double { theme.insets.top + heights.offset(of: index) }

    /// The paragraph under document `y` and `y`'s offset from that paragraph's top.
    public func paragraph(at y: Double) -> (index: Int, offset: Double) {
        let found = heights.index(containing: y - theme.insets.top)
        return found
    }

    /// The index of the paragraph with `id` (nil: not in the document).
    public func index(of id: ParagraphID) -> Int? { document.index(of: id) }

    /// Paragraph `index`'s height in points: measured if shaped once, else estimated.
    public func height(ofParagraphAt index: Int) -> Double { heights.height(at: index) }

    /// Whether paragraph `index`'s height is measured rather than estimated.
    public func isMeasured(paragraphAt index: Int) -> Bool { heights.isMeasured(index) }

    /// Shapes paragraph `index` if needed and returns its fragment, positioned. The height index
    /// takes the measured height. An index outside the document gets `noParagraph()`, not a trap.
    @discardableResult
    public func ensureLayout(forParagraphAt index: Int) -> TextLayoutFragment {
        guard index >= 0, index < paragraphCount else { return noParagraph() }
        let paragraph = document.paragraphs[index]
        let fragment: TextLayoutFragment
        if let existing = shaped[paragraph.id] {
            fragment = existing
        } else {
            fragment = layOut(paragraph, at: index)
            shaped[paragraph.id] = fragment
            shapedLog.append(paragraph.id)
            let measured = fragment.layoutFragmentFrame.height
            if !heights.isMeasured(index) {
                estimator.record(paragraph, measured: measured)
                estimatedTotal += heights.height(at: index)
                measuredTotal += measured
            }
            heights.setHeight(measured, at: index, measured: true)
        }
        fragment.layoutFragmentFrame.origin.y = y(ofParagraphAt: index)
        return fragment
    }

    /// The delegate's fragment for `paragraph` (or the standard one), shaped with its paddings
    /// and margins.
    private func layOut(_ stored: TextParagraph, at index: Int) -> TextLayoutFragment {
        let paragraph = textContentStorage.displayed(ready(stored), at: index)
        let fragment = delegate?.textLayoutManager(self, textLayoutFragmentFor: TextLocation(paragraph: paragraph.id), in: paragraph)
            ?? TextLayoutFragment(textElement: paragraph, range: paragraph.elementRange)
        fragment.textLayoutManager = self
        let insets = FragmentInsets(leading: fragment.leadingPadding, trailing: fragment.trailingPadding,
                                    top: fragment.topMargin, bottom: fragment.bottomMargin, startsDocument: index == 0,
                                    precedesHeading: index + 1 < paragraphCount && document.paragraphs[index + 1].kind.isHeading)
        fragment.lay(out: typesetter.shaped(fragment.paragraph, containerWidth: containerWidth, insets: insets))
        return fragment
    }

    /// `stored` with the work its attachments put off until layout done (a formula typeset).
    private func ready(_ stored: TextParagraph) -> TextParagraph {
        if let done = prepared[stored.id], done.source == stored { return done.ready }
        guard let ready = document.kinds.prepared(stored, inDarkLook: theme.isDark) else { return stored }
        // Work that failed (a helper late or gone) is tried again at the next layout.
        if !ready.attachments.contains(where: { $0.problem != nil }) { prepared[stored.id] = (stored, ready) }
        return ready
    }

    /// Ensures layout for every paragraph whose range is in `range` (inclusive indexes).
    public func ensureLayout(forParagraphsIn range: ClosedRange<Int>) {
        for index in range where index >= 0 && index < paragraphCount { ensureLayout(forParagraphAt: index) }
    }

    /// Measures the paragraphs in `range` that have only estimates, keeping only their heights
    /// (the fragments are not cached). On one core: shaping holds the process-wide `FontLock`,
    /// so a second thread would only wait.
    public func measure(paragraphsIn range: ClosedRange<Int>) {
        let pending = range.clamped(to: 0...max(paragraphCount - 1, 0)).filter { !heights.isMeasured($0) }
        guard pending.count >= 64 else {
            for index in pending { ensureLayout(forParagraphAt: index) }
            return
        }
        for index in pending {
            let paragraph = document.paragraphs[index]
            let measured = Double(layOut(paragraph, at: index).layoutFragmentFrame.height)
            estimator.record(paragraph, measured: measured)
            estimatedTotal += heights.height(at: index)
            measuredTotal += measured
            heights.setHeight(measured, at: index, measured: true)
            shapedLog.append(paragraph.id)
        }
    }

    /// The fragment for paragraph `index`: shaped when it is, else one with an estimated frame;
    /// an index outside the document gets `noParagraph()`.
    public func fragment(forParagraphAt index: Int) -> TextLayoutFragment {
        guard index >= 0, index < paragraphCount else { return noParagraph() }
        let paragraph = document.paragraphs[index]
        if let existing = shaped[paragraph.id] {
            existing.layoutFragmentFrame.origin.y = y(ofParagraphAt: index)
            return existing
        }
        let estimated = TextLayoutFragment(estimating: paragraph, height: heights.height(at: index), containerWidth: containerWidth)
        estimated.layoutFragmentFrame.origin.y = y(ofParagraphAt: index)
        return estimated
    }

    /// What an index outside the document is answered with: the fragment of an empty paragraph
    /// (id -1, no lines, no height) at the document's end, so code that asks past the end reads
    /// nothing instead of ending the process.
    public func noParagraph() -> TextLayoutFragment {
        let empty = TextParagraph(id: ParagraphID(-1), kind: .body, text: "")
        let fragment = TextLayoutFragment(estimating: empty, height: 0, containerWidth: containerWidth)
        fragment.layoutFragmentFrame.origin.y = documentHeight - theme.insets.bottom
        return fragment
    }

    /// The fragment holding `location`, if its paragraph is still in the document.
    public func textLayoutFragment(for location: TextLocation) -> TextLayoutFragment? {
        index(of: location.paragraph).map { fragment(forParagraphAt: $0) }
    }

    /// The fragment under document point `point` (laid out if it was not), as STTextView and
    /// Runestone ask; nil outside the paragraphs.
    public func textLayoutFragment(for point: CGPoint) -> TextLayoutFragment? {
        guard paragraphCount > 0, point.y >= theme.insets.top, point.y < documentHeight - theme.insets.bottom else { return nil }
        return ensureLayout(forParagraphAt: paragraph(at: point.y).index)
    }

    /// Lays out the paragraphs `range` covers (`ensureLayout(for: NSTextRange)`).
    public func ensureLayout(for range: TextRange) {
        guard let start = index(of: range.location.paragraph), let end = index(of: range.endLocation.paragraph) else { return }
        ensureLayout(forParagraphsIn: min(start, end)...max(start, end))
    }

    /// The paragraphs in `range` are drawn afresh, their layout kept
    /// (`invalidateRenderingAttributes(for:)`): for drawing-only changes (colours, markers a
    /// fragment draws by a setting of yours).
    public func invalidateRenderingAttributes(for range: TextRange) {
        guard let (start, end) = indices(of: range) else { return }
        for i in start...end { validatedRendering.remove(document.paragraphs[i].id) }
        invalidateSurfaces(start...end)
    }

    func indices(of range: TextRange) -> (Int, Int)? {
        guard let start = index(of: range.start.paragraph), let end = index(of: range.end.paragraph) else { return nil }
        return (min(start, end), max(start, end))
    }

    /// Each paragraph's surface generation (part of its surface's cache key), and one for every
    /// paragraph at once (a range of more than `wholeDocumentInvalidation` paragraphs bumps it,
    /// so invalidating a long document costs nothing per paragraph).
    private var surfaceGenerations: [ParagraphID: Int] = [:]
    private var documentSurfaceGeneration = 0
    static let wholeDocumentInvalidation = 4096
    /// Bumped by every invalidation: a view never reuses a frame from before one.
    private(set) var renderingVersion = 0

    func invalidateSurfaces(_ indices: ClosedRange<Int>) {
        renderingVersion += 1
        if indices.count > Self.wholeDocumentInvalidation {
            documentSurfaceGeneration += 1
        } else {
            for i in indices { surfaceGenerations[document.paragraphs[i].id, default: 0] += 1 }
        }
    }

    /// What a paragraph's surface was last invalidated as, for the surface cache's key.
    func surfaceGeneration(of id: ParagraphID) -> Int {
        documentSurfaceGeneration << 32 | (surfaceGenerations[id] ?? 0)
    }

    /// Drops every shaped fragment (heights stay measured).
    func discardShapedFragments() { shaped.removeAll() }

    /// Ids of the paragraphs shaped since the last call.
    func drainShaped() -> [ParagraphID] {
        defer { shapedLog.removeAll() }
        return shapedLog
    }

    /// Drops shaped fragments more than `keptParagraphMargin` paragraphs away from `range` (the
    /// last pass's paragraphs), and then the farthest beyond `maximumShapedFragments` (ties: the
    /// later paragraph), so memory stays flat while scrolling and eviction is deterministic.
    func trimShapedFragments(around range: ClosedRange<Int>) {
        func distance(_ index: Int) -> Int {
            index < range.lowerBound ? range.lowerBound - index : max(index - range.upperBound, 0)
        }
        let ranked = shaped.keys.map { id -> (ParagraphID, Int, Int) in
            let index = self.index(of: id) ?? Int.max / 2
            return (id, distance(index), index)
        }
        .sorted { ($0.1, -$0.2) > ($1.1, -$1.2) }
        let excess = max(shaped.count - maximumShapedFragments, 0)
        for (position, (id, distance, _)) in ranked.enumerated() where position < excess || distance > keptParagraphMargin {
            shaped[id] = nil
        }
    }

    /// How many paragraphs beyond the viewport bounds keep their shaped fragments.
    public var keptParagraphMargin = 48

}

/// Which way a paragraph's text runs (`NSWritingDirection`).
public enum WritingDirection: Int, Sendable {
    /// From the text itself.
    case natural = -1
    /// Left to right (Latin, Cyrillic …).
    case leftToRight = 0
    /// Right to left (Arabic, Hebrew …).
    case rightToLeft = 1
}
