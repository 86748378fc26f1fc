import CPango
import Foundation

/// Builds a `PangoAttrList` from a paragraph's runs and attachments (never from markup strings,
/// whose errors Pango only logs). Ranges are UTF-8 byte offsets, shifted by a list marker prefix.
/// Owns its list: released when the builder goes (a layout given the list holds its own ref).
final class AttributeListBuilder {
    let list: OpaquePointer
    let shift: Int
    /// Whether an attribute replaces those of its kind over its range (`pango_attr_list_change`:
    /// rendering attributes over a copy of a layout's list) instead of joining them.
    private let replaces: Bool

    /// A new list whose attributes join as they are added.
    init(shift: Int) {
        self.shift = shift
        list = pango_attr_list_new()
        replaces = false
    }

    /// A copy of `list` (a new one for none) whose attributes the added ones replace.
    init(replacingIn list: OpaquePointer?, shift: Int) {
        self.shift = shift
        self.list = list.map { pango_attr_list_copy($0)! } ?? pango_attr_list_new()
        replaces = true
    }

    /// The paragraph's line height as a multiple of its size, and that size (`setLineHeight`).
    private var lineHeight: (multiple: Double, size: Double)?

    deinit { pango_attr_list_unref(list) }

    /// Every line of the layout, the prefix too, `multiple` times `size` tall (CSS's
    /// `line-height`: Pango shares what is beyond the font's height above and below the line, as
    /// browsers do). Call before `addRuns`: smaller runs (code) get the multiple of their own
    /// size, as CSS inherits a `line-height` number, so they never make a line taller.
    func setLineHeight(_ multiple: Double, size: Double) {
        lineHeight = (multiple, size)
        guard let attribute = Self.lineHeightAttribute(multiple * size) else { return }
        attribute.pointee.start_index = 0
        attribute.pointee.end_index = guint.max
        pango_attr_list_insert(list, attribute)
    }

    /// A bullet (the prefix's first `bytes`) takes no height of its own, as a browser's
    /// `::marker` sits outside the line: `◦`, from a fallback font (Noto Sans lacks it), set its
    /// line on another share of ascent and descent and made the item 0.7 pt taller. The tab after
    /// it keeps the body font's line, the strut a browser's line has, for an item of code alone.
    func bulletTakesNoHeight(bytes: Int) {
        guard bytes > 0, let attribute = Self.lineHeightAttribute(0) else { return }
        attribute.pointee.start_index = 0
        attribute.pointee.end_index = guint(bytes)
        pango_attr_list_insert(list, attribute)
    }

    private static func lineHeightAttribute(_ points: Double) -> UnsafeMutablePointer<PangoAttribute>? {
        pango_attr_line_height_new_absolute(Int32((points * Double(PANGO_SCALE)).rounded()))
    }

    func add(_ attribute: UnsafeMutablePointer<PangoAttribute>?, _ range: Range<Int>) {
        guard let attribute else { return }
        attribute.pointee.start_index = guint(range.lowerBound + shift)
        attribute.pointee.end_index = guint(range.upperBound + shift)
        if replaces { pango_attr_list_change(list, attribute) } else { pango_attr_list_insert(list, attribute) }
    }

    /// The background alpha that marks a code span's background: Pango leaves it undrawn (at
    /// 1/65535 it changes no pixel), and `FragmentPainter` draws it padded, with round corners.
    static let codeBackgroundAlpha: guint16 = 1
    /// The same for a key (`<kbd>`), drawn as a key cap.
    static let keyBackgroundAlpha: guint16 = 2

    /// Code is set this much smaller than the text around it (GitHub's 85%).
    static let codeScale = 0.85

    /// Whether an ASCII byte is a letter or a digit.
    static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    /// A code span's padding on each side: a quarter of the code font's size (GitHub's is 0.4em;
    /// less here, as the room a neighbour makes on its side also shows on its other side).
    static func codePadding(_ theme: Theme) -> Double { 0.25 * codeScale * theme.bodySize }

