import Foundation

/// Which descriptor (and so which provider type) each URL scheme has: a registry each text view
/// owns (not a global, so two views in one process can draw the same scheme differently). The
/// built-in kinds are listed in `builtIn`; library users register their own, and read documents
/// with `kinds` so the reader knows their schemes.
public final class AttachmentProviders: @unchecked Sendable {
    private let lock = NSLock()
    private var descriptors: [String: AttachmentDescriptor]

    /// The built-in kinds, one descriptor file each.
    public static let builtIn: [AttachmentDescriptor] = [.image, .video, .drawing, .control, .math, .diagram]

    /// A registry holding the built-in kinds.
    public init() { descriptors = Dictionary(uniqueKeysWithValues: Self.builtIn.map { ($0.kind.scheme, $0) }) }

    /// Registers a kind of attachment (`![](audio:intro)` for an `audio` descriptor).
    public func register(_ descriptor: AttachmentDescriptor) {
        var descriptor = descriptor
        descriptor.kind.scheme = descriptor.kind.scheme.lowercased()
        lock.withLock { descriptors[descriptor.kind.scheme] = descriptor }
    }

    /// Registers `type` for `scheme` ("chart" for `![](chart:sales)`): a new kind with the
    /// generic look, or, for a scheme already known, the same kind drawn by `type`.
    public func register(_ type: TextAttachmentViewProvider.Type, forScheme scheme: String) {
        var descriptor = descriptor(forScheme: scheme.lowercased()) ?? .custom(type, scheme: scheme)
        descriptor.provider = type
        register(descriptor)
    }

    /// The descriptor registered for a lowercase scheme (nil: unknown).
    public func descriptor(forScheme scheme: String) -> AttachmentDescriptor? {
        lock.withLock { descriptors[scheme] }
    }

    /// The provider type registered for a lowercase scheme (nil: unknown).
    public func type(forScheme scheme: String) -> TextAttachmentViewProvider.Type? { descriptor(forScheme: scheme)?.provider }

    /// The provider type scripts name ("video"), matched on scheme or `providerName`.
    public func type(named name: String) -> TextAttachmentViewProvider.Type? {
        lock.withLock { descriptors[name]?.provider ?? descriptors.values.first { $0.provider.providerName == name }?.provider }
    }

    /// The box a provider that tracks its view's bounds gives `attachment`, for layout (nil: the
    /// attachment's own size). Asks a provider not yet bound to a paragraph.
    func trackedSize(_ attachment: TextAttachment, proposedWidth: Double) -> CGSize? {
        guard let type = type(forScheme: attachment.scheme) else { return nil }
        let provider = type.init(textAttachment: attachment, location: TextLocation(paragraph: ParagraphID(-1)))
        return provider.tracksTextAttachmentViewBounds ? provider.attachmentBounds(proposedWidth: proposedWidth).size : nil
    }

    package var schemes: [String] { lock.withLock { descriptors.keys.sorted() } }

    /// What a document reader needs to know of these kinds, and TextReel's image reader.
    public var kinds: AttachmentKinds {
        AttachmentKinds(lock.withLock { descriptors.values.map(\.kind) }, inspectImage: ImageFile.inspect)
    }
}

extension CodingUserInfoKey {
    /// The registry a script's `register` names are looked up in.
    static let attachmentProviders = CodingUserInfoKey(rawValue: "attachmentProviders")!
}

extension AttachmentKinds {
    /// The built-in kinds and TextReel's image reader.
    public static var standard: AttachmentKinds { AttachmentProviders().kinds }
}
