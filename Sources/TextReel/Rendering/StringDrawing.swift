import Foundation

/// AppKit's and UIKit's string drawing (`NSString.draw(at:withAttributes:)`,
/// `size(withAttributes:)`), so a fragment's or a view's drawing code that labels with them ports
/// by renaming. Attributes read: `.font` (a `Font`; AppKit's default, 12 points of the body
/// family, when absent) and `.foregroundColor` (a `Color`; black when absent). One line, no wrap.
extension StringProtocol {
    /// Draws the string with its top left at `point` in `GraphicsContext.current` (nothing
    /// outside drawing, as AppKit draws nothing without a current context).
    public func draw(at point: CGPoint, withAttributes attributes: [NSAttributedString.Key: Any]? = nil) {
        guard let context = GraphicsContext.current else { return }
        let (font, color) = Self.style(attributes)
        context.text(String(self), at: point, font: font, color)
    }

    /// The size the string takes drawn with `attributes`: measured with the current context's
    /// fonts while drawing, with the standard font set and theme otherwise.
    public func size(withAttributes attributes: [NSAttributedString.Key: Any]? = nil) -> CGSize {
        let painter = GraphicsContext.current?.painter
            ?? AttachmentPainter(fonts: FontSystem.forCurrentThread(.standard), theme: Theme(), providers: AttachmentProviders())
        return painter.label(String(self), font: Self.style(attributes).font).logicalSize
    }

    private static func style(_ attributes: [NSAttributedString.Key: Any]?) -> (font: Font, color: Color) {
        ((attributes?[.font] as? Font) ?? .systemFont(ofSize: 12), (attributes?[.foregroundColor] as? Color) ?? .black)
    }
}
