import Foundation

/// TeX math: the formula's outline, filled in the text's colour. Its attachment carries the TeX
/// source as its alt text (what it reads as) and, once its kind's `prepare` has typeset it when
/// its paragraph was first laid out, the outline (the Markdown reader's `MathTypesetter`).
open class MathAttachmentViewProvider: TextAttachmentViewProvider {
    open override class var providerName: String { "math" }
    open override func loadView() -> AttachmentView { MathAttachmentView(attachment: textAttachment) }
}

/// A formula's view: still, drawn at once; one the engine could not typeset shows its source, as
/// a code span would.
open class MathAttachmentView: AttachmentView {
    open override var isAnimating: Bool { false }
    open override func draw(in canvas: GraphicsContext) {
        if let path = attachment.parameters[MathAttachment.pathKey] {
            let ascent = attachment.size.height - attachment.baselineDepth
            MathAttachment.addOutline(path, to: canvas, baseline: ascent)
            canvas.setFillColor(canvas.theme.text)
            canvas.fillPath()
            // Glyphs MathJax would colour (`\color`), in their colour in every look, as GitHub shows them.
            for piece in (attachment.parameters[MathAttachment.coloredKey] ?? "").split(separator: "\n") {
                let words = piece.split(separator: " ", maxSplits: 3)
                guard words.count == 4, let r = Double(words[0]), let g = Double(words[1]), let b = Double(words[2]) else { continue }
                MathAttachment.addOutline(String(words[3]), to: canvas, baseline: ascent)
                canvas.setFillColor(Color(r / 255, g / 255, b / 255))
                canvas.fillPath()
            }
        } else if let source = attachment.parameters[MathAttachment.sourceKey], let font = Font(name: canvas.theme.monoFamilies, size: MathAttachment.sourceSize) {
            canvas.fillRoundedRect(canvas.bounds, radius: 6, canvas.theme.codeBackground)
            canvas.text(source, at: CGPoint(x: MathAttachment.sourcePadding, y: 0), font: font, canvas.theme.text)
        } else {
            canvas.placeholder(for: attachment)
        }
    }
}

package enum MathAttachment {
    /// The outline, its depth below the baseline, and whether it is a display formula (`$$…$$`).
    package static let pathKey = "path", depthKey = "depth", displayKey = "display"
    /// The coloured glyphs' outlines, a line each: "r g b" (0–255), then the outline.
    package static let coloredKey = "colored"

    /// A formula the engine could not typeset: its source as drawn instead (`$…$`, `$$…$$`).
    package static let sourceKey = "source"
    /// The size and padding of that source, a code span's.
    package static let sourceSize = 13.6, sourcePadding = 3.0

    /// The outline "M x y L x y Q cx cy x y C … Z" (y up from the baseline) as the current path,
    /// y down from the box's top.
    static func addOutline(_ path: String, to canvas: GraphicsContext, baseline: Double) {
        var numbers: [Double] = []
        var command: Character = "M"
        var last = CGPoint.zero
        func point(_ k: Int) -> CGPoint { CGPoint(x: numbers[k], y: baseline - numbers[k + 1]) }
        func flush() {
            switch command {
            case "M" where numbers.count >= 2: last = point(0); canvas.move(to: last)
            case "L" where numbers.count >= 2: last = point(0); canvas.addLine(to: last)
            case "Q" where numbers.count >= 4:
                // Cairo draws cubic curves: the quadratic one raised to a cubic.
                let control = point(0), end = point(2)
                canvas.addCurve(to: end, control1: CGPoint(x: last.x + 2 / 3 * (control.x - last.x), y: last.y + 2 / 3 * (control.y - last.y)),
                                control2: CGPoint(x: end.x + 2 / 3 * (control.x - end.x), y: end.y + 2 / 3 * (control.y - end.y)))
                last = end
            case "C" where numbers.count >= 6: last = point(4); canvas.addCurve(to: last, control1: point(0), control2: point(2))
            case "Z": canvas.closePath()
            default: break
            }
            numbers.removeAll(keepingCapacity: true)
        }
        for word in path.split(separator: " ") {
            if let value = Double(word) { numbers.append(value) } else if let letter = word.first {
                flush()
                command = letter
            }
        }
        flush()
    }
}

extension TextAttachment {
    /// How far the box reaches below the baseline (a formula's depth; 0 for other attachments).
    var baselineDepth: Double { parameters[MathAttachment.depthKey].flatMap(Double.init) ?? 0 }

    /// A formula still to be typeset (`MathAttachment.typeset`, when its paragraph is first laid
    /// out), its TeX source as its alt text; its size until then a guess from the source's length.
    package static func math(_ tex: String, ordinal: Int, isBlock: Bool) -> TextAttachment {
        let guess = CGSize(width: min(Double(tex.count) * 6, 600).rounded(), height: isBlock ? 40 : 20)
        return TextAttachment(scheme: "math", id: "math\(ordinal)", size: guess, url: "math:",
                              parameters: isBlock ? [MathAttachment.displayKey: "1"] : [:], altText: tex, isBlock: isBlock)
    }
}

extension AttachmentDescriptor {
    /// `$x^2$`, `$$\sum_k k$$` and fenced `math` blocks: TeX math, read from the Markdown (not a URL).
    public static let math = AttachmentDescriptor(
        kind: AttachmentKind(scheme: "math", defaultSize: { _ in CGSize(width: 40, height: 16) }, readKeys: []),
        provider: MathAttachmentViewProvider.self,
        caption: { $0.altText })
}
