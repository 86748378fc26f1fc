import CPango
import Foundation

/// Draws one layout fragment (text and block decorations, not attachments) in fragment coordinates.
struct FragmentPainter {
    let theme: Theme

    func draw(_ fragment: TextLayoutFragment, in cr: OpaquePointer) {
        guard let style = fragment.style else { return }
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
        guard let layout = fragment.layout, !paragraph.kind.isThematicBreak else { return }
        Paint.setColor(cr, style.color)
        cairo_move_to(cr, fragment.layoutOrigin.x, fragment.layoutOrigin.y)
        layout.show(in: cr)
    }

    private func drawDecorations(_ fragment: TextLayoutFragment, style: BlockStyle, box: CGRect, in cr: OpaquePointer) {
        let paragraph = fragment.paragraph
        let size = fragment.layoutFragmentFrame.size
        // One bar per level, but never two closer than 5 points nor one nearer the text than 8
        // (squeezed deep nesting).
        var lastBar = -Double.infinity
        for depth in 0..<paragraph.quoteDepth {
            let x = theme.insets.left + Double(depth) * style.quoteStep
            guard x - lastBar >= 5, x + 3 <= style.leftIndent - 8 || style.quoteStep == theme.quoteIndent else { continue }
            lastBar = x
            Paint.fill(cr, CGRect(x: x, y: 0, width: 3, height: size.height), theme.quoteBar)
        }
        switch paragraph.kind {
        case .codeBlock:
            Paint.setColor(cr, theme.codeBackground)
            Paint.roundedRect(cr, box, radius: 6)
            cairo_fill(cr)
        case .thematicBreak:
            let middle = fragment.topMargin + (size.height - fragment.topMargin - fragment.bottomMargin) / 2
            Paint.fill(cr, CGRect(x: box.minX, y: middle.rounded() - 1, width: box.width, height: 2), theme.rule)
        case .table:
            // The header row ends at the first row separator; it may wrap onto several lines.
            let headerEnd = paragraph.text.utf8.firstRange(of: "\u{2028}".utf8).map { paragraph.text.utf8.distance(from: paragraph.text.utf8.startIndex, to: $0.lowerBound) } ?? Int.max
            if let header = fragment.textLineFragments.last(where: { $0.characterRange.lowerBound < headerEnd }), fragment.textLineFragments.count > 1 {
                let y = (header.typographicBounds.maxY + theme.lineSpacing * style.size / 2).rounded()
                Paint.fill(cr, CGRect(x: box.minX, y: y, width: box.width, height: 1), theme.rule)
            }
        case .heading(let level) where level <= 2:
            Paint.fill(cr, CGRect(x: box.minX, y: box.maxY + 3, width: box.width, height: 1), theme.rule)
        default:
            break
        }
    }
}

private extension ParagraphKind {
    var isThematicBreak: Bool { if case .thematicBreak = self { true } else { false } }
}
