import Foundation

/// The text view (the UITextView analogue): owns the document's layout manager, the viewport
/// layout controller and the renderer, keeps the scroll position as an anchor, and is the
/// controller's delegate. Subclasses override the delegate methods and must call `super`.
open class TextView: TextViewportLayoutControllerDelegate, ViewportScrolling {
    public let textLayoutManager: TextLayoutManager
    public let textViewportLayoutController: TextViewportLayoutController
    public private(set) var viewportSize: CGSize
    public let scale: Double
    /// Overdraw above and below the visible rect, as a fraction of the visible height.
    public var overdraw: Double = 0.5
    /// Extra overdraw on the side the scroll is heading, in points (a script sets it from the
    /// next frames' motion).
    public var leadingOverdraw: (above: Double, below: Double) = (0, 0)

    let fonts: FontSystem
    let renderer: FrameRenderer
    let attachmentHost = AttachmentViewHost()
    /// Script time in seconds; playing videos advance by how much it moved between passes.
    public var time: Double = 0
    private var lastPassTime: Double?
    private var anchor: ScrollAnchor?
    /// Where the last scroll or pass left the content offset; any other change (measurements,
    /// edits above the anchor) is a correction the anchor absorbed.
    private var expectedY: Double?
    /// Corrections absorbed since the last pass, before later scrolls reset `expectedY`.
    private var pendingCorrection = 0.0
    /// What the base delegate implementations saw during the current pass.
    private var pass = PassRecord()
    /// Fragments handed to `configureRenderingSurfaceFor` in the last pass, top to bottom.
    public private(set) var configuredFragments: [TextLayoutFragment] = []
    /// Points the content offset moved during the last pass while the content stayed still.
    public private(set) var lastCorrection: Double = 0

    struct PassRecord {
        var willLayout = false
        var didLayout = false
        var configured: [ParagraphID] = []
        /// The base delegate calls in order: "willLayout", "configure:<id>", "didLayout".
        var log: [String] = []
    }

    /// The delegate calls of the last `layoutPass()`, in order, as recorded by the base
    /// implementations: "willLayout", "configure:<paragraph id>"…, "didLayout".
    public private(set) var lastPassLog: [String] = []

    public var document: TextDocument { textLayoutManager.document }
    public var theme: Theme { textLayoutManager.theme }

    public init(document: TextDocument, viewportSize: CGSize, scale: Double = 1,
                theme: Theme = Theme(), fontSet: FontSet = .standard) {
        fonts = FontSystem.forCurrentThread(fontSet)
        let typesetter = Typesetter(fonts: fonts, theme: theme)
        textLayoutManager = TextLayoutManager(document: document, containerWidth: viewportSize.width, typesetter: typesetter)
        textViewportLayoutController = TextViewportLayoutController(textLayoutManager: textLayoutManager)
        renderer = FrameRenderer(fonts: fonts, theme: theme)
        self.viewportSize = viewportSize
        self.scale = scale
        textViewportLayoutController.delegate = self
        typesetter.attachmentSize = { attachment, available in
            guard let type = AttachmentProviders.type(forScheme: attachment.scheme) else { return nil }
            let provider = type.init(textAttachment: attachment, location: TextLocation(paragraph: ParagraphID(-1)))
            return provider.tracksTextAttachmentViewBounds ? provider.attachmentBounds(proposedWidth: available).size : nil
        }
    }

    // MARK: Attachments

    /// Keeps views of `type`'s attachments across scrolling and/or paragraph edits, for the
    /// lifetime of the text view (as `UITextView.register(_:forTextAttachmentViewProviderType:)`).
    public func register(_ policy: ReusePolicy, forTextAttachmentViewProviderType type: TextAttachmentViewProvider.Type) {
        attachmentHost.register(policy, for: type)
    }

    /// Caps on attachment views kept out of the viewport bounds (count and surface bytes).
    public var maximumKeptAttachmentViews: Int {
        get { attachmentHost.maximumKeptViews }
        set { attachmentHost.maximumKeptViews = newValue }
    }
    public var maximumKeptAttachmentBytes: Int {
        get { attachmentHost.maximumKeptBytes }
        set { attachmentHost.maximumKeptBytes = newValue }
    }

    /// The live view of attachment `id`, if it has one.
    public func attachmentView(id: String) -> AttachmentView? { attachmentHost.view(for: id) }

    /// Plays, pauses, focuses, types into … the view of attachment `id` (made if it has none).
    public func perform(_ action: AttachmentAction, onAttachment id: String) throws {
        guard let paragraph = document.paragraphs.first(where: { $0.attachments.contains { $0.id == id } }),
              let attachment = paragraph.attachments.first(where: { $0.id == id }) else {
            throw TextReelError("no attachment '\(id)' in the document")
        }
        try attachmentHost.perform(action, on: attachment, in: paragraph.id)
    }

