import CPango
import Foundation

/// Draws one layout fragment (text and block decorations, not attachments) in fragment coordinates.
struct FragmentPainter {
    let theme: Theme

    /// `rendering`: the display-only attributes over it, from the scene.
    func draw(_ fragment: TextLayoutFragment, rendering: [AttributeRun] = [], in cr: OpaquePointer) {
        // A paragraph set right to left (`dir="rtl"`) is drawn as a mirrored view draws it.
        if fragment.paragraph.prefersRightToLeft && theme.direction != .rightToLeft {
            return FragmentPainter(theme: theme.with(.rightToLeft)).draw(fragment, rendering: rendering, in: cr)
        }
        guard let shaped = fragment.shaped else { return }
        let style = shaped.style
        let paragraph = fragment.paragraph
        let size = fragment.layoutFragmentFrame.size
        // A custom fragment's paddings and margins take room around the block, as around its text.
        let top = fragment.topMargin, bottom = fragment.bottomMargin, leading = fragment.leadingPadding, trailing = fragment.trailingPadding
        let box = CGRect(x: style.leftIndent + leading, y: top + style.spacingBefore,
                         width: fragment.containerWidth - style.leftIndent - style.rightIndent - leading - trailing,
                         height: size.height - top - bottom - style.spacingBefore - style.spacingAfter)
        // Decorations are drawn left to right, and mirrored for a right-to-left view (they are
        // rectangles, so mirroring is exact); the text was laid out right to left already.
        cairo_save(cr)
        if theme.direction == .rightToLeft {
            cairo_translate(cr, fragment.containerWidth, 0)
            cairo_scale(cr, -1, 1)
        }
        drawDecorations(fragment, style: style, box: box, in: cr)
        cairo_restore(cr)
        if let marker = shaped.marker {
            Paint.setColor(cr, style.color)
            cairo_move_to(cr, marker.origin.x, marker.origin.y)
            marker.box.show(in: cr)
        }
        guard !paragraph.kind.isThematicBreak else { return }
        if style.isCode { drawContinuationMarkers(fragment, style: style, in: cr) }
        var layouts = shaped.cells.isEmpty ? [(shaped.layout, shaped.layoutOrigin)] : shaped.cells
        // Rendering attributes (`TextLayoutManager.setRenderingAttributes`) colour a copy of the
        // paragraph's layout; a table row's cells keep theirs.
        if !rendering.isEmpty, shaped.cells.isEmpty {
            layouts = [(shaped.layout.withRenderingAttributes(rendering, shift: shaped.textShift, theme: theme), shaped.layoutOrigin)]
        }
        if paragraph.runs.contains(where: { $0.style.contains(.code) }) {
            for (box, origin) in layouts { drawCodeSpans(of: box, at: origin, in: cr) }
        }
        Paint.setColor(cr, style.color)
        // Code that runs on past its box is cut at the box's edge.
        let cut = style.isCode && !theme.wrapsCode
        if cut {
            cairo_save(cr)
            cairo_rectangle(cr, box.minX, box.minY, box.width, box.height)
            cairo_clip(cr)
        }
        for (box, origin) in layouts {
            cairo_move_to(cr, origin.x, origin.y)
            box.show(in: cr)
        }
        if cut { cairo_restore(cr) }
        if case .tableRow = paragraph.kind, let table = shaped.table, table.overflow != nil {
            drawCutMarker(table, width: fragment.containerWidth, in: cr)
        }
    }

    /// Code spans' backgrounds as GitHub draws `<code>`: under the text, rounded, each box grown
    /// by a padding where a space beside it made room (`AttributeListBuilder.addRuns`) or into
    /// the margin at a line's edge, and by a hair against a letter or punctuation.
    private func drawCodeSpans(of box: PangoLayoutBox, at origin: CGPoint, in cr: OpaquePointer) {
        let padding = AttributeListBuilder.codePadding(theme), hair = 1.0
        for span in box.codeSpanBoxes() {
            let left = span.rect.minX - (span.padsBefore ? padding : hair), right = span.rect.maxX + (span.padsAfter ? padding : hair)
            let rect = CGRect(x: origin.x + left, y: origin.y + span.rect.minY, width: right - left, height: span.rect.height)
            Paint.setColor(cr, span.isKey ? theme.codeBackground : theme.codeSpanBackground)
            Paint.roundedRect(cr, rect, radius: 4)
            cairo_fill(cr)
            guard span.isKey else { continue }
            // A key cap: a 1-point border, a second along the bottom (GitHub's inset shadow).
            Paint.setColor(cr, theme.rule)
            cairo_set_line_width(cr, 1)
            Paint.roundedRect(cr, rect.insetBy(dx: 0.5, dy: 0.5), radius: 3.5)
            cairo_stroke(cr)
            cairo_move_to(cr, rect.minX + 3, rect.maxY - 1.5)
            cairo_line_to(cr, rect.maxX - 3, rect.maxY - 1.5)
            cairo_stroke(cr)
        }
    }

