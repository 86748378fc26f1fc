import Foundation

/// Drawings: a canvas of many strokes derived from the attachment's id (costly to draw on
/// purpose, so caching its surface matters), plus strokes added by script.
open class DrawingAttachmentViewProvider: TextAttachmentViewProvider {
    open override class var providerName: String { "drawing" }
    open override func loadView() -> AttachmentView { DrawingAttachmentView(attachment: textAttachment) }
}

/// A drawing's view: generated strokes plus those scripts add.
open class DrawingAttachmentView: AttachmentView {
    /// Still once loaded.
    open override var isAnimating: Bool { !isLoaded }
    /// Strokes added by script, in the drawing's own coordinates.
    public private(set) var addedStrokes: [[CGPoint]] = []
    /// How many generated strokes the canvas has.
    public static let generatedStrokes = 400

    open override var loadFrames: Int { 2 }
    open override var visibleState: [String: StateValue] { ["strokes": .number(Double(addedStrokes.count))] }

    open override func perform(_ action: AttachmentAction) throws {
        guard case .stroke(let points) = action else { return try super.perform(action) }
        guard !points.isEmpty else { throw TextReelError("a stroke on '\(attachment.id)' needs at least one point") }
        addedStrokes.append(points)
        setNeedsDisplay()
    }

    open override func saveState() -> [String: StateValue]? {
        ["strokes": .string(addedStrokes.map { $0.map { "\($0.x),\($0.y)" }.joined(separator: " ") }.joined(separator: ";"))]
    }

    open override func restoreState(_ state: [String: StateValue]) {
        guard case .string(let text)? = state["strokes"], !text.isEmpty else { return }
        addedStrokes = text.split(separator: ";").map { stroke in
            stroke.split(separator: " ").compactMap { pair in
                let xy = pair.split(separator: ",").compactMap { Double($0) }
                return xy.count == 2 ? CGPoint(x: xy[0], y: xy[1]) : nil
            }
        }
        setNeedsDisplay()
    }

    open override func draw(in canvas: GraphicsContext) {
        let box = canvas.bounds
        canvas.fillRoundedRect(box.insetBy(dx: 0.5, dy: 0.5), radius: 5, canvas.theme.attachments.drawingPaper)
        var random = SplitMix(seed: StableHash.of(attachment.id))
        func unit() -> Double { Double(random.next() % 10_000) / 10_000 }
        canvas.clipped(to: box) {
            for _ in 0..<Self.generatedStrokes {
                var point = CGPoint(x: unit() * box.width, y: unit() * box.height)
                var points = [point]
                for _ in 0..<10 {
                    point = CGPoint(x: point.x + (unit() - 0.5) * 24, y: point.y + (unit() - 0.5) * 24)
                    points.append(point)
                }
                canvas.stroke(points, Color(hue: 0.05 + unit() * 0.12, saturation: 0.6, brightness: 0.75),
                              lineWidth: 0.6 + unit() * 1.6, alpha: 0.35)
            }
            for stroke in addedStrokes { canvas.stroke(stroke, canvas.theme.attachments.drawingInk, lineWidth: 3) }
        }
        canvas.strokeRoundedRect(box.insetBy(dx: 0.5, dy: 0.5), radius: 5, canvas.theme.attachments.drawingFrame, alpha: 0.6)
        if box.height >= 60 {
            canvas.text("drawing · \(attachment.id) · \(addedStrokes.count) added", at: CGPoint(x: 8, y: 6), size: 11,
                        canvas.theme.attachments.drawingFrame, maxWidth: box.width - 16)
        }
    }
}

extension AttachmentDescriptor {
    /// `![](drawing:sketch?size=300x200)`.
    public static let drawing = AttachmentDescriptor(
        kind: AttachmentKind(scheme: "drawing", defaultSize: { _ in CGSize(width: 300, height: 200) }, readKeys: [],
                             trusts: { _, _ in true }),
        provider: DrawingAttachmentViewProvider.self,
        placeholderColors: { ($0.attachments.drawingPlaceholder, $0.attachments.drawingPlaceholderInk) },
        icon: { context, r, _ in
            // One pen stroke.
            context.move(to: CGPoint(x: r.minX, y: r.maxY - r.height * 0.2))
            context.addCurve(to: CGPoint(x: r.maxX, y: r.minY + r.height * 0.25), control1: CGPoint(x: r.minX + r.width * 0.3, y: r.minY),
                             control2: CGPoint(x: r.minX + r.width * 0.5, y: r.maxY))
            context.strokePath()
        })
}
