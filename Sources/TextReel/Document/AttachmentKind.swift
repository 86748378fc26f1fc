import Foundation

/// What reading a document needs to know of one attachment kind: the document half of its
/// descriptor (`AttachmentDescriptor` holds the rest). Declared by the kind's own file, passed
/// in, so the document room names no provider.
public struct AttachmentKind: Sendable {
    /// The URL scheme (`video` in `![](video:intro)`).
    public var scheme: String
    /// The box of an attachment written without `size=`, from its query parameters (nil: it
    /// must give one).
    public var defaultSize: @Sendable (_ parameters: [String: String]) -> CGSize?
    /// The query keys it reads besides `size` and `id`; others get a warning. nil: any key.
    public var readKeys: Set<String>?
    /// Checks and completes the query parameters (a control's kind, a video's duration);
    /// throws a `TextReelError` whose message says what is wrong.
    public var check: @Sendable (_ parameters: inout [String: String]) throws -> Void
    /// Whether a value, as written (ASCII, no escapes), is one `check` accepts unchanged: then the
    /// document index may take the attachment's id without parsing its URL. nil: always parse
    /// (a kind that reads a file, or one with keys it cannot judge byte by byte).
    public var trusts: (@Sendable (_ key: String, _ value: String) -> Bool)?
    /// Work on an attachment put off from reading to its paragraph's first layout, because most
    /// of a long document is never shown (typesetting a formula): the attachment ready to be laid
    /// out, its size final; one it could not finish carries a `problem` and is tried again at the
    /// next layout. nil: none.
    public var prepare: (@Sendable (_ attachment: TextAttachment) -> TextAttachment)?

    /// A kind; by default it reads any key, checks nothing, is never trusted unparsed and needs
    /// nothing at layout.
    public init(scheme: String, defaultSize: @escaping @Sendable ([String: String]) -> CGSize?, readKeys: Set<String>? = nil,
                check: @escaping @Sendable (inout [String: String]) throws -> Void = { _ in },
                trusts: (@Sendable (String, String) -> Bool)? = nil,
                prepare: (@Sendable (TextAttachment) -> TextAttachment)? = nil) {
        self.scheme = scheme
        self.defaultSize = defaultSize
        self.readKeys = readKeys
        self.check = check
        self.trusts = trusts
        self.prepare = prepare
    }
}

/// What reading a document needs to know beyond the Markdown: the kinds of attachment it may
/// hold, by scheme, and how an image file is looked at. `AttachmentProviders.kinds` makes one;
/// `.standard` is that of the built-in providers.
public struct AttachmentKinds: Sendable {
    /// The kinds, by scheme.
    public var kinds: [String: AttachmentKind]
    /// Looks at an image file, refusing one over `maximumPixels`.
    public var inspectImage: @Sendable (_ file: URL, _ maximumPixels: Double) -> ImageInspection

    /// The kinds (a later one wins a shared scheme) and the image reader.
    public init(_ kinds: [AttachmentKind], inspectImage: @escaping @Sendable (URL, Double) -> ImageInspection) {
        self.kinds = Dictionary(kinds.map { ($0.scheme, $0) }, uniquingKeysWith: { $1 })
        self.inspectImage = inspectImage
    }

    /// `paragraph` with the work its attachments' kinds put off until layout done (nil when it
    /// has none to do); an attachment the look hides (a diagram in the other scheme's colours) is
    /// left undone.
    func prepared(_ paragraph: TextParagraph, inDarkLook dark: Bool) -> TextParagraph? {
        func needsWork(_ attachment: TextAttachment) -> Bool { kinds[attachment.scheme]?.prepare != nil && attachment.shows(inDarkLook: dark) }
        guard paragraph.attachments.contains(where: needsWork) else { return nil }
        let attachments = paragraph.attachments.map { needsWork($0) ? kinds[$0.scheme]?.prepare?($0) ?? $0 : $0 }
        guard attachments != paragraph.attachments else { return nil }
        return paragraph.replacing(text: paragraph.text, runs: paragraph.runs, attachments: attachments)
    }
}

/// What looking at an image file found, before any frame is drawn.
public enum ImageInspection: Equatable, Sendable {
    /// An image of this size, in pixels.
    case image(CGSize)
    /// Its header gives a size, but its data cannot be decoded.
    case damaged(CGSize, String)
    /// An image too large to read (over the pixel limits); its size in pixels.
    case tooLarge(CGSize)
    /// Not an image at all: missing, a folder, unreadable, another kind of file.
    case problem(String)
}