    /// Attachment events since the last call.
    public func drainAttachmentEvents() -> [AttachmentEvent] { attachmentHost.drainEvents() }

    // MARK: Scrolling

    /// The visible rect's origin in the document. Setting it scrolls, clamped to the content, and
    /// lands exactly: the paragraphs above the target are measured first (up to
    /// `exactScrollLayoutLimit` of them; beyond that the target is exact in the estimated
    /// coordinates, and the scroll anchor keeps the content still when they are measured later).
    public var contentOffset: CGPoint {
        get { CGPoint(x: 0, y: anchoredY) }
        set { scrollExactly(to: newValue.y) }
    }

    /// How many paragraphs above an absolute scroll target are measured so it lands exactly.
    public var exactScrollLayoutLimit = 4000

    private func scrollExactly(to y: Double) {
        measureParagraphs(above: y)
        setAnchor(y: y)
    }

    /// The largest content offset, from the current (partly estimated) document height.
    public var maximumContentOffset: Double {
        max(textLayoutManager.documentHeight - viewportSize.height, 0)
    }

    private var anchoredY: Double {
        guard let anchor, let index = textLayoutManager.index(of: anchor.paragraph) else { return 0 }
        // An edit can shorten the anchor paragraph: stay inside it.
        let offset = min(anchor.offset, max(textLayoutManager.height(ofParagraphAt: index), 0))
        return textLayoutManager.y(ofParagraphAt: index) + offset
    }

    private func setAnchor(y: Double) {
        if let expectedY, anchor != nil { pendingCorrection += anchoredY - expectedY }
        let clamped = min(max(y, 0), maximumContentOffset)
        guard textLayoutManager.paragraphCount > 0 else { anchor = nil; return }
        let found = textLayoutManager.paragraph(at: clamped)
        let id = textLayoutManager.document.paragraphs[found.index].id
        anchor = ScrollAnchor(paragraph: id, offset: clamped - textLayoutManager.y(ofParagraphAt: found.index))
        expectedY = anchoredY
    }

    /// Scrolls by `delta` points of visible content.
    public func scroll(by delta: Double) { setAnchor(y: anchoredY + delta) }

    func adjustScroll(byVerticalOffset offset: Double) { scroll(by: offset) }

    func scroll(toParagraphAt index: Int) {
        setAnchor(y: measureParagraphs(through: index).layoutFragmentFrame.minY)
    }

    /// Measures paragraph `index` and those above it (up to `exactScrollLayoutLimit`), so its
    /// position is exact; returns its fragment.
    @discardableResult
    func measureParagraphs(through index: Int) -> TextLayoutFragment {
        textLayoutManager.ensureLayout(forParagraphsIn: max(0, index - exactScrollLayoutLimit)...index)
        return textLayoutManager.fragment(forParagraphAt: index)
    }

    /// Measures the paragraphs above document `y` until the paragraph at `y` stops changing.
    func measureParagraphs(above y: Double) {
        guard textLayoutManager.paragraphCount > 0 else { return }
        for _ in 0..<4 {
            let index = textLayoutManager.paragraph(at: min(max(y, 0), maximumContentOffset)).index
            let first = max(0, index - exactScrollLayoutLimit)
            if !(first...index).contains(where: { !textLayoutManager.isMeasured(paragraphAt: $0) }) { return }
            textLayoutManager.ensureLayout(forParagraphsIn: first...index)
        }
    }

    func anchorDidLoseParagraph(_ id: ParagraphID, replacementIndex: Int) {
        guard let anchor, anchor.paragraph == id else { return }
        self.anchor = ScrollAnchor(paragraph: document.paragraphs[replacementIndex].id, offset: 0)
    }

    /// The visible rect in document coordinates.
    public var visibleRect: CGRect {
        CGRect(x: 0, y: anchoredY, width: viewportSize.width, height: viewportSize.height)
    }

    /// A new viewport size re-wraps every paragraph; the anchor paragraph stays at the top.
    public func resize(to size: CGSize) {
        let keep = anchor
        viewportSize = size
        textLayoutManager.setContainerWidth(size.width)
        anchor = keep
    }

    // MARK: Rendering

    /// One layout pass and the drawing of the visible rect. Throws `TextViewError` when an
    /// override skipped `super` or read controller state too early, and `TextReelError` when the
    /// named fonts are missing.
    public func renderFrame() throws -> RenderedFrame {
        try layoutPass()
        var overlay: Overlay?
        if showsOverlay {
            overlay = Overlay(fragments: configuredFragments.map {
                ($0.layoutFragmentFrame, $0.renderingSurfaceBounds.offsetBy(dx: $0.layoutFragmentFrame.minX, dy: $0.layoutFragmentFrame.minY),
                 $0.state == .layoutAvailable)
            }, visibleRect: visibleRect, viewportBounds: textViewportLayoutController.viewportBounds,
               documentHeight: textLayoutManager.documentHeight)
        }
        let host = attachmentHost, painter = renderer.attachments
        return renderer.render(configuredFragments, visibleRect: visibleRect, scale: scale,
                               decorations: decorations, overlay: overlay) { attachment, size, scale in
            host.surface(for: attachment, size: size, scale: scale, painter: painter)
        }
    }

