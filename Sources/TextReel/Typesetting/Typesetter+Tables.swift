import CPango
import Foundation

/// Where a table row's borders and cells are, for drawing (left-to-right coordinates: a mirrored
/// view mirrors decorations as a whole).
struct TableRowGeometry {
    /// x of each vertical border, from the table's left edge to its right.
    let edges: [Double]
    /// The row's box between its top border and its bottom (the last row's bottom border included).
    let top: Double, bottom: Double
    /// Set when even the columns' narrowest widths do not fit the text column: the table is cut
    /// at the view's edge, and this says how much does not show.
    let overflow: String?
}

/// The column widths of a table, as browsers' automatic table layout gives them: every column
/// at its widest content when all fit; else each at its narrowest (its longest word) plus a share
/// of what is left in proportion to how much wider it would like to be; else at its narrowest,
/// overflowing.
enum TableColumnWidths {
    static func fit(minimum: [Double], maximum: [Double], available: Double) -> (widths: [Double], overflows: Bool) {
        let most = maximum.reduce(0, +), least = minimum.reduce(0, +)
        if most <= available { return (maximum, false) }
        if least >= available { return (minimum, least > available + 0.5) }
        let spare = available - least, wanted = most - least
        return (zip(minimum, maximum).map { $0 + spare * ($1 - $0) / wanted }, false)
    }
}

extension Typesetter {
    /// Padding inside a cell, horizontal and vertical (GitHub's 13 × 6 px).
    static let cellPadding = (horizontal: 13.0, vertical: 6.0)
    /// The least horizontal padding a cell keeps when its table is too wide.
    static let narrowCellPadding = 4.0
    /// Border width around and between cells.
    static let cellBorder = 1.0

    /// Each column's narrowest and widest content, measured once per table (by its
    /// fingerprint) from its header and first rows. Called under the `FontLock`.
    private func measure(_ columns: TableColumns, style: BlockStyle, available: Double) -> (minimum: [Double], maximum: [Double]) {
        if let known = tableMeasures[columns.fingerprint] { return known }
        var minimum = [Double](repeating: 0, count: columns.count), maximum = minimum
        let layout = PangoLayoutBox(pango_layout_new(fonts.context))
        let description = pango_font_description_from_string("\(style.families) \(style.size)")
        pango_layout_set_font_description(layout.layout, description)
        pango_font_description_free(description)
        for row in columns.sample {
            for (column, cell) in row.enumerated() where column < columns.count {
                setCell(layout.layout, text: cell.text, runs: cell.runs, attachments: cell.attachments, available: available, fit: nil)
                pango_layout_set_width(layout.layout, -1)
                maximum[column] = max(maximum[column], layout.logicalSize.width)
                // Wrapped at every word boundary and never inside a word: the longest word (an
                // image, which shrinks to its cell, counts for nothing).
                if cell.attachments.contains(where: { $0.scheme != "math" }) {
                    setCell(layout.layout, text: cell.text, runs: cell.runs, attachments: cell.attachments, available: available, fit: 1)
                }
                pango_layout_set_wrap(layout.layout, PANGO_WRAP_WORD)
                pango_layout_set_width(layout.layout, 1)
                minimum[column] = max(minimum[column], layout.logicalSize.width)
            }
        }
        tableMeasures[columns.fingerprint] = (minimum, maximum)
        return (minimum, maximum)
    }

    /// An attachment's size in a cell `fit` wide (nil: as wide as it likes): an image shrinks to
    /// the cell, keeping its aspect, as GitHub's `img { max-width: 100% }` lets a table's columns
    /// share the width (two screenshots side by side); a formula keeps its size.
    private func cellSize(_ attachment: TextAttachment, available: Double, fit: Double?) -> CGSize {
        let size = attachmentSize(attachment, available) ?? attachment.size
        return fit.map { displayedSize(of: attachment, size, available: max($0, 1)) } ?? size
    }

    private func setCell(_ layout: OpaquePointer, text: String, runs: [StyledRun], attachments: [TextAttachment], available: Double, fit: Double?) {
        pango_layout_set_text(layout, text, Int32(text.utf8.count))
        let attributes = AttributeListBuilder(shift: 0)
        attributes.setLineHeight(theme.lineHeight, size: theme.bodySize)
        attributes.addRuns(runs, text: text, theme: theme)
        attributes.addAttachments(attachments, sizes: attachments.map { cellSize($0, available: available, fit: fit) })
        // A path, URL or option stays whole, as in prose: its column is measured wide enough.
        for token in Typesetter.proseTokens(text) { attributes.add(pango_attr_allow_breaks_new(0), token) }
        pango_layout_set_attributes(layout, attributes.list)
    }

