import Foundation

/// Estimates the height of paragraphs that have not been shaped, from their kind and length, and
/// calibrates itself from the ones that have: estimates scale by measured ÷ estimated over every
/// measured paragraph of text (sums in document-independent order, so it is deterministic).
struct HeightEstimator {
    let theme: Theme
    var containerWidth: Double
    private var measuredSum = 0.0
    private var estimatedSum = 0.0

    init(theme: Theme, containerWidth: Double) {
        self.theme = theme
        self.containerWidth = containerWidth
    }

    /// The calibration factor applied to raw text estimates.
    var calibration: Double {
        estimatedSum > 0 ? min(max(measuredSum / estimatedSum, 0.5), 2) : 1
    }

    func estimate(_ paragraph: TextParagraph) -> Double {
        let style = BlockStyle(paragraph: paragraph, theme: theme, containerWidth: containerWidth)
        let fixed = style.spacingBefore + style.spacingAfter + style.paddingTop + style.paddingBottom
        switch paragraph.kind {
        case .thematicBreak:
            return (fixed + style.size * 1.4).rounded(.up)
        case .blockAttachment:
            let available = containerWidth - style.leftIndent - style.rightIndent
            let size = paragraph.attachments.first?.size ?? .zero
            let height = size.width > available ? size.height * available / size.width : size.height
            return (fixed + height + 4).rounded(.up)
        default:
            return (fixed + rawTextHeight(paragraph, style: style) * calibration).rounded(.up)
        }
    }

    private func rawTextHeight(_ paragraph: TextParagraph, style: BlockStyle) -> Double {
        let lineHeight = style.size * style.lineHeight
        let available = max(containerWidth - style.leftIndent - style.rightIndent - 2 * style.padding, 40)
        let charsPerLine = max(available / (style.size * 0.52), 1)
        let bytes = Double(paragraph.text.utf8.count)
        var lines = max(1, (bytes / charsPerLine).rounded(.up))
        switch paragraph.kind {
        case .codeBlock:
            // Hard lines each take at least one line; only code has many.
            let hard = Double(paragraph.text.utf8.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) })
            lines = theme.wrapsCode ? max(lines, hard) : hard
        case .tableRow(let row):
            // The tallest cell, each column an equal share of the width; and the cell padding.
            let perColumn = max(charsPerLine / Double(max(row.columns.count, 1)) - 2, 1)
            lines = TableColumns.cellRanges(of: paragraph.text).map { (Double($0.count) / perColumn).rounded(.up) }.max().map { max($0, 1) } ?? 1
            return lines * lineHeight + 2 * Typesetter.cellPadding.vertical + 1
        default:
            break
        }
        let tallest = paragraph.attachments.isEmpty ? 0 : paragraph.attachments.map(\.size.height).max()!
        return lines * lineHeight + max(0, tallest - style.size)
    }

    /// Feeds one measurement back into the calibration.
    mutating func record(_ paragraph: TextParagraph, measured: Double) {
        switch paragraph.kind {
        case .thematicBreak, .blockAttachment: return
        default: break
        }
        let style = BlockStyle(paragraph: paragraph, theme: theme, containerWidth: containerWidth)
        let fixed = style.spacingBefore + style.spacingAfter + style.paddingTop + style.paddingBottom
        measuredSum += max(measured - fixed, 0)
        estimatedSum += rawTextHeight(paragraph, style: style)
    }
}
