import Foundation

/// Everything one frame is drawn from, decided before drawing starts: the fragments the pass
/// configured (with their frames as they were then), the extra drawing added to them, each
/// attachment's view and the state it is drawn in, and the overlay. `FrameRenderer.render(_:)`
/// reads this value only; the text view makes it after the pass.
public struct Scene {
    /// One configured fragment, with its frame at the time of the pass.
    struct Fragment {
        let fragment: TextLayoutFragment
        /// `layoutFragmentFrame` in document coordinates.
        let frame: CGRect
        let decorations: [FragmentDecoration]
        /// Its attachments, in text order.
        let attachments: [Attachment]
        /// What its surface was last invalidated as (part of the surface's cache key).
        let generation: Int
        /// The display-only attributes drawn over it (`TextLayoutManager.setRenderingAttributes`).
        let renderingAttributes: [AttributeRun]
    }

    /// One attachment of a fragment, and what it is drawn from.
    struct Attachment {
        let attachment: TextAttachment
        /// In document coordinates.
        let frame: CGRect
        /// The live view, if the attachment has one (none: the plain placeholder).
        let view: AttachmentView?
        let drawn: DrawnState?
    }

    /// What decides an attachment view's pixels: which view, its state version, and while it is
    /// loading the frame of its loading animation.
    struct DrawnState: Equatable {
        let instance: Int
        let stateVersion: Int
        let loadingFrame: Int?

        init(_ view: AttachmentView) {
            instance = view.instance
            stateVersion = view.stateVersion
            loadingFrame = view.isLoaded ? nil : view.framesSinceCreation
        }
    }

    let visibleRect: CGRect
    let scale: Double
    let fragments: [Fragment]
    /// The live attachment views (id → instance), visible or kept: the surfaces of any other are dropped.
    let liveViews: [String: Int]
    let overlay: Overlay?
    /// The selection's highlight (behind the text) and the caret (on top), in document
    /// coordinates: a layer of their own, so moving them redraws no fragment.
    var highlight: [CGRect] = []
    /// Whether the view is focused: the highlight's colour.
    var isFocused = true
    /// Nil also while a blinking caret is off.
    var caret: CGRect?
    /// Underlines of marked (uncommitted) text, in document coordinates.
    var marked: [CGRect] = []
    /// The view's ruler, drawn on every frame (what it draws is its own: a frame is never reused).
    var ruler: RulerView?
    /// The view's `contentView`, when a subview of it shows: drawn on every frame, as the ruler.
    var views: View?
}

/// Surfaces drawn and reused by one frame.
public struct RenderCounters: Sendable, Equatable {
    /// Fragment surfaces drawn afresh.
    public var surfaceDraws = 0
    /// Fragment surfaces composited from the cache.
    public var surfaceHits = 0
    /// Attachment surfaces drawn afresh.
    public var attachmentDraws = 0
    /// Attachment surfaces composited from their cache.
    public var attachmentHits = 0
}
