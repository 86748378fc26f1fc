import CPango
import Foundation

/// Composites a frame: cached fragment surfaces at their place relative to the viewport origin
/// (a long document is taller than Cairo's coordinate range), then each attachment on top.
final class FrameRenderer {
    let theme: Theme
    let painter: FragmentPainter
    let attachments: AttachmentPainter
    let cache = FragmentSurfaceCache()
    let attachmentSurfaces = AttachmentSurfaceCache()
    /// Compressed bands of this renderer's frames (see `FrameBands`).
    let bands = BandCache()
    /// Held while its surfaces are composited: a frame's deferred rows are painted from the same
    /// surfaces on whatever thread reads its pixels, and pixman's reference counts are not atomic.
    let compositing = NSLock()

    init(fonts: FontSystem, theme: Theme, providers: AttachmentProviders) {
        self.theme = theme
        painter = FragmentPainter(theme: theme)
        attachments = AttachmentPainter(fonts: fonts, theme: theme, providers: providers)
    }

    /// Device pixels for a document-space length, snapped so fragments land on whole pixels.
    private func device(_ points: Double, _ scale: Double) -> Double { (points * scale).rounded() }

    /// One thing composited into a frame, at device pixels relative to the frame's top left.
    private enum Piece: Equatable {
        case surface(CairoSurface, x: Double, y: Double)
        case placeholder(TextAttachment, box: CGRect, x: Double, y: Double)
        /// Drawn by a closure: never equal to anything, so a frame with one is always drawn.
        case decorations(ParagraphID, [FragmentDecoration], x: Double, y: Double)
        /// A fragment too tall for a surface of its own (Cairo's 32,767-pixel limit), drawn
        /// straight into the frame each time.
        case direct(Scene.Fragment, x: Double, y: Double)

        static func == (a: Piece, b: Piece) -> Bool {
            switch (a, b) {
            case let (.surface(s, x, y), .surface(t, u, v)): s === t && x == u && y == v
            case let (.placeholder(a, r, x, y), .placeholder(b, q, u, v)): a == b && r == q && x == u && y == v
            default: false
            }
        }
    }

    /// What a frame is made of: when the next frame is made of the same surfaces at the same
    /// places (a wait, a paused view, a scroll that ended), its pixels are the last frame's and it
    /// is neither drawn nor encoded again. Equality comes from what the renderer knows, not from
    /// comparing pixels; the surfaces are held, so an identity is never a reused address.
    private struct Composition: Equatable {
        var width: Int, height: Int
        var pieces: [Piece]
        var overlay: [Double]?
        var highlight: [CGRect]
        var focused: Bool
        var caret: CGRect?
        var marked: [CGRect]
    }
    private var last: (composition: Composition, frame: RenderedFrame)?

    /// Draws `scene`; returns the frame, the surfaces it drew and reused, and the bytes of each
    /// attachment view's surface (id → view instance and bytes), which flow back to the view.
    func render(_ scene: Scene) -> (frame: RenderedFrame, counters: RenderCounters, attachmentBytes: [String: (instance: Int, bytes: Int)]) {
        let before = (cache.draws, cache.hits, attachmentSurfaces.draws, attachmentSurfaces.hits)
        let frame = draw(scene)
        let counters = RenderCounters(surfaceDraws: cache.draws - before.0, surfaceHits: cache.hits - before.1,
                                      attachmentDraws: attachmentSurfaces.draws - before.2,
                                      attachmentHits: attachmentSurfaces.hits - before.3)
        return (frame, counters, attachmentSurfaces.bytes)
    }

