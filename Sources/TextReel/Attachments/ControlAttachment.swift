import Foundation

/// Form controls: a text field (value, caret when focused, focus ring), a toggle and a slider.
open class ControlAttachmentViewProvider: TextAttachmentViewProvider {
    open override class var providerName: String { "control" }
    open override func loadView() -> AttachmentView { ControlAttachmentView(attachment: textAttachment) }
}

/// A control's view: its kind's value and focus, changed by scripted actions.
open class ControlAttachmentView: AttachmentView {
    /// Still once loaded.
    open override var isAnimating: Bool { !isLoaded }
    /// Which control it is; the raw value is what the URL's `kind=` says.
    public enum Kind: String, Sendable, CaseIterable {
        /// A one-line text field.
        case textfield
        /// An on/off switch.
        case toggle
        /// A slider, 0…1.
        case slider
    }

    /// Which control it is (`kind=`, else a text field).
    public let kind: Kind
    /// A text field's value, as typed.
    public private(set) var text = ""
    /// Whether it has focus (a caret and focus ring; pins the view).
    public private(set) var isFocused = false
    /// Whether a toggle is on.
    public private(set) var isOn = false
    /// A slider's value, 0…1.
    public private(set) var value = 0.5

    /// A view for `attachment`, its kind read from `kind=` (unknown: a text field).
    public required init(attachment: TextAttachment) {
        kind = Kind(rawValue: attachment.parameters["kind"] ?? "textfield") ?? .textfield
        super.init(attachment: attachment)
    }

    open override var isPinned: Bool { isFocused }
    open override var visibleState: [String: StateValue] {
        switch kind {
        case .textfield: ["value": .string(text), "focused": .bool(isFocused)]
        case .toggle: ["on": .bool(isOn), "focused": .bool(isFocused)]
        case .slider: ["value": .number((value * 1000).rounded() / 1000), "focused": .bool(isFocused)]
        }
    }

    open override func perform(_ action: AttachmentAction) throws {
        switch (action, kind) {
        case (.focus, _): isFocused = true
        case (.blur, _): isFocused = false
        case (.type(let typed), .textfield):
            guard isFocused else { throw TextReelError("cannot type into '\(attachment.id)': it is not focused; focus it first") }
            text += typed
        case (.toggle, .toggle): isOn.toggle()
        case (.slide(let to), .slider):
            guard (0...1).contains(to) else { throw TextReelError("cannot slide '\(attachment.id)' to \(to); expected 0 to 1") }
            value = to
        default:
            throw TextReelError("'\(attachment.id)' is a \(kind.rawValue); it does not support \(action.name)")
        }
        setNeedsDisplay()
    }

    open override func saveState() -> [String: StateValue]? { visibleState }

    open override func restoreState(_ state: [String: StateValue]) {
        if case .string(let v)? = state["value"] { text = v }
        if case .number(let v)? = state["value"] { value = v }
        if case .bool(let on)? = state["on"] { isOn = on }
        if case .bool(let focused)? = state["focused"] { isFocused = focused }
        setNeedsDisplay()
    }

