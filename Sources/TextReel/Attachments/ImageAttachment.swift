import Foundation

/// Images: the real picture (PNG, JPEG, SVG), or a "missing image" placeholder.
open class ImageAttachmentViewProvider: TextAttachmentViewProvider {
    open override class var providerName: String { "image" }
    open override func loadView() -> AttachmentView { ImageAttachmentView(attachment: textAttachment) }
}

/// An image's view: the decoded picture, else its placeholder.
open class ImageAttachmentView: AttachmentView {
    /// Still once loaded.
    open override var isAnimating: Bool { !isLoaded }
    open override func draw(in canvas: GraphicsContext) {
        // A damaged file may still half-decode (grey rows): its placeholder says what is wrong.
        if attachment.problem == nil, let file = attachment.file, canvas.image(file, in: canvas.bounds) { return }
        canvas.placeholder(for: attachment)
    }
}

extension AttachmentDescriptor {
    /// `![alt](pictures/photo.png)`: a file beside the document (PNG, JPEG, SVG); its size is the
    /// picture's unless `size=` says otherwise. Never trusted unparsed: its file is looked at.
    public static let image = AttachmentDescriptor(
        kind: AttachmentKind(scheme: "image", defaultSize: { _ in CGSize(width: 160, height: 120) }, readKeys: []),
        provider: ImageAttachmentViewProvider.self,
        placeholderColors: { ($0.attachments.imagePlaceholder, $0.attachments.imagePlaceholderInk) },
        caption: { $0.problem ?? "missing image" })
}
