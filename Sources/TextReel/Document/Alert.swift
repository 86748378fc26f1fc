import Foundation

/// GitHub's alerts: a block quote whose first line is `[!NOTE]`, `[!TIP]`, `[!IMPORTANT]`,
/// `[!WARNING]` or `[!CAUTION]` is drawn with a bar in the alert's colour and a title line with
/// its icon. Debian's cmark-gfm 0.29 does not know them, so the reader finds them in the tree.
public enum Alert: String, CaseIterable, Sendable {
    /// `[!NOTE]`: information users should know, even when skimming.
    case note
    /// `[!TIP]`: advice for doing things better.
    case tip
    /// `[!IMPORTANT]`: what users need to know to succeed.
    case important
    /// `[!WARNING]`: what needs attention at once to avoid problems.
    case warning
    /// `[!CAUTION]`: risks or negative outcomes of an action.
    case caution

    /// The marker's text without brackets and `!`, any case (GitHub accepts `[!note]`).
    package init?(marker: String) {
        let trimmed = marker.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("[!"), trimmed.hasSuffix("]") else { return nil }
        self.init(rawValue: trimmed.dropFirst(2).dropLast().lowercased())
    }

    /// The title GitHub shows.
    public var title: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }

    /// A monochrome sign standing for GitHub's octicon (info, light bulb, report, alert, stop),
    /// from the pinned text fonts, so it takes the alert's colour.
    public var icon: String {
        switch self {
        case .note: "ⓘ"
        case .tip: "✦"
        case .important: "❢"
        case .warning: "⚠\u{FE0E}"
        case .caution: "⊘"
        }
    }

    /// GitHub's colours for the bar, the icon and the title, light and dark.
    public var color: Color {
        switch self {
        case .note: Color(light: Color(hex: 0x0969DA), dark: Color(hex: 0x4493F8))
        case .tip: Color(light: Color(hex: 0x1A7F37), dark: Color(hex: 0x3FB950))
        case .important: Color(light: Color(hex: 0x8250DF), dark: Color(hex: 0xAB7DF8))
        case .warning: Color(light: Color(hex: 0x9A6700), dark: Color(hex: 0xD29922))
        case .caution: Color(light: Color(hex: 0xD1242F), dark: Color(hex: 0xF85149))
        }
    }

    /// The attribute over every paragraph of an alert: `.color` of its quote bar, and the
    /// quote level (1 for the outermost quote) it colours, as "<level>".
    package static let barKey = "TextReelAlertBar"
    package static let levelKey = "TextReelAlertLevel"
    /// The attribute over an alert's title line (its icon and name).
    package static let titleKey = "TextReelAlertTitle"
}