    open override func draw(in canvas: GraphicsContext) {
        let box = canvas.bounds.insetBy(dx: 2, dy: 2)
        let colors = canvas.theme.attachments
        let accent = colors.accent
        switch kind {
        case .textfield:
            canvas.fillRoundedRect(box, radius: 4, colors.fieldBackground)
            canvas.strokeRoundedRect(box, radius: 4, isFocused ? accent : colors.fieldBorder, lineWidth: isFocused ? 2 : 1)
            let size = min(box.height * 0.5, 14)
            let shown = text.isEmpty && !isFocused ? attachment.altText.isEmpty ? attachment.id : attachment.altText : text
            let color = text.isEmpty && !isFocused ? colors.fieldPlaceholder : colors.fieldText
            let measured = canvas.text(shown, at: CGPoint(x: box.minX + 8, y: box.midY - size * 0.7), size: size, color,
                                       maxWidth: box.width - 16)
            if isFocused {
                let x = box.minX + 8 + (text.isEmpty ? 0 : min(measured.width, box.width - 16)) + 1
                canvas.fill(CGRect(x: x, y: box.midY - size * 0.65, width: 1.5, height: size * 1.3), accent)
            }
        case .toggle:
            let pill = CGRect(x: box.minX, y: box.midY - min(box.height, 24) / 2, width: min(box.width, 44), height: min(box.height, 24))
            canvas.fillRoundedRect(pill, radius: pill.height / 2, isOn ? colors.toggleOn : colors.toggleOff)
            let knob = pill.height / 2 - 2
            canvas.fillCircle(center: CGPoint(x: isOn ? pill.maxX - knob - 2 : pill.minX + knob + 2, y: pill.midY),
                              radius: knob, colors.knob)
            if isFocused { canvas.strokeRoundedRect(pill.insetBy(dx: -2, dy: -2), radius: pill.height / 2 + 2, accent, lineWidth: 2) }
        case .slider:
            let track = CGRect(x: box.minX + 8, y: box.midY - 2, width: box.width - 16, height: 4)
            canvas.fillRoundedRect(track, radius: 2, colors.track)
            canvas.fillRoundedRect(CGRect(x: track.minX, y: track.minY, width: track.width * value, height: 4), radius: 2, accent)
            canvas.fillCircle(center: CGPoint(x: track.minX + track.width * value, y: track.midY), radius: min(box.height / 2 - 2, 9),
                              isFocused ? accent : colors.knob)
            canvas.strokeCircle(center: CGPoint(x: track.minX + track.width * value, y: track.midY), radius: min(box.height / 2 - 2, 9),
                                colors.fieldBorder)
        }
    }
}

extension AttachmentDescriptor {
    /// `![](control:name?kind=textfield|toggle|slider)`.
    public static let control = AttachmentDescriptor(
        kind: AttachmentKind(
            scheme: "control",
            defaultSize: { parameters in
                switch parameters["kind"] {
                case "toggle": CGSize(width: 52, height: 32)
                case "slider": CGSize(width: 200, height: 32)
                default: CGSize(width: 240, height: 32)
                }
            },
            readKeys: ["kind"],
            check: { parameters in
                let kind = parameters["kind"] ?? "textfield"
                guard ControlAttachmentView.Kind(rawValue: kind) != nil else {
                    throw TextReelError("unknown control kind '\(kind)'; expected one of \(ControlAttachmentView.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                parameters["kind"] = kind
            },
            trusts: { key, value in key != "kind" || ControlAttachmentView.Kind(rawValue: value) != nil }),
        provider: ControlAttachmentViewProvider.self,
        placeholderColors: { ($0.attachments.controlPlaceholder, $0.attachments.controlPlaceholderInk) },
        caption: { $0.parameters["kind"] ?? "control" },
        icon: { context, r, attachment in
            switch attachment.parameters["kind"] {
            case "toggle":
                context.addRoundedRect(r.insetBy(dx: 0, dy: r.height * 0.2), radius: r.height * 0.3)
                context.strokePath()
                context.addArc(center: CGPoint(x: r.maxX - r.height * 0.5, y: r.midY), radius: r.height * 0.2, startAngle: 0, endAngle: 2 * .pi)
                context.fillPath()
            case "slider":
                context.move(to: CGPoint(x: r.minX, y: r.midY))
                context.addLine(to: CGPoint(x: r.maxX, y: r.midY))
                context.strokePath()
                context.addArc(center: CGPoint(x: r.minX + r.width * 0.6, y: r.midY), radius: r.height * 0.22, startAngle: 0, endAngle: 2 * .pi)
                context.fillPath()
            default:
                // A text cursor (I-beam).
                context.move(to: CGPoint(x: r.midX - r.width * 0.15, y: r.minY))
                context.addLine(to: CGPoint(x: r.midX + r.width * 0.15, y: r.minY))
                context.move(to: CGPoint(x: r.midX, y: r.minY))
                context.addLine(to: CGPoint(x: r.midX, y: r.maxY))
                context.move(to: CGPoint(x: r.midX - r.width * 0.15, y: r.maxY))
                context.addLine(to: CGPoint(x: r.midX + r.width * 0.15, y: r.maxY))
                context.strokePath()
            }
        })
}
