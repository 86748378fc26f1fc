import CPango
import Foundation

/// Shapes a paragraph with Pango into a `ShapedParagraph`: the layout wrapped to the container
/// width minus insets, its lines and its attachments' frames (layout makes the fragment).
final class Typesetter {
    let fonts: FontSystem
    let theme: Theme
    /// Provider-driven sizing: a box for attachments whose provider tracks its bounds.
    let attachmentSize: (TextAttachment, Double) -> CGSize?
    /// Each table's narrowest and widest column contents, by `TableColumns.fingerprint`: what
    /// every row's widths are fitted from. Read and written under the `FontLock` only.
    var tableMeasures: [UInt64: (minimum: [Double], maximum: [Double])] = [:]
    /// The same, mirrored: for paragraphs set right to left in a left-to-right view. Made and
    /// used under the `FontLock` only.
    private lazy var mirrored = Typesetter(fonts: fonts, theme: theme.with(.rightToLeft), attachmentSize: attachmentSize)

    /// `attachmentSize` gives the box of an attachment whose provider sizes it, given the width
    /// available (nil: the attachment's own size).
    init(fonts: FontSystem, theme: Theme, attachmentSize: @escaping (TextAttachment, Double) -> CGSize? = { _, _ in nil }) {
        self.fonts = fonts
        self.theme = theme
        self.attachmentSize = attachmentSize
    }

    /// Shapes `paragraph` under the `FontLock`.
    func shaped(_ paragraph: TextParagraph, containerWidth: Double, insets: FragmentInsets = .none) -> ShapedParagraph {
        FontLock.run {
            // A paragraph set right to left in a left-to-right view (`dir="rtl"`) is shaped as
            // a mirrored view shapes it.
            let typesetter = paragraph.prefersRightToLeft && theme.direction != .rightToLeft ? mirrored : self
            var shaped = typesetter.shape(paragraph, containerWidth: containerWidth, insets: insets)
            if case .string(let marker)? = paragraph.attributes(at: 0)[ListMarker.key] { shaped.marker = typesetter.blockMarker(marker, beside: shaped) }
            return shaped
        }
    }

    /// An item's marker beside the block that starts it, where a paragraph's marker stands: in
    /// the body font on the block's first baseline, a bullet one list indent before the text, a
    /// number ending a little before it (as `shape` sets them with tab stops).
    private func blockMarker(_ marker: String, beside shaped: ShapedParagraph) -> (box: PangoLayoutBox, origin: CGPoint) {
        let box = PangoLayoutBox(pango_layout_new(fonts.context))
        pango_layout_set_text(box.layout, marker, Int32(marker.utf8.count))
        let description = pango_font_description_from_string("\(theme.bodyFamilies) \(theme.bodySize)")
        pango_layout_set_font_description(box.layout, description)
        pango_font_description_free(description)
        let first = shaped.cells.first ?? (shaped.layout, shaped.layoutOrigin)
        let y = first.origin.y + first.box.baseline - box.baseline
        let width = box.logicalSize.width, style = shaped.style
        let x: Double
        if theme.direction == .rightToLeft {
            x = shaped.containerWidth - (style.leftIndent - theme.listIndent) - width
        } else {
            x = marker.last == "." ? style.leftIndent - 0.4 * theme.bodySize - width : style.leftIndent - theme.listIndent
        }
        return (box, CGPoint(x: x, y: y))
    }

