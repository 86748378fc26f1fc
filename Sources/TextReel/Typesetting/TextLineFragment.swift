import Foundation

/// One line of a laid-out paragraph (a `PangoLayoutLine`). Geometry is relative to the origin of
/// its layout fragment's `layoutFragmentFrame`. Sendable though it holds its paragraph's Pango
/// layout: that is read only under the `FontLock`.
public struct TextLineFragment: Hashable, @unchecked Sendable {
    /// The line's logical rect (ascent to descent, its full advance, alignment included).
    public let typographicBounds: CGRect
    /// Where the baseline starts.
    public let glyphOrigin: CGPoint
    /// Its characters, as UTF-8 byte offsets into the paragraph's text.
    public let characterRange: Range<Int>
    /// Whether the line's base direction is right to left.
    public let isRightToLeft: Bool
    /// Pango's cursor functions for the line's paragraph, and where its layout sits in the
    /// fragment (not part of the line's value: two lines are equal by their geometry).
    let cursor: CursorGeometry?
    let layoutOrigin: CGPoint

    init(typographicBounds: CGRect, glyphOrigin: CGPoint, characterRange: Range<Int>, isRightToLeft: Bool,
         cursor: CursorGeometry? = nil, layoutOrigin: CGPoint = .zero) {
        self.typographicBounds = typographicBounds
        self.glyphOrigin = glyphOrigin
        self.characterRange = characterRange
        self.isRightToLeft = isRightToLeft
        self.cursor = cursor
        self.layoutOrigin = layoutOrigin
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.typographicBounds == b.typographicBounds && a.glyphOrigin == b.glyphOrigin && a.characterRange == b.characterRange
            && a.isRightToLeft == b.isRightToLeft
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(typographicBounds.minX); hasher.combine(typographicBounds.minY)
        hasher.combine(typographicBounds.width); hasher.combine(typographicBounds.height)
        hasher.combine(characterRange)
    }

    /// The paragraph offset (UTF-8) of the caret position nearest `point`, given relative to the
    /// line's `typographicBounds.origin` and confined to this line (`NSTextLineFragment`'s).
    public func characterIndex(for point: CGPoint) -> Int {
        guard let cursor else { return characterRange.lowerBound }
        let x = point.x + typographicBounds.minX - layoutOrigin.x
        let y = typographicBounds.midY - layoutOrigin.y
        return min(max(cursor.offset(at: CGPoint(x: x, y: y)), characterRange.lowerBound), characterRange.upperBound)
    }

    /// Where the caret before paragraph offset `index` stands on this line, relative to the
    /// line's `typographicBounds.origin`: its x, and the baseline's y.
    public func locationForCharacter(at index: Int) -> CGPoint {
        let baseline = glyphOrigin.y - typographicBounds.minY
        guard let cursor else { return CGPoint(x: 0, y: baseline) }
        let clamped = min(max(index, characterRange.lowerBound), characterRange.upperBound)
        return CGPoint(x: cursor.caret(at: clamped).minX + layoutOrigin.x - typographicBounds.minX, y: baseline)
    }
}
