import Foundation

/// Images: the real picture (PNG, JPEG, SVG), or a "missing image" placeholder.
open class ImageAttachmentViewProvider: TextAttachmentViewProvider {
    open override class var providerName: String { "image" }
    open override func loadView() -> AttachmentView { ImageAttachmentView(attachment: textAttachment) }
}

open class ImageAttachmentView: AttachmentView {
    open override func draw(in canvas: AttachmentCanvas) {
        if let file = attachment.file, canvas.image(file, in: canvas.bounds) { return }
        canvas.placeholder(for: attachment)
    }
}
