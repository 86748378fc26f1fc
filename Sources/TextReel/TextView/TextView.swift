import Foundation

/// The text view (the UITextView analogue): owns the document's layout manager, the viewport
/// layout controller (which keeps the scroll position) and the renderer, and is the controller's
/// delegate. Subclasses override the delegate methods and must call `super`.
///
/// One file per concern: scrolling in `TextView+Scrolling`, the call-order verifier in
/// `TextView+CallOrder`, attachments in `TextView+Attachments`, edits in `TextView+Editing`.
open class TextView: TextViewportLayoutControllerDelegate {
    /// Lays out the document's paragraphs and keeps their heights.
    public let textLayoutManager: TextLayoutManager
    /// Keeps the scroll position and runs the layout passes.
    public let textViewportLayoutController: TextViewportLayoutController
    /// The view's size in points (`resize(to:)` changes it).
    public internal(set) var viewportSize: CGSize
    /// Pixels per point of the frames it renders.
    public let scale: Double
    /// Overdraw above and below the visible rect, as a fraction of the visible height.
    public var overdraw: Double = 0.5
    /// Extra overdraw on the side the scroll is heading, in points (a script sets it from the
    /// next frames' motion).
    public var leadingOverdraw: (above: Double, below: Double) = (0, 0)

    let fonts: FontSystem
    let renderer: FrameRenderer
    let attachmentHost: AttachmentViewHost
    /// Which provider draws each attachment scheme; read documents with `providers.kinds` when
    /// you register schemes of your own.
    public let providers: AttachmentProviders
    /// Script time in seconds; playing videos advance by how much it moved between passes.
    public var time: Double = 0
    /// The script time of the last pass, or of the last quiet frame (`passedQuietly()`).
    var lastPassTime: Double?
    /// The bytes of each attachment view's surface as the last frame drew them (id → view
    /// instance and bytes), which the kept-view byte cap counts on the next pass.
    var attachmentSurfaceBytes: [String: (instance: Int, bytes: Int)] = [:]
    /// What the base delegate implementations saw during the current pass.
    var callOrder = CallOrder()
    /// Fragments handed to `configureRenderingSurfaceFor` in the current or last pass, top to bottom.
    public internal(set) var configuredFragments: [TextLayoutFragment] = []
    /// Extra drawing per fragment for the current pass, added by `decorate(_:with:)`.
    var decorations: [ParagraphID: [FragmentDecoration]] = [:]
    /// A step scrolled a range into view since the last pass: the caret must be visible now.
    var revealPending = false
    /// The scroll offset when the base `didLayout` ran: a subclass that scrolls after it makes
    /// the pass run again.
    var yAtDidLayout: Double?
    /// Whether the view has the keyboard focus: a focused view draws its caret and its
    /// highlight in the focused colour; one that is not, no caret and the unfocused colour.
    public var isFocused = true
    /// Seconds of one blink (on for the first half); nil, the default: a steady caret, so
    /// frames never depend on when they are drawn. Blinking restarts when the caret moves.
    public var caretBlinkInterval: Double?
    /// Script time when the caret last moved (the blink's start), and where it was.
    var caretMoved: (time: Double, selection: LayoutPass.Selection?) = (0, nil)
    /// The record of the last pass.
    public internal(set) var lastPass: LayoutPass?
    /// What the last pass saw (visible rect, overdraw, selection, focus, overlay), for quiet frames.
    var lastQuietState: QuietState?
    /// Whether a frame in which nothing can have changed reuses the last pass and its pixels
    /// (see `TextView+QuietFrames.swift`); false lays out every frame, as the comparison test does.
    public var reusesQuietFrames = true
    /// Attachment events of the passes since the last `drainAttachmentEvents()`: the last
    /// `keptAttachmentEvents` of them count.
    var undrainedAttachmentEvents: [AttachmentEvent] = []
    static let keptAttachmentEvents = 4096
    /// Code bands lexed again after edits, summed (what an edit's highlighting cost).
    var codeBandsLexed = 0

    /// The delegate calls of the last `layoutPass()`, in order.
    public var lastPassLog: [String] { lastPass?.delegateCalls ?? [] }
    /// Points the content offset moved during the last pass while the content stayed still.
    public var lastCorrection: Double { lastPass?.correction ?? 0 }