    private func drawDecorations(_ fragment: TextLayoutFragment, style: BlockStyle, box: CGRect, in cr: OpaquePointer) {
        let paragraph = fragment.paragraph
        let size = fragment.layoutFragmentFrame.size
        // One bar per level, but never two closer than 5 points nor one nearer the text than 8
        // (squeezed deep nesting).
        var lastBar = -Double.infinity
        let barWidth = max(2, (theme.quoteIndent * BlockStyle.quoteBarShare).rounded())
        let head = paragraph.attributes(at: 0)
        let alertLevel = head[Alert.levelKey]?.number.map { Int($0) }
        for depth in 0..<paragraph.quoteDepth {
            let x = style.quoteBarStart + Double(depth) * style.quoteStep
            guard x - lastBar >= 5, x + barWidth <= style.leftIndent - 8 || style.quoteStep == theme.quoteIndent else { continue }
            lastBar = x
            // An alert's bar is in its colour (`Alert.color`), the others in the theme's.
            var bar = theme.quoteBar
            if depth + 1 == alertLevel, case .color(let color)? = head[Alert.barKey] { bar = color.resolved(for: theme) }
            // The quotes that end here stop before the space after them (two quotes in a row
            // are two bars, not one).
            let ends = paragraph.quoteDepth - depth <= paragraph.ending.quotes
            Paint.fill(cr, CGRect(x: x, y: 0, width: barWidth, height: size.height - (ends ? style.spacingAfter : 0)), bar)
        }
        switch paragraph.kind {
        case .codeBlock:
            Paint.setColor(cr, theme.codeBackground)
            Paint.roundedRect(cr, box, radius: 6)
            cairo_fill(cr)
            // The bands of a long block join square, as one box.
            if paragraph.ending.joinsPrevious { Paint.fill(cr, CGRect(x: box.minX, y: box.minY, width: box.width, height: min(6, box.height)), theme.codeBackground) }
            if paragraph.ending.joinsNext { Paint.fill(cr, CGRect(x: box.minX, y: max(box.maxY - 6, box.minY), width: box.width, height: min(6, box.height)), theme.codeBackground) }
        case .thematicBreak:
            let middle = box.midY
            // GitHub's rule is a bar a quarter of the text size tall; the line over the
            // footnotes is a thin border.
            let height = paragraph.attributes(at: 0)[AttributeVocabulary.footnote] == nil ? 4.0 : 1
            Paint.fill(cr, CGRect(x: box.minX, y: (middle - height / 2).rounded(), width: box.width, height: height), theme.rule)
        case .tableRow(let row):
            if let table = fragment.shaped?.table { drawTableRow(row, table, width: fragment.containerWidth, in: cr) }
        case .heading(let level) where level <= 2:
            Paint.fill(cr, CGRect(x: box.minX, y: box.maxY, width: box.width, height: BlockStyle.ruleWidth), theme.rule)
        default:
            break
        }
    }
}

extension FragmentPainter {
    /// A hooked arrow (↪) in the continuation indent of each soft-wrapped code line, as editors
    /// mark soft wraps: a reader (or OCR) tells a wrapped line from two lines.
    func drawContinuationMarkers(_ fragment: TextLayoutFragment, style: BlockStyle, in cr: OpaquePointer) {
        let bytes = Array(fragment.paragraph.text.utf8)
        let mirrored = theme.direction == .rightToLeft
        Paint.setColor(cr, theme.secondaryText)
        cairo_set_line_width(cr, 1)
        for line in fragment.textLineFragments {
            let start = line.utf8Range.lowerBound
            guard start > 0, start <= bytes.count, bytes[start - 1] != 0x0A else { continue }
            let size = style.size
            let y = line.typographicBounds.midY.rounded() + 0.5
            let width = (style.continuationIndent * 0.45).rounded()
            let x = mirrored ? (line.typographicBounds.maxX + style.continuationIndent * 0.3).rounded() + 0.5
                             : (line.typographicBounds.minX - style.continuationIndent * 0.75).rounded() + 0.5
            let direction = mirrored ? -1.0 : 1.0
            let top = y - size * 0.35, head = size * 0.18
            cairo_move_to(cr, x, top)
            cairo_line_to(cr, x, y)
            cairo_line_to(cr, x + direction * width, y)
            cairo_move_to(cr, x + direction * (width - head), y - head)
            cairo_line_to(cr, x + direction * width, y)
            cairo_line_to(cr, x + direction * (width - head), y + head)
            cairo_stroke(cr)
        }
    }

    /// A row's borders (GitHub's: every cell boxed), the stripe of every second body row, and,
    /// where the table is cut at the view's edge, a marker there.
    private func drawTableRow(_ row: TableRow, _ table: TableRowGeometry, width: Double, in cr: OpaquePointer) {
        let border = Typesetter.cellBorder
        let left = table.edges.first!, right = table.edges.last!
        if row.isStriped {
            // Translucent, so the selection drawn behind the text shows through.
            Paint.fill(cr, CGRect(x: left, y: table.top, width: right - left, height: table.bottom - table.top), theme.codeBackground, alpha: 0.6)
        }
        Paint.fill(cr, CGRect(x: left, y: table.top, width: right - left + border, height: border), theme.rule)
        if row.isLast { Paint.fill(cr, CGRect(x: left, y: table.bottom - border, width: right - left + border, height: border), theme.rule) }
        for x in table.edges { Paint.fill(cr, CGRect(x: x, y: table.top, width: border, height: table.bottom - table.top), theme.rule) }
    }

    /// A bar in the link colour at the edge where a table is cut, and an arrow on it: there is
    /// more. Drawn over the text, which runs on under it.
    private func drawCutMarker(_ table: TableRowGeometry, width: Double, in cr: OpaquePointer) {
        cairo_save(cr)
        if theme.direction == .rightToLeft {
            cairo_translate(cr, width, 0)
            cairo_scale(cr, -1, 1)
        }
        let edge = width - 3
        Paint.fill(cr, CGRect(x: edge, y: table.top, width: 3, height: table.bottom - table.top), theme.link)
        let middle = (table.top + table.bottom) / 2
        Paint.setColor(cr, theme.link)
        cairo_move_to(cr, edge - 7, middle - 5)
        cairo_line_to(cr, edge - 1, middle)
        cairo_line_to(cr, edge - 7, middle + 5)
        cairo_close_path(cr)
        cairo_fill(cr)
        cairo_restore(cr)
    }
}

