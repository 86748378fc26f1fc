import Foundation

/// Makes the view for one attachment (the `NSTextAttachmentViewProvider` analogue). The view is
/// made lazily by `loadView()`, which the text view calls, never user code.
open class TextAttachmentViewProvider {
    /// The attachment this provider makes a view for.
    public let textAttachment: TextAttachment
    /// Where the attachment is; it follows edits of its paragraph.
    public internal(set) var location: TextLocation
    private var loadedView: AttachmentView?

    /// A provider for `textAttachment` at `location`; it makes no view yet.
    public required init(textAttachment: TextAttachment, location: TextLocation) {
        self.textAttachment = textAttachment
        self.location = location
    }

    /// The name scripts and events use for this provider type ("video").
    open class var providerName: String { "attachment" }

    /// The size of an attachment written without `size=` (nil: the reader's default).
    open class var defaultSize: CGSize? { nil }

    /// The view, made on first use.
    public var view: AttachmentView {
        if let loadedView { return loadedView }
        let made = loadView()
        loadedView = made
        return made
    }

    /// Makes the view. Override to return your own `AttachmentView` subclass.
    open func loadView() -> AttachmentView { AttachmentView(attachment: textAttachment) }

    /// When true, layout asks `attachmentBounds(proposedWidth:)` for the attachment's box.
    open var tracksTextAttachmentViewBounds: Bool { false }

    /// The attachment's box, given the width available on the line.
    open func attachmentBounds(proposedWidth: Double) -> CGRect {
        CGRect(origin: .zero, size: textAttachment.size)
    }
}
