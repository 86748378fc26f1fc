import Foundation

/// Frames in which nothing can have changed — a wait after the view settled — cost a copy of the
/// last frame, not a layout pass: no step ran, the visible rect, overdraw, selection, focus and
/// overlay are the last pass's, nothing asked for layout, no attachment view animates, the caret
/// does not blink, and the last pass itself changed nothing (no shaping, correction, attachment
/// view made, loaded or dropped, flicker or jump). Such a pass would repeat the last one exactly, so its record is reused
/// and the frame is the last one's pixels (a test compares whole runs with and without this).
extension TextView {
    /// What a quiet frame must find as the last pass left it.
    struct QuietState: Equatable {
        var visibleRect: CGRect
        var viewportBounds: CGRect
        var selectionsVersion: Int
        var isFocused: Bool
        var showsOverlay: Bool
        var renderingVersion: Int
    }

    var quietState: QuietState {
        QuietState(visibleRect: visibleRect, viewportBounds: viewportBounds(for: textViewportLayoutController),
                   selectionsVersion: textLayoutManager.selectionsVersion, isFocused: isFocused, showsOverlay: showsOverlay,
                   renderingVersion: textLayoutManager.renderingVersion)
    }

    /// The last pass, when a pass now could not differ from it (nil: lay out).
    func repeatablePass() -> LayoutPass? {
        // A subclass may lay out or draw by its own lights: only the view as it comes is judged.
        guard reusesQuietFrames, type(of: self) == TextView.self, cachesFragments, verticalRulerView == nil, let pass = lastPass,
              let state = lastQuietState, state == quietState, !textViewportLayoutController.needsLayout, !revealPending,
              caretBlinkInterval == nil, pass.shaped.isEmpty, pass.correction == 0,
              // "visible" and "kept" restate a view's place every pass; any other event is a change.
              pass.attachmentEvents.allSatisfy({ $0.event == .visible || $0.event == .kept }),
              pass.checks.flicker.isEmpty, pass.checks.jump == 0, !pass.checks.caretHidden, !attachmentHost.anyAnimating else { return nil }
        return pass
    }

    /// The frame after `last`, when nothing changed: its pixels, and the last pass with the
    /// counters a drawn repeat would have (every surface composited from the cache).
    func repeatFrame(_ last: RenderedFrame, pass: LayoutPass) -> RenderedFrame {
        var pass = pass
        let before = last.pass?.counters ?? RenderCounters()
        pass.counters = RenderCounters(surfaceDraws: 0, surfaceHits: before.surfaceDraws + before.surfaceHits,
                                       attachmentDraws: 0, attachmentHits: before.attachmentDraws + before.attachmentHits)
        let frame = last.repeated()
        frame.pass = pass
        lastPass = pass
        passedQuietly()
        return frame
    }

    /// A quiet frame stands for a pass: the views' clocks are at its time (none animates, so
    /// advancing them would change nothing), and the next pass advances them by one frame's
    /// time, as when every frame is laid out. (The explorer's find: a video played after a wait
    /// was given the wait's time, so its position depended on which frames had been drawn.)
    func passedQuietly() { lastPassTime = time }
}
