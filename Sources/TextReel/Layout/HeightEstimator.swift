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
        let fixed = style.spacingBefore + style.spacingAfter + 2 * style.padding
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
        let lineHeight = style.size * (1.36 + theme.lineSpacing)
        let available = max(containerWidth - style.leftIndent - style.rightIndent - 2 * style.padding, 40)
        let charsPerLine = max(available / (style.size * 0.52), 1)
        let bytes = Double(paragraph.text.utf8.count)
        var lines = max(1, (bytes / charsPerLine).rounded(.up))
        switch paragraph.kind {
        case .codeBlock, .table:
            // Hard lines each take at least one line; only these kinds have many. They end at a
            // newline (code) or at U+2028, the row separator of tables (UTF-8 E2 80 A8; a lone
            // 0xA8 byte is also the tail of "è" and others, so the whole sequence is matched).
            var hardLines = 1.0
            var last2: UInt8 = 0, last1: UInt8 = 0
            for byte in paragraph.text.utf8 {
                if byte == 0x0A || (byte == 0xA8 && last1 == 0x80 && last2 == 0xE2) { hardLines += 1 }
                (last2, last1) = (last1, byte)
            }
            lines = max(lines, hardLines)
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
        let fixed = style.spacingBefore + style.spacingAfter + 2 * style.padding
        measuredSum += max(measured - fixed, 0)
        estimatedSum += rawTextHeight(paragraph, style: style)
    }
}
