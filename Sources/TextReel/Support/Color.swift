import Foundation

/// A colour in sRGB components 0…1 (TextReel's `UIColor` and `CGColor`). A class, as UIKit's is,
/// so that attribute dictionaries typed `[NSAttributedString.Key: AnyObject]` take it; immutable.
public final class Color: Hashable, Sendable, CustomStringConvertible {
    /// sRGB components, 0…1 (the light variant when `dark` is set).
    public let red, green, blue: Double
    /// The colour in a dark look, for a dynamic colour such as UIKit's system colours (nil: the
    /// same in both); `GraphicsContext` resolves it by the theme it draws in.
    public let dark: Components?

    /// A colour's sRGB components, 0…1, without a dark variant.
    public struct Components: Hashable, Sendable {
        /// sRGB components, 0…1.
        public var red, green, blue: Double
    }

    /// A colour from sRGB components, 0…1, the same in light and dark looks.
    public init(_ red: Double, _ green: Double, _ blue: Double) {
        self.red = red; self.green = green; self.blue = blue; dark = nil
    }

    /// UIKit's `init(red:green:blue:alpha:)`: TextReel's colours are opaque, so a translucent
    /// one is the colour as it shows over white (light looks) and over black (dark ones), as a
    /// dynamic colour.
    public convenience init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        let a = min(max(alpha, 0), 1)
        guard a < 1 else { self.init(red, green, blue); return }
        self.init(light: Color(red * a + (1 - a), green * a + (1 - a), blue * a + (1 - a)), dark: Color(red * a, green * a, blue * a))
    }

    /// The colour at `alpha` (UIKit's `withAlphaComponent(_:)`): opaque, as it shows over white in
    /// light looks and over black in dark ones, as `init(red:green:blue:alpha:)` makes it.
    public func withAlphaComponent(_ alpha: Double) -> Color {
        let a = min(max(alpha, 0), 1)
        guard a < 1 else { return self }
        let dark = dark ?? Components(red: red, green: green, blue: blue)
        return Color(light: Color(red * a + (1 - a), green * a + (1 - a), blue * a + (1 - a)),
                     dark: Color(dark.red * a, dark.green * a, dark.blue * a))
    }

    /// A dynamic colour: `light` in light looks, `dark` in dark ones.
    public init(light: Color, dark: Color) {
        red = light.red; green = light.green; blue = light.blue
        self.dark = Components(red: dark.red, green: dark.green, blue: dark.blue)
    }

    /// From 0xRRGGBB.
    public convenience init(hex: UInt32) {
        self.init(Double((hex >> 16) & 0xFF) / 255, Double((hex >> 8) & 0xFF) / 255, Double(hex & 0xFF) / 255)
    }

    /// The colour itself, where CoreGraphics code asks a `UIColor` for its `CGColor`.
    public var cgColor: Color { self }

    public static func == (a: Color, b: Color) -> Bool {
        a.red == b.red && a.green == b.green && a.blue == b.blue && a.dark == b.dark
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(red); hasher.combine(green); hasher.combine(blue); hasher.combine(dark)
    }

    public var description: String {
        String(format: "#%02X%02X%02X", Int((red * 255).rounded()), Int((green * 255).rounded()), Int((blue * 255).rounded()))
    }
}

extension Color {
    /// From hue, saturation and brightness in 0…1 (hue wraps).
    public convenience init(hue: Double, saturation: Double, brightness: Double) {
        let h = (hue - hue.rounded(.down)) * 6
        let c = brightness * saturation
        let x = c * (1 - abs(h.truncatingRemainder(dividingBy: 2) - 1))
        let m = brightness - c
        let (r, g, b): (Double, Double, Double) = switch Int(h) {
        case 0: (c, x, 0)
        case 1: (x, c, 0)
        case 2: (0, c, x)
        case 3: (0, x, c)
        case 4: (x, 0, c)
        default: (c, 0, x)
        }
        self.init(r + m, g + m, b + m)
    }
}
