import CPango
import Foundation

/// One line of a laid-out paragraph (a `PangoLayoutLine`). Geometry is relative to the origin of
/// its layout fragment's `layoutFragmentFrame`. Offsets are UTF-16 code units into the
/// paragraph's text, as TextKit's (`NSTextLineFragment`) and `NSString`'s are, and as the layout
/// manager's `offset(from:to:)` counts; TextReel works in UTF-8 bytes inside. Sendable though it
/// holds its paragraph's Pango layout: that is read only under the `FontLock`.
///
/// A fragment that draws its lines itself (as STTextView's does, to place them by its own line
/// height) calls `draw(at:in:)` for each, reading `attributedString` over `characterRange`.
public struct TextLineFragment: Hashable, @unchecked Sendable {
    /// The line's logical rect (ascent to descent, its full advance, alignment included).
    public let typographicBounds: CGRect
    /// Where the baseline starts.
    public let glyphOrigin: CGPoint
    /// Its characters, as UTF-8 byte offsets into the paragraph's text (what `TextLocation` counts).
    let utf8Range: Range<Int>
    /// Whether the line's base direction is right to left.
    public let isRightToLeft: Bool
    /// Pango's cursor functions for the line's paragraph, and where its layout sits in the
    /// fragment (not part of the line's value: two lines are equal by their geometry).
    let cursor: CursorGeometry?
    let layoutOrigin: CGPoint
    /// The line as Pango shaped it (the layout holding it, the line's index there, the bytes of
    /// the layout's text before the paragraph's), and the colour its text is drawn in.
    let shaped: Shaped?
    /// The paragraph it belongs to, for its text and attributes (shared, not copied).
    let paragraph: TextParagraph
    var text: String { paragraph.text }

    struct Shaped {
        let box: PangoLayoutBox
        let index: Int
        let shift: Int
        let color: Color
    }

    init(typographicBounds: CGRect, glyphOrigin: CGPoint, utf8Range: Range<Int>, isRightToLeft: Bool,
         cursor: CursorGeometry?, layoutOrigin: CGPoint, shaped: Shaped?, paragraph: TextParagraph) {
        self.typographicBounds = typographicBounds
        self.glyphOrigin = glyphOrigin
        self.utf8Range = utf8Range
        self.isRightToLeft = isRightToLeft
        self.cursor = cursor
        self.layoutOrigin = layoutOrigin
        self.shaped = shaped
        self.paragraph = paragraph
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.typographicBounds == b.typographicBounds && a.glyphOrigin == b.glyphOrigin && a.utf8Range == b.utf8Range
            && a.isRightToLeft == b.isRightToLeft
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(typographicBounds.minX); hasher.combine(typographicBounds.minY)
        hasher.combine(typographicBounds.width); hasher.combine(typographicBounds.height)
        hasher.combine(utf8Range)
    }

    /// Its characters, as UTF-16 offsets into the paragraph's text, an `NSRange` of
    /// `attributedString` (`NSTextLineFragment.characterRange`).
    public var characterRange: NSRange {
        let start = text.utf16Offset(ofUTF8: utf8Range.lowerBound)
        return NSRange(location: start, length: text.utf16Offset(ofUTF8: utf8Range.upperBound) - start)
    }

    /// The paragraph's text with its attributes, and `.font` over every character: the font
    /// Pango drew it in (fallbacks included), as TextKit's line fragments carry the fonts they
    /// were set in (`NSTextLineFragment.attributedString`).
    public var attributedString: NSAttributedString {
        let string = paragraph.mutableAttributedString()
        for (bytes, font) in shaped?.fonts() ?? [] {
            if let range = TextParagraph.utf16Range(of: bytes, in: text) { string.addAttribute(.font, value: font, range: range) }
        }
        return string
    }

    /// Draws the line's text with its `typographicBounds.origin` at `point`, in the colours it
    /// was set in (`NSTextLineFragment.draw(at:in:)`). Block decorations (a code block's
    /// background, quote bars) belong to the fragment, not the line.
    public func draw(at point: CGPoint, in context: GraphicsContext) {
        guard let shaped else { return }
        let baseline = CGPoint(x: point.x + glyphOrigin.x - typographicBounds.minX, y: point.y + glyphOrigin.y - typographicBounds.minY)
        context.show(line: shaped.index, of: shaped.box, shift: shaped.shift, baseline: baseline, color: shaped.color)
    }

    /// The paragraph offset (UTF-16) of the caret position nearest `point` (x from the layout
    /// fragment's origin, as `locationForCharacter(at:)` gives it), confined to this line
    /// (`NSTextLineFragment`'s).
    public func characterIndex(for point: CGPoint) -> Int { text.utf16Offset(ofUTF8: utf8Index(for: point)) }

    /// Where the caret before paragraph offset `index` (UTF-16) stands on this line, as TextKit
    /// gives it for its lines, which start at their layout fragment's x: x from the fragment's
    /// origin, y the baseline's from the line's top. Editor code adds the fragment's origin to x
    /// and lands on the text (Glyph's `boundingRect(for:)`; it was short by the container's inset).
    public func locationForCharacter(at index: Int) -> CGPoint { location(atUTF8: text.utf8Offset(ofUTF16: index)) }

    /// `characterIndex(for:)` in UTF-8 bytes.
    func utf8Index(for point: CGPoint) -> Int {
        guard let cursor else { return utf8Range.lowerBound }
        let x = point.x - layoutOrigin.x
        let y = typographicBounds.midY - layoutOrigin.y
        return min(max(cursor.offset(at: CGPoint(x: x, y: y)), utf8Range.lowerBound), utf8Range.upperBound)
    }

    /// `locationForCharacter(at:)` for a UTF-8 offset.
    func location(atUTF8 index: Int) -> CGPoint {
        let baseline = glyphOrigin.y - typographicBounds.minY
        guard let cursor else { return CGPoint(x: typographicBounds.minX, y: baseline) }
        let clamped = min(max(index, utf8Range.lowerBound), utf8Range.upperBound)
        return CGPoint(x: cursor.caret(at: clamped).minX + layoutOrigin.x, y: baseline)
    }
}

extension TextLineFragment.Shaped {
    /// The fonts of the layout's runs, by UTF-8 range of the paragraph's text.
    func fonts() -> [(Range<Int>, Font)] {
        FontLock.run {
            var fonts: [(Range<Int>, Font)] = []
            let iter = pango_layout_get_iter(box.layout)
            defer { pango_layout_iter_free(iter) }
            repeat {
                guard let run = pango_layout_iter_get_run_readonly(iter), let item = run.pointee.item,
                      let pangoFont = item.pointee.analysis.font, let description = pango_font_describe(pangoFont) else { continue }
                defer { pango_font_description_free(description) }
                let start = Int(item.pointee.offset) - shift, end = start + Int(item.pointee.length)
                guard end > 0 else { continue }
                let family = pango_font_description_get_family(description).map { String(cString: $0) }
                let size = Double(pango_font_description_get_size(description)) / PangoUnits.scale
                var traits: FontDescriptor.SymbolicTraits = []
                if pango_font_description_get_weight(description).rawValue >= PANGO_WEIGHT_SEMIBOLD.rawValue { traits.insert(.bold) }
                if pango_font_description_get_style(description) != PANGO_STYLE_NORMAL { traits.insert(.italic) }
                if let font = Font(descriptor: FontDescriptor(familyName: family, pointSize: size, symbolicTraits: traits), size: size) {
                    fonts.append((max(start, 0)..<end, font))
                }
            } while pango_layout_iter_next_run(iter) != 0
            return fonts
        }
    }
}