    /// Extra drawing per fragment for the current pass, added by `decorate(_:with:)`.
    private var decorations: [ParagraphID: [FragmentDecoration]] = [:]

    /// Adds drawing to a fragment for this pass (call it from `configureRenderingSurfaceFor`).
    public func decorate(_ fragment: TextLayoutFragment, with decoration: FragmentDecoration) {
        decorations[fragment.paragraph.id, default: []].append(decoration)
    }

    /// Draws fragment frames, rendering-surface bounds, and a minimap of the visible rect and the
    /// overdraw band on top of each frame.
    public var showsOverlay = false

    /// When false, every pass re-shapes and redraws every fragment (the benchmark's no-cache peer).
    public var cachesFragments = true

    /// Runs `layoutViewport()` and checks that every override called `super`.
    public func layoutPass() throws {
        if let problem = fonts.problem { throw problem }
        if !cachesFragments {
            textLayoutManager.discardShapedFragments()
            renderer.cache.removeAll()
        }
        if anchor == nil { setAnchor(y: 0) }
        let before = (expectedY ?? anchoredY) - pendingCorrection
        pendingCorrection = 0
        pass = PassRecord()
        configuredFragments = []
        decorations = [:]
        textViewportLayoutController.layoutViewport()
        // Measuring near the end can shorten the document: clamp and lay out again.
        if anchoredY > maximumContentOffset + 0.25 {
            setAnchor(y: maximumContentOffset)
            let log = pass.log
            pass = PassRecord()
            pass.log = log
            configuredFragments = []
            decorations = [:]
            textViewportLayoutController.layoutViewport()
        }
        // Then the attachment views, once per pass, for the fragments it settled on.
        let inBounds = configuredFragments.flatMap { fragment in fragment.paragraph.attachments.map { ($0, fragment.paragraph.id) } }
        attachmentHost.update(inBounds: inBounds, elapsed: lastPassTime.map { max(time - $0, 0) } ?? 0)
        lastPassTime = time
        lastPassLog = pass.log
        lastCorrection = anchoredY - before
        expectedY = anchoredY
        pendingCorrection = 0
        let controller = textViewportLayoutController
        if !pass.willLayout { throw TextViewError.missingSuperCall(method: "textViewportLayoutControllerWillLayout(_:)") }
        if pass.configured.count != controller.textLayoutFragmentsUnchecked.count {
            throw TextViewError.missingSuperCall(method: "textViewportLayoutController(_:configureRenderingSurfaceFor:)")
        }
        if !pass.didLayout { throw TextViewError.missingSuperCall(method: "textViewportLayoutControllerDidLayout(_:)") }
        if let early = controller.earlyReads.first { throw early }
    }

    // MARK: TextViewportLayoutControllerDelegate

    open func viewportBounds(for textViewportLayoutController: TextViewportLayoutController) -> CGRect {
        let visible = visibleRect
        let band = overdraw * visible.height
        return CGRect(x: 0, y: visible.minY - band - leadingOverdraw.above, width: visible.width,
                      height: visible.height + 2 * band + leadingOverdraw.above + leadingOverdraw.below)
    }

    open func textViewportLayoutControllerWillLayout(_ textViewportLayoutController: TextViewportLayoutController) {
        pass.willLayout = true
        pass.log.append("willLayout")
    }

    open func textViewportLayoutController(_ textViewportLayoutController: TextViewportLayoutController,
                                           configureRenderingSurfaceFor textLayoutFragment: TextLayoutFragment) {
        pass.configured.append(textLayoutFragment.paragraph.id)
        pass.log.append("configure:\(textLayoutFragment.paragraph.id.rawValue)")
        configuredFragments.append(textLayoutFragment)
    }

    open func textViewportLayoutControllerDidLayout(_ textViewportLayoutController: TextViewportLayoutController) {
        pass.didLayout = true
        pass.log.append("didLayout")
        if let first = configuredFragments.first.flatMap({ textLayoutManager.index(of: $0.paragraph.id) }),
           let last = configuredFragments.last.flatMap({ textLayoutManager.index(of: $0.paragraph.id) }) {
            textLayoutManager.trimShapedFragments(around: first...last)
        }
    }

    /// Every rendered frame runs a full pass, so nothing is deferred: the base does nothing, and
    /// subclasses may observe the request.
    open func textViewportLayoutControllerReceivedSetNeedsLayout(_ textViewportLayoutController: TextViewportLayoutController) {}
}
