import Foundation

/// TeX math: the formula's outline, filled in the text's colour. Its attachment carries the
/// typeset path (`MathTypesetter`) and the TeX source as its alt text (what it reads as).
open class MathAttachmentViewProvider: TextAttachmentViewProvider {
    open override class var providerName: String { "math" }
    open override func loadView() -> AttachmentView { MathAttachmentView(attachment: textAttachment) }
}

/// A formula's view: still, drawn at once.
open class MathAttachmentView: AttachmentView {
    open override var isAnimating: Bool { false }
    open override func draw(in canvas: GraphicsContext) {
        guard let path = attachment.parameters[MathAttachment.pathKey] else { return canvas.placeholder(for: attachment) }
        let ascent = attachment.size.height - attachment.baselineDepth
        MathAttachment.addOutline(path, to: canvas, baseline: ascent)
        canvas.setFillColor(canvas.theme.text)
        canvas.fillPath()
    }
}

enum MathAttachment {
    static let pathKey = "path", depthKey = "depth"

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

    /// A formula typeset as `typeset`, its TeX source as its alt text.
    static func math(_ tex: String, _ typeset: MathTypesetter.Typeset, ordinal: Int, isBlock: Bool) -> TextAttachment {
        TextAttachment(scheme: "math", id: "math\(ordinal)", size: CGSize(width: max(typeset.width, 1), height: max(typeset.height + typeset.depth, 1)),
                       url: "math:", parameters: [MathAttachment.pathKey: typeset.path, MathAttachment.depthKey: NumberText.text(typeset.depth)],
                       altText: tex, isBlock: isBlock)
    }
}

extension AttachmentDescriptor {
    /// `$x^2$`, `$$\sum_k k$$` and fenced `math` blocks: TeX math, read from the Markdown (not a URL).
    public static let math = AttachmentDescriptor(
        kind: AttachmentKind(scheme: "math", defaultSize: { _ in CGSize(width: 40, height: 16) }, readKeys: []),
        provider: MathAttachmentViewProvider.self,
        caption: { $0.altText })
}
