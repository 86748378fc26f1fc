import Foundation

/// One value of an attachment view's visible state, as events report it (and of an action's
/// arguments, as scripts write them).
public enum StateValue: Codable, Equatable, Sendable, CustomStringConvertible {
    /// A number (a video's position, a slider's value).
    case number(Double)
    /// true or false (playing, focused, on).
    case bool(Bool)
    /// A string (a text field's value).
    case string(String)

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else { throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected a number, true, false or a string") }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .number(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        }
    }

    public var description: String {
        switch self {
        case .number(let value): NumberText.text(value, decimals: 2)
        case .bool(let value): String(value)
        case .string(let value): value
        }
    }
}

/// Something a script (or a test) does to an attachment view: the built-in kinds' actions, or
/// one a view of your own handles by name (`{perform: {attachment, action, arguments}}`).
public enum AttachmentAction: Equatable, Sendable {
    /// Starts a video playing.
    case play
    /// Stops a video where it is.
    case pause
    /// Moves a video to a position, in seconds.
    case seek(Double)
    /// Gives a control focus.
    case focus
    /// Takes a control's focus away.
    case blur
    /// Types text into a focused text field.
    case type(String)
    /// Flips a toggle.
    case toggle
    /// Moves a slider to a value, 0…1.
    case slide(Double)
    /// Adds a stroke to a drawing, in the drawing's own coordinates.
    case stroke([CGPoint])
    /// An action of your own view, by name, with the script's arguments.
    case named(String, arguments: [String: StateValue])

    /// The action's name as scripts write it ("seek", or a named action's own).
    public var name: String {
        switch self {
        case .play: "play"
        case .pause: "pause"
        case .seek: "seek"
        case .focus: "focus"
        case .blur: "blur"
        case .type: "type"
        case .toggle: "toggle"
        case .slide: "slide"
        case .stroke: "stroke"
        case .named(let name, _): name
        }
    }
}

/// The stateful view that draws an attachment (the UIView a provider's `loadView()` makes).
/// Subclasses keep state, draw it, and call `setNeedsDisplay()` when it changes, so the cached
/// surface is redrawn only then.
open class AttachmentView {
    /// The attachment this view draws.
    public let attachment: TextAttachment
    /// A number that changes only when a new view object is made.
    public internal(set) var instance = 0
    /// Layout passes seen since the view was made; content appears once it reaches `loadFrames`.
    public internal(set) var framesSinceCreation = 0
    /// Bumped by `setNeedsDisplay()`.
    public private(set) var stateVersion = 0

    /// A view for `attachment`; subclasses read their settings from its parameters.
    public required init(attachment: TextAttachment) {
        self.attachment = attachment
    }

    /// Frames a new view needs before its content appears; until then a loading placeholder
    /// shows (the flicker users see when views are recreated).
    open var loadFrames: Int { 0 }

    /// Whether its loading frames are over, so the content shows.
    public var isLoaded: Bool { framesSinceCreation >= loadFrames }

    /// A pinned view (focused, playing) is never evicted from the kept views.
    open var isPinned: Bool { false }

    /// Whether the view may look different in a later frame with nothing else changed (it plays,
    /// it is still loading, it follows time in `advance(by:)`): while any live view is, every frame
    /// is laid out and drawn. True unless a subclass knows better, so that a view of your own that
    /// animates is never frozen; the built-in views say when they are still.
    open var isAnimating: Bool { true }

    /// What the view shows, for events and previews.
    open var visibleState: [String: StateValue] { [:] }

    /// Marks the drawn surface stale.
    public func setNeedsDisplay() { stateVersion += 1 }

    /// Draws the loaded content. The default draws the attachment's placeholder.
    open func draw(in canvas: GraphicsContext) {
        canvas.placeholder(for: attachment)
    }

    /// Draws while loading: a dimmed placeholder with a progress hint.
    open func drawLoading(in canvas: GraphicsContext) {
        canvas.fillRoundedRect(canvas.bounds.insetBy(dx: 0.5, dy: 0.5), radius: 5, canvas.theme.attachments.loadingFill)
        canvas.strokeRoundedRect(canvas.bounds.insetBy(dx: 0.5, dy: 0.5), radius: 5, canvas.theme.attachments.loadingBorder)
        let dots = 3
        let center = CGPoint(x: canvas.size.width / 2, y: canvas.size.height / 2)
        for i in 0..<dots {
            let on = i <= framesSinceCreation % dots
            canvas.fillCircle(center: CGPoint(x: center.x + Double(i - 1) * 12, y: center.y), radius: 3.5,
                              canvas.theme.attachments.loadingInk, alpha: on ? 0.9 : 0.25)
        }
        if canvas.size.height >= 48 {
            canvas.text("loading \(attachment.id)…", at: CGPoint(x: 8, y: center.y + 10), size: 11, canvas.theme.attachments.loadingInk,
                        maxWidth: canvas.size.width - 16)
        }
    }

    /// Script time moved on by `seconds` (a playing video advances).
    open func advance(by seconds: Double) {}

    /// Applies a scripted action; the default refuses every action.
    open func perform(_ action: AttachmentAction) throws {
        throw TextReelError("attachment '\(attachment.id)' (\(attachment.scheme)) does not support \(action.name)")
    }

    // MARK: Lifecycle (called by the text view, after the decision is recorded)

    /// The view is in the viewport bounds: just made, made again, restored, or back from being kept.
    open func viewDidEnterViewport() {}
    /// The view left the viewport bounds and is kept (`.onScrollingOutOfViewport`).
    open func viewDidLeaveViewport() {}
    /// The view is being let go: discarded by its policy, or evicted over the kept-view caps.
    open func viewWillBeDiscarded() {}
    /// The view was made for an attachment whose evicted view's state it now holds (after
    /// `restoreState(_:)`).
    open func viewDidRestore() {}

    /// The state to keep when the view is evicted from the kept views; nil keeps nothing.
    open func saveState() -> [String: StateValue]? { nil }

    /// Restores what `saveState()` returned, on a new view made for the same attachment.
    open func restoreState(_ state: [String: StateValue]) {}
}
