import Foundation

/// What reading a document needs to know beyond the Markdown, passed in so the document room
/// calls no attachment or rendering code: the schemes providers are registered for beyond the
/// built-in ones, each with the size of an attachment written without `size=` (nil: it must give
/// one), and how an image file is looked at. `AttachmentProviders.kinds` makes one; `.standard`
/// is that of the built-in providers.
public struct AttachmentKinds: Sendable {
    public var customSchemes: [String: CGSize?]
    public var inspectImage: @Sendable (_ file: URL, _ maximumPixels: Double) -> ImageInspection

    public init(customSchemes: [String: CGSize?], inspectImage: @escaping @Sendable (URL, Double) -> ImageInspection) {
        self.customSchemes = customSchemes
        self.inspectImage = inspectImage
    }
}

/// What looking at an image file found, before any frame is drawn.
public enum ImageInspection: Equatable, Sendable {
    case image(CGSize)
    /// Its header gives a size, but its data cannot be decoded.
    case damaged(CGSize, String)
    case tooLarge(CGSize)
    /// Not an image at all: missing, a folder, unreadable, another kind of file.
    case problem(String)
}
