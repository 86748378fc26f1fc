import CPango
import Foundation

/// What attachment drawing shares: decoded images, labels in the theme's font, and the placeholder
/// that shows at a glance the provider type (an icon), the id and the size.
final class AttachmentPainter {
    private let fonts: FontSystem
    let theme: Theme
    /// Each kind's look, by scheme.
    private let providers: AttachmentProviders
    /// Decoded images by file path; nil records a file that could not be read.
    private var images: [String: CairoSurface?] = [:]

    init(fonts: FontSystem, theme: Theme, providers: AttachmentProviders) {
        self.fonts = fonts
        self.theme = theme
        self.providers = providers
    }

    /// Draws an image file scaled into `rect`; false when it cannot be read.
    func drawImage(_ file: URL, in rect: CGRect, cr: OpaquePointer) -> Bool {
        guard let image = image(at: file) else { return false }
        cairo_save(cr)
        cairo_rectangle(cr, rect.minX, rect.minY, rect.width, rect.height)
        cairo_clip(cr)
        cairo_translate(cr, rect.minX, rect.minY)
        cairo_scale(cr, rect.width / Double(image.width), rect.height / Double(image.height))
        cairo_set_source_surface(cr, image.surface, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
        cairo_paint(cr)
        cairo_restore(cr)
        return true
    }

    private func image(at file: URL) -> CairoSurface? {
        if let cached = images[file.path] { return cached }
        let loaded = ImageFile.load(file)
        images[file.path] = .some(loaded)
        return loaded
    }

    /// A placeholder's words. An image that is not drawn says what it shows (its alt text, as a
    /// browser shows a broken image's) before why; without alt text, its id.
    static func caption(_ attachment: TextAttachment, _ descriptor: AttachmentDescriptor) -> String {
        let size = "\(Int(attachment.size.width))×\(Int(attachment.size.height))"
        if attachment.isNotFetched && !attachment.altText.isEmpty { return "\(attachment.altText) · not fetched · \(size)" }
        if attachment.problem != nil && !attachment.altText.isEmpty { return "\(attachment.altText) · \(descriptor.caption(attachment)) · \(size)" }
        return "\(descriptor.caption(attachment)) · \(attachment.id) · \(size)"
    }

    func drawPlaceholder(_ attachment: TextAttachment, box: CGRect, in cr: OpaquePointer) {
        if attachment.isNotFetched, box.height < 48 { return drawBadge(attachment, box: box, in: cr) }
        let descriptor = providers.descriptor(forScheme: attachment.scheme) ?? .custom(TextAttachmentViewProvider.self, scheme: attachment.scheme)
        let look = descriptor.placeholderColors(theme)
        Paint.setColor(cr, look.fill)
        Paint.roundedRect(cr, box.insetBy(dx: 0.5, dy: 0.5), radius: 5)
        cairo_fill_preserve(cr)
        Paint.setColor(cr, look.ink, alpha: 0.55)
        cairo_set_line_width(cr, 1)
        cairo_stroke(cr)

        let compact = box.height < 60
        let iconSize = compact ? min(box.height - 10, 18) : min(box.height * 0.3, 40)
        let caption = Self.caption(attachment, descriptor)
        // A problem is the reason the user needs: it wraps onto more lines instead of being cut.
        let text = label(caption, size: compact ? 11 : 12, maxWidth: box.width - (compact ? iconSize + 16 : 12), centered: !compact,
                         lines: attachment.problem != nil && !compact ? min(max(Int((box.height - iconSize - 24) / 16), 1), 3) : 1)
        let textSize = text.logicalSize
        cairo_save(cr)
        cairo_rectangle(cr, 0, 0, box.width, box.height)
        cairo_clip(cr)
        let iconRect: CGRect
        let textOrigin: CGPoint
        if compact {
            iconRect = CGRect(x: 8, y: (box.height - iconSize) / 2, width: iconSize, height: iconSize)
            textOrigin = CGPoint(x: iconRect.maxX + 6, y: (box.height - textSize.height) / 2)
        } else {
            let total = iconSize + 8 + textSize.height
            iconRect = CGRect(x: (box.width - iconSize) / 2, y: (box.height - total) / 2, width: iconSize, height: iconSize)
            textOrigin = CGPoint(x: 6, y: iconRect.maxY + 8)
        }
        drawIcon(descriptor, attachment, in: iconRect, ink: look.ink, cr: cr)
        Paint.setColor(cr, look.ink)
        cairo_move_to(cr, textOrigin.x, textOrigin.y)
        text.show(in: cr)
        cairo_restore(cr)
    }

    /// A remote image one line tall (a badge, most often): its alt text, white on grey as
    /// shields.io draws a badge's label, so a row of badges still reads as one.
    private func drawBadge(_ attachment: TextAttachment, box: CGRect, in cr: OpaquePointer) {
        Paint.setColor(cr, theme.secondaryText)
        Paint.roundedRect(cr, box.insetBy(dx: 0.5, dy: 0.5), radius: 3)
        cairo_fill(cr)
        let text = label(attachment.altText.isEmpty ? "image" : attachment.altText, size: 11, maxWidth: box.width - 8, centered: true, lines: 1)
        let size = text.logicalSize
        Paint.setColor(cr, theme.background)
        cairo_move_to(cr, 4, (box.height - size.height) / 2)
        text.show(in: cr)
    }

    /// The kind's icon, in `ink`, with round caps and joins and a line as thick as the icon is big.
    private func drawIcon(_ descriptor: AttachmentDescriptor, _ attachment: TextAttachment, in rect: CGRect, ink: Color, cr: OpaquePointer) {
        cairo_save(cr)
        cairo_set_line_width(cr, max(rect.width / 12, 1.2))
        let context = GraphicsContext(cr, theme: theme, painter: self)
        context.setLineCap(.round)
        context.setLineJoin(.round)
        context.setFillColor(ink)
        context.setStrokeColor(ink)
        descriptor.icon(context, rect, attachment)
        cairo_restore(cr)
    }

    /// One line of `text` in `font` (its family, or the theme's body families).
    func label(_ text: String, font: Font) -> PangoLayoutBox {
        let box = PangoLayoutBox(pango_layout_new(fonts.context))
        pango_layout_set_text(box.layout, text, Int32(text.utf8.count))
        let description = pango_font_description_from_string("\(font.familyName ?? theme.bodyFamilies) \(font.pointSize)")
        if font.isBold { pango_font_description_set_weight(description, PANGO_WEIGHT_BOLD) }
        if font.isItalic { pango_font_description_set_style(description, PANGO_STYLE_ITALIC) }
        pango_layout_set_font_description(box.layout, description)
        pango_font_description_free(description)
        return box
    }

    /// A one-line label in the theme's body font, ellipsized to `maxWidth` when given.
    func label(_ text: String, size: Double, bold: Bool = false, maxWidth: Double?, centered: Bool = false, lines: Int = 1) -> PangoLayoutBox {
        let box = PangoLayoutBox(pango_layout_new(fonts.context))
        pango_layout_set_text(box.layout, text, Int32(text.utf8.count))
        let description = pango_font_description_from_string("\(theme.bodyFamilies) \(size)")
        if bold { pango_font_description_set_weight(description, PANGO_WEIGHT_BOLD) }
        pango_layout_set_font_description(box.layout, description)
        pango_font_description_free(description)
        if let maxWidth {
            pango_layout_set_width(box.layout, PangoUnits.units(max(maxWidth, 1)))
            pango_layout_set_ellipsize(box.layout, PANGO_ELLIPSIZE_END)
            if lines > 1 {
                pango_layout_set_wrap(box.layout, PANGO_WRAP_WORD_CHAR)
                pango_layout_set_height(box.layout, -Int32(lines))
            }
        }
        pango_layout_set_alignment(box.layout, centered ? PANGO_ALIGN_CENTER : PANGO_ALIGN_LEFT)
        return box
    }
}
