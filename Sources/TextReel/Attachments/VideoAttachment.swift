import Foundation

/// Videos: a poster frame that changes with the playback position, a progress bar and a time
/// code. While playing, the position advances with the script's time; at `duration` the video
/// stops, or starts over when its URL says `loop=true`.
open class VideoAttachmentViewProvider: TextAttachmentViewProvider {
    /// The longest video a document may name, in seconds.
    public static let maximumDuration = 86_400.0
    /// A video's length in seconds: its URL's `duration`, else 10.
    public static func duration(of attachment: TextAttachment) -> Double {
        attachment.parameters["duration"].flatMap(Double.init) ?? 10
    }
    open override class var providerName: String { "video" }
    open override func loadView() -> AttachmentView { VideoAttachmentView(attachment: textAttachment) }
}

/// A video's view: playback position and state, advanced by script time.
open class VideoAttachmentView: AttachmentView {
    /// Still once loaded and paused.
    open override var isAnimating: Bool { isPlaying || !isLoaded }
    /// Playback position, in seconds.
    public private(set) var position = 0.0
    /// Whether it is playing (pins the view).
    public private(set) var isPlaying = false
    /// Length, in seconds (`duration=`, else 10).
    public let duration: Double
    /// Whether it starts over at the end (`loop=true`) instead of stopping.
    public let loops: Bool

    /// A view for `attachment`, its duration and looping read from the URL.
    public required init(attachment: TextAttachment) {
        duration = VideoAttachmentViewProvider.duration(of: attachment)
        loops = attachment.parameters["loop"] == "true"
        super.init(attachment: attachment)
    }

    open override var loadFrames: Int { 2 }
    open override var isPinned: Bool { isPlaying }
    open override var visibleState: [String: StateValue] {
        ["position": .number((position * 100).rounded() / 100), "playing": .bool(isPlaying), "duration": .number(duration)]
    }

    open override func perform(_ action: AttachmentAction) throws {
        switch action {
        case .play: isPlaying = true
        case .pause: isPlaying = false
        case .seek(let time):
            guard time >= 0, time <= duration else {
                throw TextReelError("cannot seek '\(attachment.id)' to \(time) s; expected 0 to \(duration)")
            }
            position = time
        case .named("rewind", let arguments):
            // Back `seconds` (10 unless given), not before the start.
            guard case .number(let seconds) = arguments["seconds"] ?? .number(10), seconds >= 0 else {
                throw TextReelError("rewind '\(attachment.id)' by a number of seconds, 0 or more")
            }
            position = max(position - seconds, 0)
        default: try super.perform(action)
        }
        setNeedsDisplay()
    }

    open override func advance(by seconds: Double) {
        guard isPlaying, seconds > 0 else { return }
        position += seconds
        if position >= duration {
            if loops { position = position.truncatingRemainder(dividingBy: duration) } else { position = duration; isPlaying = false }
        }
        setNeedsDisplay()
    }

    open override func saveState() -> [String: StateValue]? { visibleState }

    open override func restoreState(_ state: [String: StateValue]) {
        if case .number(let p)? = state["position"] { position = p }
        if case .bool(let playing)? = state["playing"] { isPlaying = playing }
        setNeedsDisplay()
    }