    /// `text`: the runs' text (UTF-8), so that a code span's neighbours make room for its padding.
    /// `headingSize`: the runs are a heading's, whose code GitHub sets at the heading's own size
    /// with .2 em of padding (`h1 code { padding: 0 .2em; font-size: inherit }`).
    func addRuns(_ runs: [StyledRun], text: String, theme: Theme, headingSize: Double? = nil) {
        let utf8 = Array(text.utf8)
        // Room for a code span's padding: a space beside it is widened by twice the padding
        // (Pango puts half of a run's letter spacing before it, half after, so half of it shows
        // on the space's far side). A letter or punctuation mark beside it is left alone: spaced,
        // it would show a gap on its other side, inside a word or after a comma.
        let room = PangoUnits.units(headingSize.map { 0.2 * $0 } ?? 2 * Self.codePadding(theme))
        let scale = headingSize == nil ? Self.codeScale : 1
        // A key (`<kbd>`) is a box with room on both sides (`Ctrl`+`C`): a mark beside it gets
        // one and a half times a space's room, its half on the key's side the box's padding and a
        // small gap. A letter or digit is left alone, as beside a code span: spaced, the word it
        // starts would show a gap after its first letter (`<kbd>…</kbd>next` drew "n ext").
        for run in runs where run.style.contains(.code) {
            for side in [run.range.lowerBound - 1, run.range.upperBound] where side >= 0 && side < utf8.count {
                if utf8[side] == 0x20 {
                    add(pango_attr_letter_spacing_new(room), side..<side + 1)
                } else if run.style.contains(.keyboard), utf8[side] < 0x80, utf8[side] > 0x20, !Self.isAlphanumeric(utf8[side]) {
                    add(pango_attr_letter_spacing_new(room * 3 / 2), side..<side + 1)
                }
            }
        }
        for run in runs {
            let r = run.range
            if run.style.contains(.strong) { add(pango_attr_weight_new(PANGO_WEIGHT_BOLD), r) }
            if run.style.contains(.emphasis) { add(pango_attr_style_new(PANGO_STYLE_ITALIC), r) }
            if run.style.contains(.strikethrough) { add(pango_attr_strikethrough_new(1), r) }
            if run.style.contains(.code) {
                add(pango_attr_family_new(theme.monoFamilies), r)
                if scale != 1 { add(pango_attr_scale_new(scale), r) }
                if let lineHeight { add(Self.lineHeightAttribute(lineHeight.multiple * lineHeight.size * scale), r) }
                add(pango_attr_font_features_new("liga=0, calt=0"), r)
                let c = theme.codeBackground
                add(pango_attr_background_new(channel(c.red), channel(c.green), channel(c.blue)), r)
                add(pango_attr_background_alpha_new(run.style.contains(.keyboard) ? Self.keyBackgroundAlpha : Self.codeBackgroundAlpha), r)
            }
            // Raised and lowered text takes no height of its own (GitHub's `line-height: 0`).
            if lineHeight != nil, run.style.contains(.raised) || run.style.contains(.lowered) { add(Self.lineHeightAttribute(0), r) }
            if run.style.contains(.raised) {
                add(pango_attr_scale_new(0.75), r)
                add(pango_attr_rise_new(PangoUnits.units(theme.bodySize * 0.35)), r)
            }
            if run.style.contains(.lowered) {
                add(pango_attr_scale_new(0.75), r)
                add(pango_attr_rise_new(-PangoUnits.units(theme.bodySize * 0.2)), r)
            }
            if run.style.contains(.underline) { add(pango_attr_underline_new(PANGO_UNDERLINE_SINGLE), r) }
            // A browser's `<small>`: `font-size: smaller`, about five sixths.
            if run.style.contains(.small) { add(pango_attr_scale_new(0.83), r) }
            if run.style.contains(.marked) {
                // GitHub's <mark>: a pale yellow, a deep amber in dark looks.
                let c = theme.isDark ? Color(hex: 0x5C4A00) : Color(hex: 0xFFF8C5)
                add(pango_attr_background_new(channel(c.red), channel(c.green), channel(c.blue)), r)
            }
            // A link is coloured, not underlined, as GitHub's page shows it.
            if run.style.contains(.link) {
                let c = theme.link
                add(pango_attr_foreground_new(channel(c.red), channel(c.green), channel(c.blue)), r)
            }
        }
    }

