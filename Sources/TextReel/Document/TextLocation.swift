/// A position in the document: a paragraph and a UTF-8 byte offset into its text. It names the
/// paragraph by id, so it stays valid while other paragraphs are edited.
public struct TextLocation: Hashable, Sendable, CustomStringConvertible {
    public var paragraph: ParagraphID
    public var offset: Int
    public init(paragraph: ParagraphID, offset: Int = 0) {
        self.paragraph = paragraph
        self.offset = offset
    }
    public var description: String { "\(paragraph):\(offset)" }
}

/// A span between two locations, start first in document order.
public struct TextRange: Hashable, Sendable, CustomStringConvertible {
    public var start: TextLocation
    public var end: TextLocation
    public init(start: TextLocation, end: TextLocation) {
        self.start = start
        self.end = end
    }
    public var description: String { "\(start)…\(end)" }

    /// TextKit's names for the ends (`NSTextRange.location`, `.endLocation`).
    public var location: TextLocation { start }
    public var endLocation: TextLocation { end }
    public var isEmpty: Bool { start == end }

    /// A range from `location` to `endLocation` (nil end: empty), as `NSTextRange(location:end:)`.
    public init(location: TextLocation, end endLocation: TextLocation? = nil) {
        self.init(start: location, end: endLocation ?? location)
    }
}