    open override func draw(in canvas: GraphicsContext) {
        let box = canvas.bounds
        var random = SplitMix(seed: StableHash.of(attachment.id))
        let hue = Double(random.next() % 1000) / 1000
        canvas.clipped(to: box) {
            canvas.gradient(box, from: Color(hue: hue, saturation: 0.55, brightness: 0.55),
                            to: Color(hue: hue + 0.1, saturation: 0.45, brightness: 0.2))
            // The scene moves with the position, so every frame of playback looks different.
            let progress = duration > 0 ? position / duration : 0
            canvas.fillCircle(center: CGPoint(x: box.width * (0.15 + 0.7 * progress), y: box.height * 0.32),
                              radius: box.height * 0.12, Color(hex: 0xFFE9A8), alpha: 0.9)
            canvas.fillPolygon([CGPoint(x: 0, y: box.height * 0.75), CGPoint(x: box.width * 0.35, y: box.height * 0.45),
                                CGPoint(x: box.width * 0.7, y: box.height * 0.7), CGPoint(x: box.width, y: box.height * 0.5),
                                CGPoint(x: box.width, y: box.height), CGPoint(x: 0, y: box.height)], Color(hex: 0x1E3A2B), alpha: 0.8)
        }
        let bar = min(28, box.height * 0.3)
        let strip = CGRect(x: 0, y: box.height - bar, width: box.width, height: bar)
        canvas.fill(strip, Color(hex: 0x000000), alpha: 0.55)
        let icon = CGRect(x: 8, y: strip.midY - bar * 0.25, width: bar * 0.5, height: bar * 0.5)
        if isPlaying {
            canvas.fill(CGRect(x: icon.minX, y: icon.minY, width: icon.width * 0.35, height: icon.height), Color(hex: 0xFFFFFF))
            canvas.fill(CGRect(x: icon.minX + icon.width * 0.65, y: icon.minY, width: icon.width * 0.35, height: icon.height), Color(hex: 0xFFFFFF))
        } else {
            canvas.fillPolygon([CGPoint(x: icon.minX, y: icon.minY), CGPoint(x: icon.maxX, y: icon.midY),
                                CGPoint(x: icon.minX, y: icon.maxY)], Color(hex: 0xFFFFFF))
        }
        let time = "\(Self.timeCode(position)) / \(Self.timeCode(duration))"
        let fontSize = max(min(bar * 0.42, 12), 7)
        let timeSize = canvas.measure(time, size: fontSize)
        canvas.text(time, at: CGPoint(x: box.width - timeSize.width - 8, y: strip.midY - timeSize.height / 2), size: fontSize,
                    Color(hex: 0xFFFFFF))
        let track = CGRect(x: icon.maxX + 10, y: strip.midY - 2, width: max(box.width - timeSize.width - icon.maxX - 28, 4), height: 4)
        canvas.fillRoundedRect(track, radius: 2, Color(hex: 0xFFFFFF), alpha: 0.3)
        canvas.fillRoundedRect(CGRect(x: track.minX, y: track.minY, width: track.width * min(position / max(duration, 0.001), 1), height: 4),
                               radius: 2, Color(hex: 0xFF5A5F))
        if box.height >= 80 {
            canvas.text("video · \(attachment.id)", at: CGPoint(x: 8, y: 6), size: 11, Color(hex: 0xFFFFFF), maxWidth: box.width - 16)
        }
    }

    /// "m:ss", or "h:mm:ss" from an hour on (durations are at most `maximumDuration`).
    static func timeCode(_ seconds: Double) -> String {
        let whole = Int(min(max(seconds, 0), VideoAttachmentViewProvider.maximumDuration).rounded(.down))
        return whole >= 3600 ? String(format: "%d:%02d:%02d", whole / 3600, whole / 60 % 60, whole % 60)
                             : String(format: "%d:%02d", whole / 60, whole % 60)
    }
}

extension AttachmentDescriptor {
    /// `![](video:intro?size=320x180&duration=12&loop=true)`.
    public static let video = AttachmentDescriptor(
        kind: AttachmentKind(
            scheme: "video", defaultSize: { _ in CGSize(width: 320, height: 180) }, readKeys: ["duration", "loop"],
            check: { parameters in
                guard let duration = parameters["duration"] else { return }
                guard let value = Double(duration), value > 0, value.isFinite else {
                    throw TextReelError("malformed duration '\(duration)'; expected a positive number of seconds")
                }
                // The time code and the playback position are whole seconds in an Int: bound them here.
                guard value <= VideoAttachmentViewProvider.maximumDuration else {
                    throw TextReelError("duration '\(duration)' is too long; expected at most \(Int(VideoAttachmentViewProvider.maximumDuration)) seconds (24 hours)")
                }
            },
            trusts: { key, value in
                key != "duration" || NumberText.isWholeNumber(value, in: 1...Int(VideoAttachmentViewProvider.maximumDuration))
            }),
        provider: VideoAttachmentViewProvider.self,
        placeholderColors: { ($0.attachments.videoPlaceholder, $0.attachments.videoPlaceholderInk) },
        icon: { context, r, _ in
            // A play button: a ring with a triangle.
            context.addArc(center: CGPoint(x: r.midX, y: r.midY), radius: r.width / 2, startAngle: 0, endAngle: 2 * .pi)
            context.strokePath()
            context.move(to: CGPoint(x: r.minX + r.width * 0.4, y: r.minY + r.height * 0.3))
            context.addLine(to: CGPoint(x: r.minX + r.width * 0.72, y: r.midY))
            context.addLine(to: CGPoint(x: r.minX + r.width * 0.4, y: r.minY + r.height * 0.7))
            context.closePath()
            context.fillPath()
        })
}
