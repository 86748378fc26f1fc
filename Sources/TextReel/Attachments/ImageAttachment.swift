import Foundation

/// Images: the real picture (PNG, JPEG, SVG), or a "missing image" placeholder.
open class ImageAttachmentViewProvider: TextAttachmentViewProvider {
    open override class var providerName: String { "image" }
    open override func loadView() -> AttachmentView { ImageAttachmentView(attachment: textAttachment) }
}

open class ImageAttachmentView: AttachmentView {
    open override func draw(in canvas: AttachmentCanvas) {
        // A damaged file may still half-decode (grey rows): its placeholder says what is wrong.
        if attachment.problem == nil, let file = attachment.file, canvas.image(file, in: canvas.bounds) { return }
        canvas.placeholder(for: attachment)
    }
}
