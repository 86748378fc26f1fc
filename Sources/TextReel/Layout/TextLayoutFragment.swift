import Foundation

/// One laid-out paragraph: its frame in the document, its lines and its attachments' frames.
/// Like `NSTextLayoutFragment`, it belongs to one version of a paragraph; an edit replaces it.
public final class TextLayoutFragment {
    /// How far layout has gone, as in TextKit.
    public enum State: String, Sendable {
        case estimatedUsageBounds, layoutAvailable
    }

    public let paragraph: TextParagraph
    /// The tiling rect in document coordinates; `origin.y` moves as the fragments above it change.
    public internal(set) var layoutFragmentFrame: CGRect
    /// What drawing covers, relative to the frame's origin (ink may overhang the frame).
    public let renderingSurfaceBounds: CGRect
    public let textLineFragments: [TextLineFragment]
    /// Attachment frames relative to the frame's origin, in text order.
    public let attachmentFrames: [(attachment: TextAttachment, frame: CGRect)]
    public var state: State { layout == nil ? .estimatedUsageBounds : .layoutAvailable }

    /// Where the Pango layout's origin sits, relative to the frame's origin.
    let layoutOrigin: CGPoint
    let style: ParagraphStyle
    /// The shaped paragraph; nil while the fragment only has an estimated height.
    let layout: PangoLayoutBox?
    /// The content width it was laid out for.
    let containerWidth: Double

    /// The fragment of `paragraph` as the typesetter shaped it.
    init(paragraph: TextParagraph, shaped: ShapedParagraph) {
        self.paragraph = paragraph
        self.layoutFragmentFrame = CGRect(origin: .zero, size: shaped.size)
        self.renderingSurfaceBounds = shaped.renderingSurfaceBounds
        self.textLineFragments = shaped.lines
        self.attachmentFrames = shaped.attachmentFrames
        self.layoutOrigin = shaped.layoutOrigin
        self.style = shaped.style
        self.layout = shaped.layout
        self.containerWidth = shaped.containerWidth
    }

    /// A fragment that has not been shaped: an estimated height, no lines yet.
    init(estimating paragraph: TextParagraph, height: Double, containerWidth: Double, style: ParagraphStyle) {
        self.paragraph = paragraph
        self.layoutFragmentFrame = CGRect(x: 0, y: 0, width: containerWidth, height: height)
        self.renderingSurfaceBounds = CGRect(x: 0, y: 0, width: containerWidth, height: height)
        self.textLineFragments = []
        self.attachmentFrames = []
        self.layoutOrigin = .zero
        self.style = style
        self.layout = nil
        self.containerWidth = containerWidth
    }

    /// The frame of the attachment with `id`, relative to the fragment's frame.
    public func frameForTextAttachment(id: String) -> CGRect? {
        attachmentFrames.first { $0.attachment.id == id }?.frame
    }
}
