import Foundation

/// Makes the view for one attachment (the `NSTextAttachmentViewProvider` analogue). The view is
/// made lazily by `loadView()`, which the text view calls, never user code.
open class TextAttachmentViewProvider {
    public let textAttachment: TextAttachment
    /// Where the attachment is; it follows edits of its paragraph.
    public internal(set) var location: TextLocation
    private var loadedView: AttachmentView?

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

    var hasLoadedView: Bool { loadedView != nil }

    /// Makes the view. Override to return your own `AttachmentView` subclass.
    open func loadView() -> AttachmentView { AttachmentView(attachment: textAttachment) }

    /// When true, layout asks `attachmentBounds(proposedWidth:)` for the attachment's box.
    open var tracksTextAttachmentViewBounds: Bool { false }

    /// The attachment's box, given the width available on the line.
    open func attachmentBounds(proposedWidth: Double) -> CGRect {
        CGRect(origin: .zero, size: textAttachment.size)
    }
}

/// Which provider type draws each URL scheme. The built-in schemes are image, video, drawing and
/// control; library users register their own.
public enum AttachmentProviders {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var types: [String: TextAttachmentViewProvider.Type] = [
        "image": ImageAttachmentViewProvider.self,
        "video": VideoAttachmentViewProvider.self,
        "drawing": DrawingAttachmentViewProvider.self,
        "control": ControlAttachmentViewProvider.self,
    ]

    /// Registers `type` for `scheme` ("chart" for `![](chart:sales)`), for every document read after.
    public static func register(_ type: TextAttachmentViewProvider.Type, forScheme scheme: String) {
        lock.withLock { types[scheme.lowercased()] = type }
    }

    public static func type(forScheme scheme: String) -> TextAttachmentViewProvider.Type? {
        lock.withLock { types[scheme] }
    }

    /// The provider type scripts name ("video"), matched on `providerName` or scheme.
    public static func type(named name: String) -> TextAttachmentViewProvider.Type? {
        lock.withLock { types[name] ?? types.values.first { $0.providerName == name } }
    }

    /// The box a provider that tracks its view's bounds gives `attachment`, for layout (nil: the
    /// attachment's own size). Asks a provider not yet bound to a paragraph.
    static func trackedSize(_ attachment: TextAttachment, proposedWidth: Double) -> CGSize? {
        guard let type = type(forScheme: attachment.scheme) else { return nil }
        let provider = type.init(textAttachment: attachment, location: TextLocation(paragraph: ParagraphID(-1)))
        return provider.tracksTextAttachmentViewBounds ? provider.attachmentBounds(proposedWidth: proposedWidth).size : nil
    }

    static var schemes: [String] { lock.withLock { types.keys.sorted() } }
}
