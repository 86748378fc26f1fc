import Foundation

/// UIKit's content-size ladder, with TextReel's default `M`: each step scales every text size by
/// the ratio of UIKit's body sizes (14, 15, 16, 17, 19, 21, 23; accessibility 28, 33, 40, 47, 53
/// points) to the medium one.
public enum TextSize: String, Hashable, Sendable, CaseIterable {
    /// `extraSmall`: body 14 pt in UIKit.
    case XS
    /// `small`: 15 pt.
    case S
    /// `medium`: 16 pt, TextReel's default (the theme's sizes as they are).
    case M
    /// `large`: 17 pt, UIKit's default.
    case L
    /// `extraLarge`: 19 pt.
    case XL
    /// `extraExtraLarge`: 21 pt.
    case XXL
    /// `extraExtraExtraLarge`: 23 pt.
    case XXXL
    /// `accessibilityMedium`: 28 pt.
    case A1
    /// `accessibilityLarge`: 33 pt.
    case A2
    /// `accessibilityExtraLarge`: 40 pt.
    case A3
    /// `accessibilityExtraExtraLarge`: 47 pt.
    case A4
    /// `accessibilityExtraExtraExtraLarge`: 53 pt.
    case A5

    /// How much every text size is scaled by: this size's UIKit body size over `M`'s (16).
    public var factor: Double {
        let body: [TextSize: Double] = [.XS: 14, .S: 15, .M: 16, .L: 17, .XL: 19, .XXL: 21, .XXXL: 23,
                                        .A1: 28, .A2: 33, .A3: 40, .A4: 47, .A5: 53]
        return body[self]! / 16
    }

    /// UIKit's names (`extraLarge`, `accessibilityMedium`, `UIContentSizeCategoryExtraLarge` …)
    /// and the short ones.
    public init?(name: String) {
        if let short = TextSize(rawValue: name.uppercased()) { self = short; return }
        let long: [String: TextSize] = [
            "extrasmall": .XS, "small": .S, "medium": .M, "large": .L, "extralarge": .XL, "extraextralarge": .XXL,
            "extraextraextralarge": .XXXL, "accessibilitymedium": .A1, "accessibilitylarge": .A2,
            "accessibilityextralarge": .A3, "accessibilityextraextralarge": .A4, "accessibilityextraextraextralarge": .A5,
            "ax1": .A1, "ax2": .A2, "ax3": .A3, "ax4": .A4, "ax5": .A5]
        var key = name.lowercased()
        for prefix in ["uicontentsizecategory", "."] where key.hasPrefix(prefix) { key.removeFirst(prefix.count) }
        guard let size = long[key] else { return nil }
        self = size
    }

    /// The short names, comma-separated, for messages.
    public static let names = allCases.map(\.rawValue).joined(separator: ", ")
}