    private func shape(_ paragraph: TextParagraph, containerWidth: Double, insets: FragmentInsets) -> ShapedParagraph {
        var style = BlockStyle(paragraph: paragraph, theme: theme, containerWidth: containerWidth)
        // A paragraph style attribute at the first character sets the lines (`NSParagraphStyle`)
        // and, as in TextKit, the space around the paragraph (0 is none).
        var set: ParagraphStyle.Values?
        if case .paragraphStyle(let values)? = paragraph.attributes(at: 0)[NSAttributedString.Key.paragraphStyle.rawValue] {
            set = values
            if values.setsSpacing {
                style.spacingBefore = values.paragraphSpacingBefore
                style.spacingAfter = values.paragraphSpacing
            }
        }
        // After the paragraph's own spacing, as CSS collapses margins: a block with no space
        // below it still keeps a heading's whole space above.
        if insets.precedesHeading { style.collapseBeforeHeading(theme) }
        if insets.startsDocument { style.spacingBefore = 0 }
        if case .tableRow(let row) = paragraph.kind {
            return shapeRow(paragraph, row: row, style: style, containerWidth: containerWidth, insets: insets)
        }
        // A mirrored view lays every paragraph out right to left, its indents on the right.
        let mirrored = theme.direction == .rightToLeft
        var prefix = "", numbered = false
        if case .listItem(let marker?) = paragraph.kind {
            // A number ends at a stop a little before the text, as a browser right-aligns it:
            // the full stops line up and "10." never touches its text.
            numbered = !mirrored && marker.last == "."
            prefix = (numbered ? "\t" : "") + marker + "\t"
        }
        let shift = prefix.utf8.count
        let layout = PangoLayoutBox(pango_layout_new(mirrored ? fonts.rightToLeftContext : fonts.context))
        let pl = layout.layout
        if mirrored {
            pango_layout_set_auto_dir(pl, 0)
            pango_layout_set_alignment(pl, PANGO_ALIGN_RIGHT)
        } else if paragraph.prefersLeftToRight {
            pango_layout_set_auto_dir(pl, 0)   // the context's direction: left to right
        }
        let text = prefix + paragraph.text
        pango_layout_set_text(pl, text, Int32(text.utf8.count))

        let description = pango_font_description_from_string("\(style.families) \(style.size)")
        if style.bold { pango_font_description_set_weight(description, PANGO_WEIGHT_BOLD) }
        // An empty line with a font of its own (an empty run: what typed text would take, kept
        // by Return) is as tall as that font's line.
        var lineSize = style.size
        if paragraph.text.isEmpty,
           case .font(let font)? = paragraph.attributes.first(where: { $0.range.isEmpty })?.attributes[NSAttributedString.Key.font.rawValue] {
            if let family = font.familyName { pango_font_description_set_family(description, family) }
            pango_font_description_set_size(description, Int32(PangoUnits.units(font.pointSize)))
            lineSize = font.pointSize
        }
        pango_layout_set_font_description(pl, description)
        pango_font_description_free(description)

        // The leading padding is on the side the text starts: the left, or the right when mirrored.
        let column = containerWidth - style.leftIndent - style.rightIndent - 2 * style.padding - insets.leading - insets.trailing
        let head = set?.headIndent ?? 0
        let tail = set.map { $0.tailIndent > 0 ? max(column - $0.tailIndent, 0) : -$0.tailIndent } ?? 0
        let layoutX = mirrored ? style.rightIndent + style.padding + insets.trailing + tail
                               : style.leftIndent - style.hangingIndent + style.padding + insets.leading + head
        let available = max(column - head - tail, 1)
        // Code that does not wrap runs on past its box (the painter cuts it at the box's edge).
        let runsOn = style.isCode && !theme.wrapsCode && !mirrored
        pango_layout_set_width(pl, runsOn ? -1 : PangoUnits.units(available + style.hangingIndent))
        // Pango's word wrapping falls back to characters inside a word too long for the line, but
        // at a cost that grows with the square of the word (minutes for 200,000 characters): a
        // paragraph holding such a word wraps at characters outright, as code does.
        let longWord = Self.hasLongWord(paragraph.text)
        pango_layout_set_wrap(pl, longWord ? PANGO_WRAP_CHAR : PANGO_WRAP_WORD_CHAR)
        pango_layout_set_spacing(pl, PangoUnits.units(set?.lineSpacing ?? 0))
        if style.isCode && !longWord {
            // Soft-wrapped code lines start a continuation indent in (the marker sits there).
            pango_layout_set_indent(pl, -PangoUnits.units(style.continuationIndent))
        } else if style.hangingIndent > 0 {
            pango_layout_set_indent(pl, -PangoUnits.units(style.hangingIndent))
            setTabStops(pl, numbered ? [(style.hangingIndent - 0.4 * style.size, PANGO_TAB_RIGHT), (style.hangingIndent, PANGO_TAB_LEFT)]
                                      : [(style.hangingIndent, PANGO_TAB_LEFT)])
        } else if let set, set.firstLineHeadIndent != set.headIndent {
            pango_layout_set_indent(pl, PangoUnits.units(set.firstLineHeadIndent - set.headIndent))
        }
        if let alignment = set?.alignment, alignment != .natural {
            if alignment == .justified { pango_layout_set_justify(pl, 1) }
            pango_layout_set_alignment(pl, alignment == .center ? PANGO_ALIGN_CENTER : alignment == .right ? PANGO_ALIGN_RIGHT : PANGO_ALIGN_LEFT)
        }

        let attributes = AttributeListBuilder(shift: shift)
        // Text never gains hyphens that are not in the source: GitHub's page breaks a word too
        // long for its line where it must, without one (".w-getrc" read as a hyphenated name).
        attributes.add(pango_attr_insert_hyphens_new(0), 0..<paragraph.text.utf8.count)
        if let multiple = set?.lineHeightMultiple, multiple > 0 {
            attributes.add(pango_attr_line_height_new(multiple), 0..<paragraph.text.utf8.count)
        } else {
            attributes.setLineHeight(style.lineHeight, size: lineSize)
            if !numbered, shift > 1 { attributes.bulletTakesNoHeight(bytes: shift - 1) }
        }
        var headingSize: Double?
        if case .heading = paragraph.kind { headingSize = style.size }
        attributes.addRuns(paragraph.runs, text: paragraph.text, theme: theme, headingSize: headingSize)
        attributes.addAttributes(paragraph.attributes, theme: theme)
        let sizes = paragraph.attachments.map {
            // A formula keeps its size, cut at the column's edge as GitHub shows one it has not
            // scrolled (shrunk to the column, 60 terms were a sliver); the pass says so.
            // An image for the other colour scheme takes no room.
            guard $0.shows(inDarkLook: theme.isDark) else { return CGSize.zero }
            let size = $0.size(in: available, given: attachmentSize($0, available) ?? $0.size)
            return displayedSize(of: $0, size, available: available)
        }
        attributes.addAttachments(paragraph.attachments, sizes: sizes)
        pango_layout_set_attributes(pl, attributes.list)
        if !longWord && !runsOn {
            // A code span breaks only at its spaces, as a browser breaks `<code>` (never inside `!=`).
            let spans = Self.codeSpanPieces(paragraph)
            keepTokensWhole(pl, text: paragraph.text, tokens: style.isCode ? Self.codeTokens : { Self.proseTokens($0) + spans },
                            attributes: attributes, width: available)
        }
        var ink = PangoRectangle(), logical = PangoRectangle()
        pango_layout_get_extents(pl, &ink, &logical)
        let origin = CGPoint(x: layoutX, y: insets.top + style.spacingBefore + style.paddingTop)
        let contentHeight = PangoUnits.points(logical.height)
        let height = (insets.top + style.spacingBefore + style.paddingTop + style.paddingBottom + contentHeight + style.spacingAfter + insets.bottom).rounded(.up)
        let lines = lineFragments(layout, origin: origin, shift: shift,
                                  cursor: CursorGeometry(box: layout, shift: shift, length: paragraph.text.utf8.count),
                                  paragraph: paragraph, color: style.color)
        let attachmentFrames = paragraph.attachments.enumerated().map { index, attachment in
            (attachment, attachmentFrame(pl, index: attachment.utf8Offset + shift, size: sizes[index],
                                         depth: attachment.baselineDepth * sizes[index].height / max(attachment.size.height, 1),
                                         lines: lines, origin: origin))
        }
        let frameRect = CGRect(x: 0, y: 0, width: containerWidth, height: height)
        let inkRect = PangoUnits.rect(ink).offsetBy(dx: origin.x, dy: origin.y)
        // Ink past the view's sides is never seen: the surface keeps to them.
        let inked = inkRect.isEmpty ? frameRect : frameRect.union(inkRect).integral
        let surface = inked.intersection(CGRect(x: 0, y: inked.minY, width: containerWidth, height: inked.height))
        return ShapedParagraph(size: frameRect.size, renderingSurfaceBounds: surface, lines: lines,
                               attachmentFrames: attachmentFrames.map { (attachment: $0.0, frame: $0.1) }, layoutOrigin: origin,
                               style: style, layout: layout, containerWidth: containerWidth, textShift: shift)
    }