    private func draw(_ scene: Scene) -> RenderedFrame {
        let visibleRect = scene.visibleRect, scale = scene.scale, overlay = scene.overlay
        let width = Int(device(visibleRect.width, scale)), height = Int(device(visibleRect.height, scale))
        let top = device(visibleRect.minY, scale)
        attachmentSurfaces.keep(only: scene.liveViews)
        var pieces: [Piece] = []
        for item in scene.fragments {
            let fragment = item.fragment, frameRect = item.frame
            let surfaceRect = fragment.renderingSurfaceBounds.offsetBy(dx: frameRect.minX, dy: frameRect.minY)
            guard surfaceRect.intersects(visibleRect), fragment.state == .layoutAvailable else { continue }
            if max(surfaceRect.width, surfaceRect.height) * scale > Double(CairoSurface.maximumSide) {
                pieces.append(.direct(item, x: device(frameRect.minX, scale), y: device(frameRect.minY, scale) - top))
            } else {
                let surface = cache.surface(for: fragment, scale: scale, generation: item.generation) { _, cr in self.drawFragment(item, in: cr) }
                pieces.append(.surface(surface, x: device(surfaceRect.minX, scale), y: device(surfaceRect.minY, scale) - top))
            }
            if !item.decorations.isEmpty {
                pieces.append(.decorations(fragment.paragraph.id, item.decorations, x: device(frameRect.minX, scale), y: device(frameRect.minY, scale) - top))
            }
            for attachment in item.attachments {
                let box = attachment.frame
                guard box.intersects(visibleRect) else { continue }
                let x = device(box.minX, scale), y = device(box.minY, scale) - top
                if let surface = attachmentSurfaces.surface(for: attachment, scale: scale, painter: self.attachments) {
                    pieces.append(.surface(surface, x: x, y: y))
                } else {
                    pieces.append(.placeholder(attachment.attachment, box: CGRect(origin: .zero, size: box.size), x: x, y: y))
                }
            }
        }
        // The selection layer, relative to the visible rect.
        let highlight = scene.highlight.filter { $0.intersects(visibleRect) }.map { $0.offsetBy(dx: 0, dy: -visibleRect.minY) }
        let caret = scene.caret.flatMap { $0.intersects(visibleRect) ? $0.offsetBy(dx: 0, dy: -visibleRect.minY) : nil }
        let marked = scene.marked.filter { $0.intersects(visibleRect) }.map { $0.offsetBy(dx: 0, dy: -visibleRect.minY) }
        let composition = Composition(width: width, height: height, pieces: pieces, overlay: overlay?.signature, highlight: highlight,
                                      focused: scene.isFocused, caret: caret, marked: marked)
        cache.trim(around: visibleRect)
        if scene.ruler == nil, scene.views == nil, let last, last.composition == composition { return last.frame.repeated() }

        // Bands whose compressed bytes are kept are left undrawn until pixels are asked for:
        // surfaces are painted into the other rows only. (Only surfaces are clipped so: Cairo
        // antialiases a clipped caret's edge otherwise than an unclipped one.)
        let plan = bandPlan(scene, pieces: pieces, composition: composition, top: top)
        let deferred = plan.bands.filter { $0.kept != nil }.map(\.rows)
        let drawnNow = FrameBands.runs(of: plan.bands.filter { $0.kept == nil }.map(\.rows))
        // Not cleared: the rows drawn now get the (opaque) background first, and deferred rows
        // theirs when they are drawn; until then nothing reads them (a surface drawn now may
        // reach into them, over whatever the memory held).
        let frame = CairoSurface(unclearedWidth: width, height: height)
        compositing.lock()
        defer { compositing.unlock() }
        frame.draw { cr in
            for rows in drawnNow {
                Paint.fill(cr, CGRect(x: 0, y: rows.lowerBound, width: frame.width, height: rows.count), theme.background)
            }
            if !highlight.isEmpty {
                // Behind the text: fragment surfaces are transparent around their glyphs.
                cairo_save(cr)
                cairo_scale(cr, scale, scale)
                let colors = theme.selection
                for rect in highlight { Paint.fill(cr, rect, scene.isFocused ? colors.focused : colors.unfocused, alpha: colors.highlightAlpha) }
                cairo_restore(cr)
            }
            for piece in pieces {
                switch piece {
                case let .surface(surface, x, y):
                    paint(surface, x: x, y: y, rows: drawnNow, width: width, in: cr)
                case let .placeholder(attachment, box, x, y):
                    cairo_save(cr)
                    cairo_translate(cr, x, y)
                    cairo_scale(cr, scale, scale)
                    attachments.drawPlaceholder(attachment, box: box, in: cr)
                    cairo_restore(cr)
                case let .direct(item, x, y):
                    cairo_save(cr)
                    cairo_translate(cr, x, y)
                    cairo_scale(cr, scale, scale)
                    drawFragment(item, in: cr)
                    cairo_restore(cr)
                case let .decorations(_, extra, x, y):
                    cairo_save(cr)
                    cairo_translate(cr, x, y)
                    cairo_scale(cr, scale, scale)
                    let context = GraphicsContext(cr, theme: theme, painter: attachments)
                    for decoration in extra { decoration.draw(in: context) }
                    cairo_restore(cr)
                }
            }
            if caret != nil || !marked.isEmpty {
                cairo_save(cr)
                cairo_scale(cr, scale, scale)
                for underline in marked { Paint.fill(cr, underline, theme.text) }
                if let caret { Paint.fill(cr, caret, theme.selection.caret) }
                cairo_restore(cr)
            }
            if let views = scene.views {
                cairo_save(cr)
                cairo_scale(cr, scale, scale)
                cairo_translate(cr, -visibleRect.minX, -visibleRect.minY)
                for view in views.subviews { draw(view, in: cr) }
                cairo_restore(cr)
            }
            if let ruler = scene.ruler {
                cairo_save(cr)
                cairo_scale(cr, scale, scale)
                let bounds = CGRect(x: 0, y: 0, width: ruler.ruleThickness, height: Double(height) / scale)
                cairo_rectangle(cr, bounds.minX, bounds.minY, bounds.width, bounds.height)
                cairo_clip(cr)
                GraphicsContext(cr, theme: theme, size: bounds.size, typeset: painter, painter: attachments).whileCurrent {
                    ruler.drawHashMarksAndLabels(in: bounds)
                }
                cairo_restore(cr)
            }
            if let overlay {
                cairo_save(cr)
                cairo_scale(cr, scale, scale)
                OverlayPainter.draw(overlay, colors: theme.overlay, in: cr)
                cairo_restore(cr)
            }
        }
        // Only a frame with deferred rows holds its surfaces (until it paints those rows).
        let surfaces = deferred.isEmpty ? [] : pieces.compactMap { piece -> (surface: CairoSurface, x: Double, y: Double)? in
            if case let .surface(surface, x, y) = piece { (surface, x, y) } else { nil }
        }
        let rendered = RenderedFrame(surface: frame, bands: plan,
                                     deferred: DeferredRows(rows: deferred, surfaces: surfaces, background: theme.background, lock: compositing))
        last = (composition, rendered)
        return rendered
    }

