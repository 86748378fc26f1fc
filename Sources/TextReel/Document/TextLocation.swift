/// A position in the document: a paragraph and a UTF-8 byte offset into its text. It names the
/// paragraph by id, so it stays valid while other paragraphs are edited.
public struct TextLocation: Hashable, Sendable, CustomStringConvertible {
    /// The paragraph, by id.
    public var paragraph: ParagraphID
    /// UTF-8 byte offset into the paragraph's text.
    public var offset: Int
    /// The location `offset` bytes into `paragraph` (0: its start).
    public init(paragraph: ParagraphID, offset: Int = 0) {
        self.paragraph = paragraph
        self.offset = offset
    }
    public var description: String { "\(paragraph):\(offset)" }
}

/// A span between two locations, start first in document order.
public struct TextRange: Hashable, Sendable, CustomStringConvertible {
    /// The first location, in document order.
    public var start: TextLocation
    /// The location just past the span.
    public var end: TextLocation
    /// The span from `start` to `end` (start first in document order).
    public init(start: TextLocation, end: TextLocation) {
        self.start = start
        self.end = end
    }
    public var description: String { "\(start)…\(end)" }

    /// TextKit's names for the ends (`NSTextRange.location`, `.endLocation`).
    public var location: TextLocation { start }
    /// `end`, by TextKit's name.
    public var endLocation: TextLocation { end }
    /// Whether the span holds nothing (start and end are the same).
    public var isEmpty: Bool { start == end }

    /// A range from `location` to `endLocation` (nil end: empty), as `NSTextRange(location:end:)`.
    public init(location: TextLocation, end endLocation: TextLocation? = nil) {
        self.init(start: location, end: endLocation ?? location)
    }
}
