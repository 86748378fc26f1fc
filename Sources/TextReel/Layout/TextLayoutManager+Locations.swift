import Foundation

/// Locations and offsets, as TextKit's content manager and layout manager give them: UTF-16 code
/// units, one per paragraph break.
extension TextLayoutManager {
    /// From the first paragraph's start to the last one's end.
    public var documentRange: TextRange {
        guard let first = document.paragraphs.first, let last = document.paragraphs.last else {
            let none = TextLocation(paragraph: ParagraphID(-1))
            return TextRange(start: none, end: none)
        }
        return TextRange(start: TextLocation(paragraph: first.id), end: TextLocation(paragraph: last.id, offset: last.utf16Count))
    }

    /// How far `to` is from `from`, in UTF-16 code units with one per paragraph break (negative
    /// when `to` comes first), as `NSTextContentStorage.offset(from:to:)` counts; 0 when either
    /// is not in the document. The first call reads every paragraph's text.
    public func offset(from: TextLocation, to: TextLocation) -> Int {
        guard let a = offsets.offset(of: from), let b = offsets.offset(of: to) else { return 0 }
        return b - a
    }

    /// How two locations compare in document order (`NSTextLocation.compare(_:)`; a
    /// `TextLocation` names its paragraph by id, which survives edits, so only the document
    /// knows the order: it is not `Comparable` on its own). Nil when either is not in the document.
    public func compare(_ a: TextLocation, _ b: TextLocation) -> ComparisonResult? {
        guard let first = index(of: a.paragraph), let second = index(of: b.paragraph) else { return nil }
        let order = (first, a.offset) < (second, b.offset) ? ComparisonResult.orderedAscending
            : (first, a.offset) == (second, b.offset) ? .orderedSame : .orderedDescending
        return order
    }

    /// The location `offset` units after `location` (before it when negative), or nil outside the document.
    public func location(_ location: TextLocation, offsetBy offset: Int) -> TextLocation? {
        offsets.offset(of: location).flatMap { offsets.location(at: $0 + offset) }
    }

    /// The direction the paragraph holding `location` runs in, as Pango resolved it from its
    /// text and the theme (`NSTextLayoutManager.baseWritingDirection(at:)`); lays it out if need
    /// be. `.natural` for a location outside the document.
    public func baseWritingDirection(at location: TextLocation) -> WritingDirection {
        guard let index = index(of: location.paragraph) else { return .natural }
        return ensureLayout(forParagraphAt: index).textLineFragments.first?.isRightToLeft == true ? .rightToLeft : .leftToRight
    }

    /// Walks fragments from `location` (nil: the start, or the end with `.reverse`) until `body`
    /// returns false; returns the location where it stopped. With `.reverse` it starts at the
    /// fragment before the one holding `location`, as TextKit does.
    @discardableResult
    public func enumerateTextLayoutFragments(from location: TextLocation?, options: EnumerationOptions = [],
                                             using body: (TextLayoutFragment) -> Bool) -> TextLocation? {
        guard paragraphCount > 0 else { return nil }
        let reverse = options.contains(.reverse)
        var index: Int
        if let location, let found = self.index(of: location.paragraph) {
            index = reverse ? found - 1 : found
        } else {
            index = reverse ? paragraphCount - 1 : 0
        }
        while index >= 0 && index < paragraphCount {
            let fragment = options.contains(.ensuresLayout) ? ensureLayout(forParagraphAt: index)
                                                            : self.fragment(forParagraphAt: index)
            if !body(fragment) { return TextLocation(paragraph: fragment.paragraph.id) }
            index += reverse ? -1 : 1
        }
        return nil
    }

    /// Drops the layout of the paragraphs in `range` (`NSTextLayoutManager.invalidateLayout(for:)`):
    /// they are re-shaped when next needed, and drawn afresh: no surface drawn before the call is
    /// composited after it, whatever the drawing depended on.
    public func invalidateLayout(for range: TextRange) {
        guard let (start, end) = indices(of: range) else { return }
        for i in start...end { shaped[document.paragraphs[i].id] = nil; validatedRendering.remove(document.paragraphs[i].id) }
        invalidateSurfaces(start...end)
    }
}
