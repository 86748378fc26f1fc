/// A position in the document: a paragraph and an offset into its text in UTF-16 code units, the
/// unit TextKit counts everywhere (`NSRange`, `offset(from:to:)`, line fragments' character
/// ranges). It names the paragraph by id, so it stays valid while other paragraphs are edited;
/// TextKit's `NSTextLocation` is opaque, and `TextLayoutManager.location(_:offsetBy:)` and
/// `offset(from:to:)` move and measure as there.
public struct TextLocation: Hashable, Sendable, CustomStringConvertible {
    /// The paragraph, by id.
    public var paragraph: ParagraphID
    /// UTF-16 offset into the paragraph's text (0: its start).
    public var offset: Int
    /// The location `offset` UTF-16 code units into `paragraph` (0: its start).
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

    /// The empty range at `location` (`NSTextRange(location:)`).
    public init(location: TextLocation) {
        self.init(start: location, end: location)
    }

    /// A range from `location` to `endLocation` (nil: empty); nil when the end comes before the
    /// start, as `NSTextRange(location:end:)` is. Locations in two paragraphs are taken in the
    /// order given: only the document knows the paragraphs' order (`TextLayoutManager.compare`).
    public init?(location: TextLocation, end endLocation: TextLocation?) {
        let end = endLocation ?? location
        if end.paragraph == location.paragraph && end.offset < location.offset { return nil }
        self.init(start: location, end: end)
    }
}