    /// The document as edited so far.
    public var document: TextDocument { textLayoutManager.document }
    /// The look it lays out and draws in.
    public var theme: Theme { textLayoutManager.theme }
    var scrollPosition: ScrollPosition { textViewportLayoutController.scrollPosition }

    /// A view of `document`, `viewportSize` points, drawn at `scale` pixels per point.
    public init(document: TextDocument, viewportSize: CGSize, scale: Double = 1,
                theme: Theme = Theme(), fontSet: FontSet = .standard, providers: AttachmentProviders = AttachmentProviders()) {
        // The sample reads paragraphs across the document: sections not parsed yet are parsed
        // on another thread while the first screen is shaped (which needs no total height), at a
        // lower priority than the fonts being set up and the shaping, which the frame waits for.
        let sample = { @Sendable [width = viewportSize.width] in TextLayoutManager.sampledHeight(of: document, theme: theme, containerWidth: width) }
        let sampledHeight: () -> Double
        if document.paragraphs.store.hasUnparsedSections {
            let sampling = Background(yielding: true, sample)
            sampledHeight = { sampling.value }
        } else {
            sampledHeight = { [sampled = sample()] in sampled }
        }
        fonts = FontSystem.forCurrentThread(fontSet)
        self.providers = providers
        attachmentHost = AttachmentViewHost(providers: providers)
        let typesetter = Typesetter(fonts: fonts, theme: theme, attachmentSize: providers.trackedSize)
        textLayoutManager = TextLayoutManager(document: document, containerWidth: viewportSize.width, typesetter: typesetter,
                                              sampledHeight: sampledHeight)
        textViewportLayoutController = TextViewportLayoutController(textLayoutManager: textLayoutManager,
                                                                    viewportHeight: viewportSize.height)
        renderer = FrameRenderer(fonts: fonts, theme: theme, providers: providers)
        self.viewportSize = viewportSize
        self.scale = scale
        textViewportLayoutController.delegate = self
        textLayoutManager.viewportController = textViewportLayoutController
        textLayoutManager.storageEditor = self
        textLayoutManager.selectionChanged = { [unowned self] in delegate?.textViewDidChangeSelection(self) }
    }

    /// Told what the view does, as `UITextViewDelegate` is (weak, as UIKit's).
    public weak var delegate: TextViewDelegate?

    /// The content storage: the document's attributed text and the delegate that restyles
    /// paragraphs for display (`textLayoutManager.textContentManager`).
    public var textContentStorage: TextContentStorage? { textLayoutManager.textContentStorage }

    // MARK: Rendering

    /// One layout pass and the drawing of the visible rect; the frame carries the pass's record.
    /// Throws `TextViewError` when an override skipped `super` or read controller state too
    /// early, and `TextReelError` when the named fonts are missing.
    public func renderFrame() throws -> RenderedFrame {
        // A view made from Swift too large for a frame is an error here, not a crash in Cairo.
        try ViewportLimits.check(viewportSize, scale: scale, theme: theme)
        var pass = try layoutPass()
        let (frame, counters, surfaceBytes) = renderer.render(scene(of: pass))
        attachmentSurfaceBytes = surfaceBytes
        pass.counters = counters
        lastPass = pass
        frame.pass = pass
        return frame
    }

    /// What the renderer draws after `pass`: the configured fragments with their decorations and
    /// the state of their attachments' views.
    private func scene(of pass: LayoutPass) -> Scene {
        let fragments = configuredFragments.map { fragment in
            let frame = fragment.layoutFragmentFrame
            return Scene.Fragment(
                fragment: fragment, frame: frame, decorations: decorations[fragment.paragraph.id] ?? [],
                attachments: fragment.attachmentFrames.map { attachment, rect in
                    let view = attachmentHost.view(for: attachment.id)
                    return Scene.Attachment(attachment: attachment, frame: rect.offsetBy(dx: frame.minX, dy: frame.minY),
                                            view: view, drawn: view.map(Scene.DrawnState.init))
                },
                generation: textLayoutManager.surfaceGeneration(of: fragment.paragraph.id),
                renderingAttributes: textLayoutManager.renderingAttributeRuns(of: fragment.paragraph.id))
        }
        return Scene(visibleRect: visibleRect, scale: scale, fragments: fragments, liveViews: attachmentHost.liveViews,
                     overlay: showsOverlay ? Overlay(pass) : nil, highlight: pass.selection?.highlight.map(\.cgRect) ?? [],
                     isFocused: isFocused, caret: caretIsShown && drawsCaret ? pass.selection?.caret?.cgRect : nil,
                     marked: pass.selection?.marked?.map(\.cgRect) ?? [], ruler: verticalRulerView,
                     views: contentView.subviews.contains { !$0.isHidden } ? contentView : nil)
    }