    /// Code wraps between tokens, never inside one (`Stri` / `ng`, `in` / `stall.sh`): Pango may
    /// break only at the spaces around a token and after `,` and `;`; so do a URL, a path or an
    /// option in prose (`proseTokens`). A token wider than a line alone is the exception: it
    /// breaks where it must, as its line would overflow otherwise (a second layout, only for
    /// paragraphs that wrap such a token).
    private func keepTokensWhole(_ layout: OpaquePointer, text: String, tokens: (String) -> [Range<Int>],
                                 attributes: AttributeListBuilder, width: Double) {
        // Only the source lines Pango wrapped get the attributes: Pango converts every
        // attribute's byte range by scanning the text, so a band's thousand tokens would cost
        // seconds over a long block whose lines mostly fit.
        var wrapped: [Range<Int>] = []
        let lineCount = pango_layout_get_line_count(layout)
        var sourceStart = 0
        for k in 0..<lineCount {
            guard let line = pango_layout_get_line_readonly(layout, k) else { continue }
            let start = Int(line.pointee.start_index) - attributes.shift
            if line.pointee.is_paragraph_start != 0 { sourceStart = start } else if wrapped.last?.lowerBound != sourceStart {
                let end = text.utf8[text.utf8.index(text.utf8.startIndex, offsetBy: max(start, 0))...].firstIndex(of: 0x0A)
                    .map { text.utf8.distance(from: text.utf8.startIndex, to: $0) } ?? text.utf8.count
                wrapped.append(sourceStart..<end)
            }
        }
        // A source line longer than `maximumKeptLine` is left to Pango's own breaks: holding its
        // tokens whole grew with the square of its length (a 120 KB line: 13 s and 1.3 GB).
        wrapped.removeAll { $0.count > Self.maximumKeptLine }
        guard !wrapped.isEmpty else { return }
        let tokens = tokens(text).filter { token in wrapped.contains { $0.overlaps(token) } }
        guard !tokens.isEmpty else { return }
        func apply(_ whole: [Range<Int>]) {
            let list = pango_attr_list_copy(attributes.list)!
            for token in whole {
                let attribute = pango_attr_allow_breaks_new(0)!
                attribute.pointee.start_index = guint(token.lowerBound + attributes.shift)
                attribute.pointee.end_index = guint(token.upperBound + attributes.shift)
                pango_attr_list_insert(list, attribute)
            }
            pango_layout_set_attributes(layout, list)
            pango_attr_list_unref(list)
        }
        apply(tokens)
        // Lines wider than the layout hold a token too long for any line: let those break.
        var overflowing: [Range<Int>] = []
        let limit = PangoUnits.units(width) + 1
        let count = pango_layout_get_line_count(layout)
        for k in 0..<count {
            guard let line = pango_layout_get_line_readonly(layout, k) else { continue }
            var logical = PangoRectangle()
            pango_layout_line_get_extents(line, nil, &logical)
            if logical.x + logical.width > limit {
                let start = Int(line.pointee.start_index) - attributes.shift
                overflowing.append(start..<start + Int(line.pointee.length))
            }
        }
        guard !overflowing.isEmpty else { return }
        apply(tokens.filter { token in !overflowing.contains { $0.overlaps(token) } })
    }

