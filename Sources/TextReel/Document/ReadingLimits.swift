import Foundation

/// What a document may ask for before it is refused with a clear error (never a hang, a crash or
/// a read outside its folder). Every limit can be raised.
public struct ReadingLimits: Sendable, Equatable {
    /// Largest Markdown file, in bytes.
    public var documentBytes = 512 << 20
    /// Largest single paragraph, in bytes of text (Pango lays a paragraph out in one piece).
    public var paragraphBytes = ReadingLimits.maximumParagraphBytes

    /// Why a paragraph of `bytes` is refused, with advice that is true: raising the limit only
    /// while it is below the most Pango lays out as one paragraph. (Tables and code blocks are
    /// laid out a row or a band of lines at a time, whatever their size: only a single run of
    /// text meets this.)
    package func paragraphLimitMessage(_ bytes: Int) -> String {
        let size = "a paragraph of \(bytes >> 10) KB is over the \(paragraphBytes >> 10) KB paragraph limit"
        return paragraphBytes < Self.maximumParagraphBytes
            ? size + "; split it with blank lines, or raise the limit with --max-paragraph-kb (at most \(Self.maximumParagraphBytes >> 10))"
            : size + ", the most Pango lays out as one paragraph; split it with blank lines"
    }
    /// Deepest nesting of quotes, lists and inline styles.
    public var nesting = 64
    /// Largest image, in pixels, checked from its header before decoding.
    public var imagePixels = 64 << 20
    /// The widest or tallest image, in pixels: Cairo's limit for a surface.
    public static let imageSide = 32767
    /// Allow image paths outside the document's folder (absolute, `..`, symlinks leaving it).
    public var allowOutside = false
    /// The folder a root-relative image path (`/docs/shot.png`) starts from and reading stays
    /// inside, as GitHub reads a README from its repository's root. nil: the nearest folder up
    /// from the document holding `.git`, else the document's folder.
    public var root: URL?

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
