import Foundation
import TextReel

/// A kind of attachment added from outside the library, as a user would: one file with its
/// descriptor, provider and view, registered with one line (`providers.register(.audio)`).
/// `![](audio:theme?duration=30)`: a player bar with a waveform that fills as it plays.
extension AttachmentDescriptor {
    static let audio = AttachmentDescriptor(
        kind: AttachmentKind(
            scheme: "audio", defaultSize: { _ in CGSize(width: 280, height: 44) }, readKeys: ["duration"],
            check: { parameters in
                guard let duration = parameters["duration"] else { return }
                guard let seconds = Double(duration), seconds > 0, seconds <= 3600 else {
                    throw TextReelError("malformed duration '\(duration)'; expected 0 to 3600 seconds")
                }
            },
            trusts: { key, value in key != "duration" || (Int(value).map { (1...3600).contains($0) } ?? false) }),
        provider: AudioAttachmentViewProvider.self,
        placeholderColors: { ($0.codeBackground, $0.link) },
        icon: { context, r, _ in
            // A speaker: a box and a cone, and one sound wave.
            context.addRect(CGRect(x: r.minX, y: r.midY - r.height * 0.15, width: r.width * 0.25, height: r.height * 0.3))
            context.fillPath()
            context.move(to: CGPoint(x: r.minX + r.width * 0.25, y: r.midY - r.height * 0.15))
            context.addLine(to: CGPoint(x: r.minX + r.width * 0.55, y: r.minY + r.height * 0.1))
            context.addLine(to: CGPoint(x: r.minX + r.width * 0.55, y: r.maxY - r.height * 0.1))
            context.addLine(to: CGPoint(x: r.minX + r.width * 0.25, y: r.midY + r.height * 0.15))
            context.closePath()
            context.fillPath()
            context.addArc(center: CGPoint(x: r.minX + r.width * 0.55, y: r.midY), radius: r.width * 0.35,
                           startAngle: -.pi / 4, endAngle: .pi / 4)
            context.strokePath()
        })
}

final class AudioAttachmentViewProvider: TextAttachmentViewProvider {
    override class var providerName: String { "audio" }
    override func loadView() -> AttachmentView { AudioAttachmentView(attachment: textAttachment) }
}

final class AudioAttachmentView: AttachmentView {
    private(set) var position = 0.0
    private(set) var isPlaying = false
    let duration: Double

    required init(attachment: TextAttachment) {
        duration = attachment.parameters["duration"].flatMap(Double.init) ?? 60
        super.init(attachment: attachment)
    }

    override var isPinned: Bool { isPlaying }
    override var visibleState: [String: StateValue] { ["position": .number(position), "playing": .bool(isPlaying)] }

    override func perform(_ action: AttachmentAction) throws {
        switch action {
        case .play: isPlaying = true
        case .pause: isPlaying = false
        default: try super.perform(action)
        }
        setNeedsDisplay()
    }

    override func advance(by seconds: Double) {
        guard isPlaying, seconds > 0 else { return }
        position = min(position + seconds, duration)
        if position == duration { isPlaying = false }
        setNeedsDisplay()
    }

    override func draw(in canvas: GraphicsContext) {
        let box = canvas.bounds
        let colors = canvas.theme.attachments
        canvas.fillRoundedRect(box.insetBy(dx: 0.5, dy: 0.5), radius: box.height / 2, canvas.theme.codeBackground)
        // The play / pause button.
        let button = CGRect(x: 6, y: 6, width: box.height - 12, height: box.height - 12)
        canvas.fillCircle(center: CGPoint(x: button.midX, y: button.midY), radius: button.width / 2, colors.accent)
        if isPlaying {
            canvas.fill(CGRect(x: button.midX - 5, y: button.midY - 6, width: 3.5, height: 12), colors.knob)
            canvas.fill(CGRect(x: button.midX + 1.5, y: button.midY - 6, width: 3.5, height: 12), colors.knob)
        } else {
            canvas.fillPolygon([CGPoint(x: button.midX - 4, y: button.midY - 6), CGPoint(x: button.midX + 6, y: button.midY),
                                CGPoint(x: button.midX - 4, y: button.midY + 6)], colors.knob)
        }
        // The waveform: bars of heights from the id, the played part in the accent colour.
        let left = button.maxX + 10, right = box.width - 14
        let bars = max(Int((right - left) / 5), 1)
        let played = Int(Double(bars) * position / max(duration, 0.001))
        var seed = attachment.id.unicodeScalars.reduce(UInt32(2166136261)) { ($0 ^ $1.value) &* 16777619 }
        for bar in 0..<bars {
            seed = seed &* 1664525 &+ 1013904223
            let height = 6 + Double(seed >> 24) / 255 * (box.height - 20)
            canvas.fillRoundedRect(CGRect(x: left + Double(bar) * 5, y: box.midY - height / 2, width: 3, height: height), radius: 1.5,
                                   bar < played ? colors.accent : colors.track)
        }
    }
}
