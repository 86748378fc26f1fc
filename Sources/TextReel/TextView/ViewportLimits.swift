import Foundation

/// The one check every viewport passes, wherever it comes from: a script's `viewport`, the
/// command line, a golden case or its variants, and every `resize` step (checked, with its
/// line:column, before the first frame is drawn). Cairo cannot make an image surface wider than
/// 32,767 px; a frame of 16,384 px a side is already a gigabyte, so that is the limit. A view must
/// also leave the theme's insets room for a few letters: narrower, every line is one letter.
public enum ViewportLimits {
    /// The most pixels a side of a frame may have, after scaling.
    public static let maximumPixels = 16384
    /// The largest scale.
    public static let maximumScale = 8.0
    /// The narrowest column of text a view may leave between the insets, in body font sizes.
    public static let minimumTextColumn = 2.0

    /// Throws a `TextReelError` saying what is wrong with a view `size` points at `scale` in
    /// `theme`; the caller adds where the size came from.
    public static func check(_ size: CGSize, scale: Double, theme: Theme) throws {
        let width = Double(size.width), height = Double(size.height), f = PassChecks.fmt
        guard width > 0, height > 0, width.isFinite, height.isFinite else {
            throw TextReelError("viewport \(f(width))×\(f(height)) is not positive; expected a width and height above 0 points")
        }
        guard scale > 0, scale <= maximumScale else {
            throw TextReelError("scale \(f(scale)) is out of range; expected a number above 0 and at most \(f(maximumScale))")
        }
        guard width * scale <= Double(maximumPixels), height * scale <= Double(maximumPixels) else {
            throw TextReelError("viewport \(f(width))×\(f(height)) at scale \(f(scale)) is \(f((width * scale).rounded(.up)))×\(f((height * scale).rounded(.up))) px, too large; expected at most \(maximumPixels) px a side after scaling")
        }
        let room = width - theme.insets.left - theme.insets.right, least = theme.bodySize * minimumTextColumn
        guard room >= least else {
            throw TextReelError("a view \(f(width)) points wide leaves \(f(room)) points between the theme's insets (left \(f(theme.insets.left)) + right \(f(theme.insets.right))); expected at least \(f(least)) for text; make the view wider or the insets smaller")
        }
    }
}
