import Foundation

/// One line of a laid-out paragraph (a `PangoLayoutLine`). Geometry is relative to the origin of
/// its layout fragment's `layoutFragmentFrame`.
public struct TextLineFragment: Hashable, Sendable {
    /// The line's logical rect (ascent to descent, its full advance, alignment included).
    public let typographicBounds: CGRect
    /// Where the baseline starts.
    public let glyphOrigin: CGPoint
    /// Its characters, as UTF-8 byte offsets into the paragraph's text.
    public let characterRange: Range<Int>
    /// Whether the line's base direction is right to left.
    public let isRightToLeft: Bool
}
