import Foundation

/// What a document may ask for before it is refused with a clear error (never a hang, a crash or
/// a read outside its folder). Every limit can be raised.
public struct ReadingLimits: Sendable, Equatable {
    /// Largest Markdown file, in bytes.
    public var documentBytes = 512 << 20
    /// Largest single paragraph, in bytes of text (Pango lays a paragraph out in one piece).
    public var paragraphBytes = ReadingLimits.maximumParagraphBytes
    /// Deepest nesting of quotes, lists and inline styles.
    public var nesting = 64
    /// Largest image, in pixels, checked from its header before decoding.
    public var imagePixels = 64 << 20
    /// The widest or tallest image, in pixels: Cairo's limit for a surface.
    public static let imageSide = 32767
    /// Allow image paths outside the document's folder (absolute, `..`, symlinks leaving it).
    public var allowOutside = false

    /// The standard limits.
    public init() {}
    /// The limits a document gets unless raised.
    public static let standard = ReadingLimits()
    /// The most a paragraph may hold, and the default: Pango lays out at most 256 KB of text in
    /// one layout (a longer one comes out as one empty line), and a paragraph is one layout.
    public static let maximumParagraphBytes = 255 << 10
    /// The most `nesting` may be raised to: the reader's stack is sized for it.
    public static let maximumNesting = 10_000
}