    /// A table row: one Pango layout per cell, wrapped to its column's width, the row as tall
    /// as its tallest cell. The lines of every cell are the fragment's lines, in text order.
    func shapeRow(_ paragraph: TextParagraph, row: TableRow, style: BlockStyle, containerWidth: Double, insets: FragmentInsets) -> ShapedParagraph {
        let mirrored = theme.direction == .rightToLeft
        let (padding, border) = (Self.cellPadding, Self.cellBorder)
        let tableLeft = style.leftIndent + insets.leading
        let available = max(containerWidth - tableLeft - style.rightIndent - insets.trailing, 1)
        let count = max(row.columns.count, 1)
        let measured = measure(row.columns, style: style, available: available)
        // A table that does not fit at its narrowest first gives up cell padding (down to 4
        // points a side), so that one a few points too wide still shows whole.
        let narrowest = measured.minimum.reduce(0, +) + Double(count + 1) * border
        let pad = min(padding.horizontal, max((available - narrowest) / Double(2 * count), Self.narrowCellPadding))
        let chrome = Double(count) * (2 * pad + border) + border
        var (widths, overflows) = TableColumnWidths.fit(minimum: measured.minimum, maximum: measured.maximum,
                                                       available: max(available - chrome, Double(count)))
        if widths.isEmpty { widths = [max(available - chrome, 1)] }

        var edges = [tableLeft]
        for width in widths { edges.append(edges.last! + width + 2 * pad + border) }
        let top = insets.top + style.spacingBefore
        let textTop = top + border + padding.vertical

        let bytes = Array(paragraph.text.utf8)
        let ranges = TableColumns.cellRanges(of: paragraph.text)
        var cells: [(box: PangoLayoutBox, range: Range<Int>, x: Double, width: Double, height: Double)] = []
        for (column, range) in ranges.enumerated() where column < widths.count {
            let box = PangoLayoutBox(pango_layout_new(mirrored ? fonts.rightToLeftContext : fonts.context))
            let pl = box.layout
            let description = pango_font_description_from_string("\(style.families) \(style.size)")
            pango_layout_set_font_description(pl, description)
            pango_font_description_free(description)
            let cellAttachments = paragraph.attachments.filter { range.contains($0.utf8Offset) }
                .map { $0.at(offset: $0.utf8Offset - range.lowerBound, isBlock: false) }
            setCell(pl, text: String(decoding: bytes[range], as: UTF8.self), runs: paragraph.runs.compactMap { $0.clipped(to: range) },
                    attachments: cellAttachments, available: available, fit: widths[column])
            pango_layout_set_width(pl, PangoUnits.units(widths[column]))
            pango_layout_set_wrap(pl, PANGO_WRAP_WORD_CHAR)
            if mirrored { pango_layout_set_auto_dir(pl, 0) }
            switch row.columns.alignments.indices.contains(column) ? row.columns.alignments[column] : .natural {
            case .center: pango_layout_set_alignment(pl, PANGO_ALIGN_CENTER)
            case .right: pango_layout_set_alignment(pl, mirrored ? PANGO_ALIGN_LEFT : PANGO_ALIGN_RIGHT)
            case .left: pango_layout_set_alignment(pl, mirrored ? PANGO_ALIGN_RIGHT : PANGO_ALIGN_LEFT)
            // Header cells without an alignment are centred, as browsers centre `th`.
            case .natural: pango_layout_set_alignment(pl, row.isHeader ? PANGO_ALIGN_CENTER : mirrored ? PANGO_ALIGN_RIGHT : PANGO_ALIGN_LEFT)
            }
            // Column 0 is on the left, or on the right in a mirrored view.
            let left = edges[column] + border + pad
            let x = mirrored ? containerWidth - left - widths[column] : left
            cells.append((box, range, x, widths[column], box.logicalSize.height))
        }
        let tallest = cells.map(\.height).max() ?? style.size
        var lines: [TextLineFragment] = [], attachmentFrames: [(attachment: TextAttachment, frame: CGRect)] = []
        var placed: [(box: PangoLayoutBox, origin: CGPoint)] = []
        for cell in cells {
            // Cells sit in the middle of the row, as browsers set them by default.
            let origin = CGPoint(x: cell.x, y: textTop + ((tallest - cell.height) / 2).rounded())
            let shift = -cell.range.lowerBound
            let cursor = CursorGeometry(box: cell.box, shift: shift, length: bytes.count)
            let cellLines = lineFragments(cell.box, origin: origin, shift: shift, cursor: cursor, paragraph: paragraph, color: style.color)
            lines += cellLines
            for (index, attachment) in paragraph.attachments.enumerated() where cell.range.contains(attachment.utf8Offset) {
                let size = cellSize(attachment, available: available, fit: cell.width)
                attachmentFrames.append((paragraph.attachments[index],
                                         attachmentFrame(cell.box.layout, index: attachment.utf8Offset + shift, size: size, lines: cellLines, origin: origin)))
            }
            placed.append((cell.box, origin))
        }
        let bottom = textTop + tallest + padding.vertical + (row.isLast ? border : 0)
        let height = (bottom + style.spacingAfter + insets.bottom).rounded(.up)
        let frameRect = CGRect(x: 0, y: 0, width: containerWidth, height: height)
        let tableRight = edges.last!
        let overflow = overflows || tableRight > containerWidth - style.rightIndent + 0.5
            ? "\(count) columns need \(Int(tableRight - tableLeft)) pt, the text column has \(Int(available)): cut at the view's edge" : nil
        let geometry = TableRowGeometry(edges: edges, top: top, bottom: bottom, overflow: overflow)
        return ShapedParagraph(size: frameRect.size, renderingSurfaceBounds: frameRect, lines: lines,
                               attachmentFrames: attachmentFrames, layoutOrigin: placed.first?.origin ?? CGPoint(x: tableLeft, y: textTop),
                               style: style, layout: placed.first?.box ?? PangoLayoutBox(pango_layout_new(fonts.context)),
                               containerWidth: containerWidth, textShift: 0, cells: placed, table: geometry)
    }
}