    /// Adds drawing to a fragment for this pass (call it from `configureRenderingSurfaceFor`).
    public func decorate(_ fragment: TextLayoutFragment, with decoration: FragmentDecoration) {
        decorations[fragment.paragraph.id, default: []].append(decoration)
    }

    /// Draws fragment frames, rendering-surface bounds, and a minimap of the visible rect and the
    /// overdraw band on top of each frame.
    public var showsOverlay = false

    /// A ruler drawn beside the text on every frame (line numbers: see `RulerView`).
    public var verticalRulerView: RulerView?

    /// Views drawn over the text in document coordinates, after the selection, on every frame
    /// (an editor's own insertion points, markers): see `View`.
    public let contentView = View(frame: .zero)

    /// Whether the view draws the selection's caret itself; false for a program that draws its
    /// own insertion point (as STTextView does, with views in `contentView`).
    public var drawsCaret = true

    /// When false, every pass re-shapes and redraws every fragment (the benchmark's no-cache peer).
    public var cachesFragments = true

    /// Runs `layoutViewport()`, checks that every override called `super`, updates the attachment
    /// views, and returns the record of the pass.
    @discardableResult
    public func layoutPass() throws -> LayoutPass {
        if let problem = fonts.problem { throw problem }
        if !cachesFragments {
            textLayoutManager.discardShapedFragments()
            renderer.cache.removeAll()
        }
        let before = scrollPosition.beginPass()
        startPass(keepingLog: false)
        yAtDidLayout = nil
        var report = textViewportLayoutController.layoutViewport()
        // A scroll asked for in didLayout (a subclass keeping content still) is laid out now,
        // not drawn over rows the pass did not cover.
        for _ in 0..<2 where yAtDidLayout.map({ $0 != scrollPosition.y }) == true {
            startPass(keepingLog: true)
            report = textViewportLayoutController.layoutViewport()
        }
        // Measuring can leave the offset outside the document: clamp and lay out again.
        if scrollPosition.clampToDocument() {
            startPass(keepingLog: true)
            report = textViewportLayoutController.layoutViewport()
        }
        // A step revealed the caret, but measuring the paragraphs between moved it: follow it
        // and lay out again (what keeps a caret from vanishing below the view after typing).
        for _ in 0..<2 where revealPending {
            guard let range = selectedTextRange, let delta = revealDelta(for: range), delta != 0 else { break }
            scroll(by: delta)
            revealPending = true
            startPass(keepingLog: true)
            report = textViewportLayoutController.layoutViewport()
            if scrollPosition.clampToDocument() {
                startPass(keepingLog: true)
                report = textViewportLayoutController.layoutViewport()
            }
        }
        // Then the attachment views, once per pass, for the fragments it settled on.
        let inBounds = configuredFragments.flatMap { fragment in fragment.paragraph.attachments.map { ($0, fragment.paragraph.location(utf8: $0.utf8Offset)) } }
        let flicker = attachmentHost.update(inBounds: inBounds, elapsed: lastPassTime.map { max(time - $0, 0) } ?? 0,
                                            surfaceBytes: attachmentSurfaceBytes)
        lastPassTime = time
        let moved = scrollPosition.endPass(before: before)
        try verifyCallOrder(report)
        let pass = makePass(correction: moved.correction, jump: moved.jump, flicker: flicker)
        if pass.selection != caretMoved.selection { caretMoved = (time, pass.selection) }
        lastPass = pass
        lastQuietState = quietState
        return pass
    }

    private func startPass(keepingLog: Bool) {
        callOrder = CallOrder(log: keepingLog ? callOrder.log : [])
        configuredFragments = []
        decorations = [:]
    }

