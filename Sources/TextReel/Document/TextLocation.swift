import Foundation

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

    /// How this location compares with `location` in document order (`NSTextLocation.compare`):
    /// in one paragraph by offset, across paragraphs by the paragraphs' ids, which are in
    /// document order for every paragraph read from a document and every one an edit appends.
    /// A paragraph an edit inserts before others (Return in the middle of the text) gets a
    /// later id: across such paragraphs ask the document, `TextLayoutManager.compare(_:_:)`.
    public func compare(_ location: TextLocation) -> ComparisonResult {
        let a = (paragraph.rawValue, offset), b = (location.paragraph.rawValue, location.offset)
        return a < b ? .orderedAscending : a == b ? .orderedSame : .orderedDescending
    }
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

    /// Whether `location` lies in the span, its end excluded (`NSTextRange.contains(_:)`), in
    /// the order `TextLocation.compare` gives.
    public func contains(_ location: TextLocation) -> Bool {
        start.compare(location) != .orderedDescending && location.compare(end) == .orderedAscending
    }

    /// Whether `range` lies wholly inside this one (`NSTextRange.contains(_:)` of a range).
    public func contains(_ range: TextRange) -> Bool {
        start.compare(range.start) != .orderedDescending && range.end.compare(end) != .orderedDescending
    }

    /// Whether the two spans share a location (`NSTextRange.intersects(_:)`).
    public func intersects(_ range: TextRange) -> Bool {
        start.compare(range.end) == .orderedAscending && range.start.compare(end) == .orderedAscending
    }

    /// The span both share, or nil (`NSTextRange.intersection(_:)`).
    public func intersection(_ range: TextRange) -> TextRange? {
        guard intersects(range) || self == range else { return nil }
        let first = start.compare(range.start) == .orderedDescending ? start : range.start
        let last = end.compare(range.end) == .orderedAscending ? end : range.end
        return TextRange(start: first, end: last)
    }

    /// The span from the earlier start to the later end (`NSTextRange.union(_:)`).
    public func union(_ range: TextRange) -> TextRange {
        TextRange(start: start.compare(range.start) == .orderedDescending ? range.start : start,
                  end: end.compare(range.end) == .orderedAscending ? range.end : end)
    }

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