    /// An attachment wider than `available` is scaled down to fit, keeping its aspect; a formula
    /// keeps its size (cut at the column's edge, as GitHub shows one it has not scrolled).
    func displayedSize(of attachment: TextAttachment, _ size: CGSize, available: Double) -> CGSize {
        guard size.width > available, attachment.scheme != "math" else { return size }
        let factor = available / size.width
        return CGSize(width: available, height: (size.height * factor).rounded())
    }

    private func setTabStops(_ layout: OpaquePointer, _ stops: [(position: Double, alignment: PangoTabAlign)]) {
        let tabs = pango_tab_array_new(Int32(stops.count), 0)
        for (index, stop) in stops.enumerated() {
            pango_tab_array_set_tab(tabs, Int32(index), stop.alignment, PangoUnits.units(stop.position))
        }
        pango_layout_set_tabs(layout, tabs)
        pango_tab_array_free(tabs)
    }

    func lineFragments(_ box: PangoLayoutBox, origin: CGPoint, shift: Int, cursor: CursorGeometry, paragraph: TextParagraph,
                       color: Color) -> [TextLineFragment] {
        var lines: [TextLineFragment] = []
        let iter = pango_layout_get_iter(box.layout)
        defer { pango_layout_iter_free(iter) }
        repeat {
            var logical = PangoRectangle()
            pango_layout_iter_get_line_extents(iter, nil, &logical)
            let baseline = PangoUnits.points(pango_layout_iter_get_baseline(iter))
            let line = pango_layout_iter_get_line_readonly(iter)!
            let start = Int(line.pointee.start_index), length = Int(line.pointee.length)
            let bounds = PangoUnits.rect(logical).offsetBy(dx: origin.x, dy: origin.y)
            lines.append(TextLineFragment(
                typographicBounds: bounds,
                glyphOrigin: CGPoint(x: bounds.minX, y: origin.y + baseline),
                utf8Range: max(start - shift, 0)..<max(start + length - shift, 0),
                isRightToLeft: line.pointee.resolved_dir == PANGO_DIRECTION_RTL.rawValue,
                cursor: cursor, layoutOrigin: origin,
                shaped: TextLineFragment.Shaped(box: box, index: lines.count, shift: shift, color: color), paragraph: paragraph))
        } while pango_layout_iter_next_line(iter) != 0
        return lines
    }

    func attachmentFrame(_ layout: OpaquePointer, index: Int, size: CGSize, depth: Double = 0,
                                 lines: [TextLineFragment], origin: CGPoint) -> CGRect {
        var position = PangoRectangle()
        pango_layout_index_to_pos(layout, Int32(index), &position)
        var lineNumber: Int32 = 0, x: Int32 = 0
        pango_layout_index_to_line_x(layout, Int32(index), 0, &lineNumber, &x)
        let left = PangoUnits.points(min(position.x, position.x + position.width)) + origin.x
        let baseline = lines[min(Int(lineNumber), lines.count - 1)].glyphOrigin.y
        return CGRect(x: left, y: baseline - size.height + depth, width: size.width, height: size.height)
    }
}