    /// The attributes TextReel lays out (font, colours, underline, strikethrough, kern,
    /// baseline offset, link), after the Markdown styles so they win; other keys are kept on the
    /// paragraph but draw nothing.
    func addAttributes(_ runs: [AttributeRun], theme: Theme) {
        func color(_ c: Color, _ make: (guint16, guint16, guint16) -> UnsafeMutablePointer<PangoAttribute>?) -> UnsafeMutablePointer<PangoAttribute>? {
            let resolved = c.resolved(for: theme)
            return make(channel(resolved.red), channel(resolved.green), channel(resolved.blue))
        }
        for run in runs {
            let r = run.range
            for (key, value) in run.attributes.sorted(by: { $0.key < $1.key }) {
                switch (NSAttributedString.Key(key), value) {
                case (.font, .font(let font)):
                    if let family = font.familyName { add(pango_attr_family_new(family), r) }
                    add(pango_attr_size_new(Int32(PangoUnits.units(font.pointSize))), r)
                    // Its lines are the paragraph's multiple of its own size (CSS inherits the number).
                    if let lineHeight { add(Self.lineHeightAttribute(lineHeight.multiple * font.pointSize), r) }
                    add(pango_attr_weight_new(font.isBold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL), r)
                    add(pango_attr_style_new(font.isItalic ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL), r)
                case (.foregroundColor, .color(let c)): add(color(c, pango_attr_foreground_new), r)
                case (.backgroundColor, .color(let c)): add(color(c, pango_attr_background_new), r)
                case (.underlineStyle, let v) where v.number != nil:
                    add(pango_attr_underline_new(v.number! != 0 ? PANGO_UNDERLINE_SINGLE : PANGO_UNDERLINE_NONE), r)
                case (.strikethroughStyle, let v) where v.number != nil: add(pango_attr_strikethrough_new(v.number! != 0 ? 1 : 0), r)
                case (.kern, .number(let points)): add(pango_attr_letter_spacing_new(Int32(PangoUnits.units(points))), r)
                case (.baselineOffset, .number(let points)): add(pango_attr_rise_new(Int32(PangoUnits.units(points))), r)
                case (NSAttributedString.Key(AttributeVocabulary.syntaxClass), .string(let name)):
                    if let c = theme.syntax.color(of: name) { add(color(c, pango_attr_foreground_new), r) }
                case (.link, .string):
                    add(pango_attr_underline_new(PANGO_UNDERLINE_SINGLE), r)
                    add(color(theme.link, pango_attr_foreground_new), r)
                default: break
                }
            }
        }
    }

    /// Reserves each attachment's box on its U+FFFC, sitting on the baseline.
    func addAttachments(_ attachments: [TextAttachment], sizes: [CGSize]) {
        for (attachment, size) in zip(attachments, sizes) {
            // The box stands on the baseline; a formula reaches below it by its depth.
            let depth = attachment.baselineDepth * (size.height / max(attachment.size.height, 1))
            var rect = PangoRectangle(x: 0, y: -PangoUnits.units(size.height - depth),
                                      width: PangoUnits.units(size.width), height: PangoUnits.units(size.height))
            let offset = attachment.utf8Offset
            let range = offset..<(offset + TextAttachment.character.utf8.count)
            add(pango_attr_shape_new(&rect, &rect), range)
            // An attachment taller than a line makes its line taller, as a browser's image does
            // (the line height is the larger of the paragraph's and the attachment's own).
            if lineHeight != nil { add(pango_attr_line_height_new(1), range) }
        }
    }

    private func channel(_ value: Double) -> guint16 { guint16((value * 65535).rounded()) }
}
