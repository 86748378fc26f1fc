import Foundation

/// A font as an attribute names it (TextReel's `UIFont` / `NSFont`): a family (nil: the theme's
/// body families), a size, a weight and a slant, resolved by Pango when the paragraph is shaped.
/// A class, as UIKit's is, so attribute dictionaries typed `[NSAttributedString.Key: AnyObject]`
/// take it; immutable.
public final class Font: Hashable, Sendable, CustomStringConvertible {
    /// The family ("DejaVu Serif"); nil: the theme's body families.
    public let familyName: String?
    /// Size in points, always positive.
    public let pointSize: Double
    /// Family, size and traits, as `UIFont.fontDescriptor`.
    public let fontDescriptor: FontDescriptor

    /// Whether its traits hold `.bold`.
    public var isBold: Bool { fontDescriptor.symbolicTraits.contains(.bold) }
    /// Whether its traits hold `.italic`.
    public var isItalic: Bool { fontDescriptor.symbolicTraits.contains(.italic) }

    /// The font `descriptor` describes, at `size` (nil for a size that is not positive).
    public init?(descriptor: FontDescriptor, size: Double) {
        guard size > 0, size.isFinite else { return nil }
        familyName = descriptor.familyName
        pointSize = size
        fontDescriptor = FontDescriptor(familyName: descriptor.familyName, pointSize: size, symbolicTraits: descriptor.symbolicTraits)
    }

    /// A family by name ("DejaVu Serif"), at `size`.
    public convenience init?(name: String, size: Double) {
        self.init(descriptor: FontDescriptor(familyName: name, pointSize: size), size: size)
    }

    /// The theme's body family at `size`, bold from a semibold weight on.
    public static func systemFont(ofSize size: Double, weight: Weight = .regular) -> Font {
        Font(descriptor: FontDescriptor(familyName: nil, pointSize: size, symbolicTraits: weight.rawValue >= Weight.semibold.rawValue ? .bold : []),
             size: max(size, 1))!
    }

    /// The system font for numbers in columns (UIKit's `monospacedDigitSystemFont`): the theme's
    /// body family, whose figures (Noto Sans') are all one width already.
    public static func monospacedDigitSystemFont(ofSize size: Double, weight: Weight = .regular) -> Font {
        systemFont(ofSize: size, weight: weight)
    }

    /// The theme's body family at `size`, bold.
    public static func boldSystemFont(ofSize size: Double) -> Font { systemFont(ofSize: size, weight: .bold) }

    /// The theme's body family at `size`, italic.
    public static func italicSystemFont(ofSize size: Double) -> Font {
        Font(descriptor: FontDescriptor(familyName: nil, pointSize: size, symbolicTraits: .italic), size: max(size, 1))!
    }

    /// UIKit's text styles at the default content size (body 17 pt).
    public enum TextStyle: String, Sendable, CaseIterable {
        /// 34 pt.
        case largeTitle
        /// 28 pt.
        case title1
        /// 22 pt.
        case title2
        /// 20 pt.
        case title3
        /// 17 pt, bold.
        case headline
        /// 15 pt.
        case subheadline
        /// 17 pt: running text.
        case body
        /// 16 pt.
        case callout
        /// 13 pt.
        case footnote
        /// 12 pt.
        case caption1
        /// 11 pt.
        case caption2

        var size: Double {
            switch self {
            case .largeTitle: 34
            case .title1: 28
            case .title2: 22
            case .title3: 20
            case .headline, .body: 17
            case .callout: 16
            case .subheadline: 15
            case .footnote: 13
            case .caption1: 12
            case .caption2: 11
            }
        }
    }

    /// The font of a text style (`headline` is bold), in the theme's body family.
    public static func preferredFont(forTextStyle style: TextStyle, options: [String: Any] = [:]) -> Font {
        systemFont(ofSize: style.size, weight: style == .headline ? .semibold : .regular)
    }

    /// A weight as UIKit numbers it (`UIFont.Weight`); semibold and heavier draw bold.
    public struct Weight: RawRepresentable, Hashable, Sendable {
        public let rawValue: Double
        public init(rawValue: Double) { self.rawValue = rawValue }
        /// Regular weight, 0.
        public static let regular = Weight(rawValue: 0)
        /// Medium, 0.23 (drawn regular).
        public static let medium = Weight(rawValue: 0.23)
        /// Semibold, 0.3: the lightest weight drawn bold.
        public static let semibold = Weight(rawValue: 0.3)
        /// Bold, 0.4.
        public static let bold = Weight(rawValue: 0.4)
    }

    public static func == (a: Font, b: Font) -> Bool { a.fontDescriptor == b.fontDescriptor }
    public func hash(into hasher: inout Hasher) { hasher.combine(fontDescriptor) }
    public var description: String { "\(familyName ?? "system") \(NumberText.text(pointSize))\(isBold ? " bold" : "")\(isItalic ? " italic" : "")" }
}

/// What a font is, without making it (`UIFontDescriptor` / `NSFontDescriptor`).
public struct FontDescriptor: Hashable, Sendable {
    /// The family; nil: the theme's body families.
    public var familyName: String?
    /// Size in points.
    public var pointSize: Double
    /// Bold and italic.
    public var symbolicTraits: SymbolicTraits

    /// A description of a family at a size with traits.
    public init(familyName: String?, pointSize: Double, symbolicTraits: SymbolicTraits = []) {
        self.familyName = familyName; self.pointSize = pointSize; self.symbolicTraits = symbolicTraits
    }

    /// The slant and weight a font has (`UIFontDescriptor.SymbolicTraits`).
    public struct SymbolicTraits: OptionSet, Hashable, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// Slanted.
        public static let italic = SymbolicTraits(rawValue: 1 << 0)
        /// Bold weight.
        public static let bold = SymbolicTraits(rawValue: 1 << 1)
    }

    /// The same font with `traits` (AppKit's form: it replaces the traits).
    public func withSymbolicTraits(_ traits: SymbolicTraits) -> FontDescriptor {
        FontDescriptor(familyName: familyName, pointSize: pointSize, symbolicTraits: traits)
    }
}
