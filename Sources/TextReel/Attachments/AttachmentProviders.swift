import Foundation

/// Which provider type draws each URL scheme: a registry each text view owns (not a global, so
/// two views in one process can draw the same scheme differently). The built-in schemes are
/// image, video, drawing and control; library users register their own, and read documents with
/// `kinds` so the reader knows their schemes.
public final class AttachmentProviders: @unchecked Sendable {
    private let lock = NSLock()
    private var types: [String: TextAttachmentViewProvider.Type]

    /// The built-in providers, by scheme.
    static var builtIn: [String: TextAttachmentViewProvider.Type] {
        ["image": ImageAttachmentViewProvider.self, "video": VideoAttachmentViewProvider.self,
         "drawing": DrawingAttachmentViewProvider.self, "control": ControlAttachmentViewProvider.self]
    }

    public init() { types = Self.builtIn }

    /// Registers `type` for `scheme` ("chart" for `![](chart:sales)`).
    public func register(_ type: TextAttachmentViewProvider.Type, forScheme scheme: String) {
        lock.withLock { types[scheme.lowercased()] = type }
    }

    public func type(forScheme scheme: String) -> TextAttachmentViewProvider.Type? {
        lock.withLock { types[scheme] }
    }

    /// The provider type scripts name ("video"), matched on `providerName` or scheme.
    public func type(named name: String) -> TextAttachmentViewProvider.Type? {
        lock.withLock { types[name] ?? types.values.first { $0.providerName == name } }
    }

    /// The box a provider that tracks its view's bounds gives `attachment`, for layout (nil: the
    /// attachment's own size). Asks a provider not yet bound to a paragraph.
    func trackedSize(_ attachment: TextAttachment, proposedWidth: Double) -> CGSize? {
        guard let type = type(forScheme: attachment.scheme) else { return nil }
        let provider = type.init(textAttachment: attachment, location: TextLocation(paragraph: ParagraphID(-1)))
        return provider.tracksTextAttachmentViewBounds ? provider.attachmentBounds(proposedWidth: proposedWidth).size : nil
    }

    var schemes: [String] { lock.withLock { types.keys.sorted() } }

    /// What a document reader needs to know of these providers: the schemes beyond the built-in
    /// ones with their default sizes, and TextReel's image reader.
    public var kinds: AttachmentKinds {
        let custom = lock.withLock { types.filter { Self.builtIn[$0.key] == nil }.mapValues { $0.defaultSize } }
        return AttachmentKinds(customSchemes: custom, inspectImage: ImageFile.inspect)
    }
}

extension CodingUserInfoKey {
    /// The registry a script's `register` names are looked up in.
    static let attachmentProviders = CodingUserInfoKey(rawValue: "attachmentProviders")!
}

extension AttachmentKinds {
    /// The built-in providers' schemes and TextReel's image reader.
    public static var standard: AttachmentKinds { AttachmentProviders().kinds }
}