    /// The record of the pass just run.
    private func makePass(correction: Double, jump: Double, flicker: [String]) -> LayoutPass {
        let manager = textLayoutManager
        let visible = LayoutRect(visibleRect)
        let fragments = configuredFragments.map { fragment in
            LayoutPass.Fragment(fragment, index: manager.index(of: fragment.paragraph.id) ?? -1) { [attachmentHost] id in
                attachmentHost.view(for: id).map { v in
                    v.visibleState.keys.sorted().map { "\($0)=\(v.visibleState[$0]!)" }.joined(separator: " ")
                } ?? "no view"
            }
        }
        let events = attachmentHost.drainEvents()
        // Bounded, for callers that never drain: the oldest go first, a batch at a time, so a
        // pass costs what it adds rather than a copy of all that is kept.
        undrainedAttachmentEvents += events
        if undrainedAttachmentEvents.count > 2 * Self.keptAttachmentEvents {
            undrainedAttachmentEvents.removeFirst(undrainedAttachmentEvents.count - Self.keptAttachmentEvents)
        }
        var checks = PassChecks()
        checks.errors = PassChecks.geometryErrors(
            fragments: fragments, visible: visible, paragraphCount: manager.paragraphCount,
            contentTop: theme.insets.top, contentBottom: manager.documentHeight - theme.insets.bottom,
            positionOf: manager.y(ofParagraphAt:))
        checks.jump = jump
        checks.created = events.count { $0.event == .created }
        checks.recreated = events.count { $0.event == .recreated }
        checks.discarded = events.count { $0.event == .discarded }
        checks.flicker = flicker
        checks.estimateError = manager.estimateError
        let selection = selectionRecord()
        let selectionChecks = selectionChecks(selection, fragments: fragments, visible: visible)
        checks.errors += selectionChecks.errors
        checks.caretHidden = selectionChecks.caretHidden
        return LayoutPass(
            visibleRect: visible, viewportBounds: LayoutRect(textViewportLayoutController.viewportBounds), scale: scale,
            documentHeight: manager.documentHeight, measuredHeight: manager.measuredHeight,
            estimatedHeight: manager.documentHeight - manager.measuredHeight - theme.insets.top - theme.insets.bottom,
            paragraphCount: manager.paragraphCount, measuredParagraphCount: manager.measuredParagraphCount,
            delegateCalls: callOrder.log, fragments: fragments, correction: correction,
            shaped: manager.drainShaped().map(\.rawValue), attachmentEvents: events, checks: checks, selection: selection)
    }

    // MARK: TextViewportLayoutControllerDelegate
    // (in the class body, not an extension: Swift cannot override methods declared in extensions)

    open func viewportBounds(for textViewportLayoutController: TextViewportLayoutController) -> CGRect {
        let visible = visibleRect
        let band = overdraw * visible.height
        return CGRect(x: 0, y: visible.minY - band - leadingOverdraw.above, width: visible.width,
                      height: visible.height + 2 * band + leadingOverdraw.above + leadingOverdraw.below)
    }

    open func textViewportLayoutControllerWillLayout(_ textViewportLayoutController: TextViewportLayoutController) {
        callOrder.willLayout = true
        callOrder.log.append("willLayout")
    }

    open func textViewportLayoutController(_ textViewportLayoutController: TextViewportLayoutController,
                                           configureRenderingSurfaceFor textLayoutFragment: TextLayoutFragment) {
        callOrder.configured += 1
        callOrder.log.append("configure:\(textLayoutFragment.paragraph.id.rawValue)")
        configuredFragments.append(textLayoutFragment)
    }

    open func textViewportLayoutControllerDidLayout(_ textViewportLayoutController: TextViewportLayoutController) {
        yAtDidLayout = scrollPosition.y
        callOrder.didLayout = true
        callOrder.log.append("didLayout")
        if let first = configuredFragments.first.flatMap({ textLayoutManager.index(of: $0.paragraph.id) }),
           let last = configuredFragments.last.flatMap({ textLayoutManager.index(of: $0.paragraph.id) }) {
            textLayoutManager.trimShapedFragments(around: first...last)
        }
    }

    /// Every rendered frame runs a full pass, so nothing is deferred: the base does nothing, and
    /// subclasses may observe the request.
    open func textViewportLayoutControllerReceivedSetNeedsLayout(_ textViewportLayoutController: TextViewportLayoutController) {}
}

/// What a text view tells its delegate (`UITextViewDelegate`'s methods that apply headless).
public protocol TextViewDelegate: AnyObject {
    /// The selection changed: set, moved by a key, or moved by an edit.
    func textViewDidChangeSelection(_ textView: TextView)
}
