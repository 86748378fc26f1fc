import Foundation

/// Everything TextReel knows of one kind of attachment, declared in the kind's own file: what the
/// document reader needs (`kind`: scheme, default size, the URL keys it reads and which values can
/// be trusted without a parse), the provider that makes its view, its placeholder (colours from
/// the theme, a caption, an icon drawn with CoreGraphics' names). The registry
/// (`AttachmentProviders`) lists descriptors; the reader and the painter read them (the
/// explorer's actions for a kind are TextReelExplorer's `ExploreActions`). Custom kinds from Swift
/// are descriptors too.
public struct AttachmentDescriptor: Sendable {
    /// The document half: scheme, default size, URL keys read, checks.
    public var kind: AttachmentKind
    /// The provider type that makes this kind's views.
    public var provider: TextAttachmentViewProvider.Type
    /// The placeholder's fill and ink in `theme`.
    public var placeholderColors: @Sendable (_ theme: Theme) -> (fill: Color, ink: Color)
    /// The first words of the placeholder's caption ("video", a control's kind, an image's problem).
    public var caption: @Sendable (_ attachment: TextAttachment) -> String
    /// Draws the placeholder's icon into `rect`, in the ink colour (already set for fill and stroke).
    public var icon: @Sendable (_ context: GraphicsContext, _ rect: CGRect, _ attachment: TextAttachment) -> Void

    /// A descriptor; by default the generic placeholder look.
    public init(kind: AttachmentKind, provider: TextAttachmentViewProvider.Type,
                placeholderColors: @escaping @Sendable (Theme) -> (fill: Color, ink: Color) = { ($0.attachments.otherPlaceholder, $0.attachments.otherPlaceholderInk) },
                caption: @escaping @Sendable (TextAttachment) -> String = { $0.scheme },
                icon: @escaping @Sendable (GraphicsContext, CGRect, TextAttachment) -> Void = AttachmentDescriptor.pictureIcon) {
        self.kind = kind
        self.provider = provider
        self.placeholderColors = placeholderColors
        self.caption = caption
        self.icon = icon
    }

    /// A kind for `provider` registered under `scheme` without a descriptor of its own: any URL
    /// key, the provider's default size, the generic placeholder.
    public static func custom(_ provider: TextAttachmentViewProvider.Type, scheme: String) -> AttachmentDescriptor {
        let size = provider.defaultSize
        return AttachmentDescriptor(kind: AttachmentKind(scheme: scheme, defaultSize: { _ in size }), provider: provider)
    }

    /// The generic icon: a framed picture of hills.
    public static let pictureIcon: @Sendable (GraphicsContext, CGRect, TextAttachment) -> Void = { context, r, _ in
        context.addRect(CGRect(x: r.minX, y: r.minY + r.height * 0.15, width: r.width, height: r.height * 0.7))
        context.strokePath()
        context.move(to: CGPoint(x: r.minX + r.width * 0.15, y: r.maxY - r.height * 0.25))
        context.addLine(to: CGPoint(x: r.minX + r.width * 0.45, y: r.midY))
        context.addLine(to: CGPoint(x: r.minX + r.width * 0.85, y: r.maxY - r.height * 0.25))
        context.strokePath()
    }
}