    /// Paints `surface` at (`x`, `y`) (whole pixels) into the frame's `rows` only: the rows of
    /// kept bands are painted later, if ever (see `DeferredRows`). Clipped to whole rows, a
    /// surface's pixels are the same as painted whole.
    private func paint(_ surface: CairoSurface, x: Double, y: Double, rows: [Range<Int>], width: Int, in cr: OpaquePointer) {
        let own = Int(y)..<Int(y) + surface.height
        let overlapping = rows.filter { $0.overlaps(own) }
        guard !overlapping.isEmpty else { return }
        let clipped = !overlapping.contains { $0.contains(own.lowerBound) && $0.contains(own.upperBound - 1) }
        if clipped {
            cairo_save(cr)
            for run in overlapping { cairo_rectangle(cr, 0, Double(run.lowerBound), Double(width), Double(run.count)) }
            cairo_clip(cr)
        }
        cairo_set_source_surface(cr, surface.surface, x, y)
        cairo_paint(cr)
        if clipped { cairo_restore(cr) }
    }

    /// How the frame's rows are cut for compression, and what each band is made of.
    private func bandPlan(_ scene: Scene, pieces: [Piece], composition: Composition, top: Double) -> FrameBands {
        let scale = scene.scale
        var layer = FrameBands.Layer()
        layer.coversAll = composition.overlay != nil || scene.ruler != nil || scene.views != nil
        /// The device rows a rect in points (relative to the frame) touches, `margin` points (at
        /// least a pixel) around.
        func rows(_ rect: CGRect, margin: Double = 0) -> Range<Int> {
            let pad = max((margin * scale).rounded(.up), 1)
            let start = Int((rect.minY * scale).rounded(.down) - pad), end = Int((rect.maxY * scale).rounded(.up) + pad)
            return start..<max(start, end)
        }
        for piece in pieces {
            switch piece {
            case let .surface(surface, x, y):
                layer.surfaces.append((surface.serial, Int(x), Int(y), surface.width, surface.height))
            case let .placeholder(_, box, _, y):
                // Its badge's label (11 pt, centred) may overhang a box shorter than itself.
                layer.unkeyed.append(rows(box.offsetBy(dx: 0, dy: y / scale), margin: 12))
            case .decorations, .direct:
                // Drawn by code each time, anywhere in its fragment and beyond: no band is kept.
                layer.coversAll = true
            }
        }
        layer.unkeyed += (composition.highlight + composition.marked + [composition.caret].compactMap { $0 }).map { rows($0) }
        // The frame's own size: Cairo makes a frame of no height one row tall.
        return FrameBands(width: max(composition.width, 1), height: max(composition.height, 1),
                          fragmentTops: scene.fragments.map { Int(device($0.frame.minY, scale) - top) }, layer: layer, cache: bands)
    }

    /// A fragment's own drawing, with its context `GraphicsContext.current` (as AppKit's is while
    /// a view draws), so string drawing there finds it.
    private func drawFragment(_ item: Scene.Fragment, in cr: OpaquePointer) {
        let fragment = item.fragment
        let context = GraphicsContext(cr, theme: theme, size: fragment.layoutFragmentFrame.size, typeset: painter, painter: attachments)
        context.renderingAttributes = item.renderingAttributes
        context.whileCurrent { fragment.draw(at: .zero, in: context) }
    }

    /// A view of the text view's `contentView`, its layer's background, its own drawing and its
    /// subviews, in its superview's coordinates.
    private func draw(_ view: View, in cr: OpaquePointer) {
        guard !view.isHidden else { return }
        let bounds = view.bounds
        cairo_save(cr)
        cairo_translate(cr, view.frame.minX, view.frame.minY)
        if view.clipsToBounds {
            cairo_rectangle(cr, 0, 0, bounds.width, bounds.height)
            cairo_clip(cr)
        }
        let context = GraphicsContext(cr, theme: theme, size: bounds.size, typeset: painter, painter: attachments)
        if let layer = view.layer, let background = layer.backgroundColor {
            context.fillRoundedRect(bounds, radius: layer.cornerRadius, background)
        }
        context.whileCurrent { view.draw(bounds) }
        for subview in view.subviews { draw(subview, in: cr) }
        cairo_restore(cr)
    }
}
