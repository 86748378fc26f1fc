import Foundation

/// UIKit's system colours as dynamic `Color`s (iOS's light and dark values), so that code written
/// for UIKit (`.systemIndigo`, `.label`) ports by renaming.
extension Color {
    private static func rgb(_ r: Double, _ g: Double, _ b: Double) -> Color { Color(r / 255, g / 255, b / 255) }
    private static func system(_ light: (Double, Double, Double), _ dark: (Double, Double, Double)) -> Color {
        Color(light: rgb(light.0, light.1, light.2), dark: rgb(dark.0, dark.1, dark.2))
    }

    /// UIKit's `systemRed`, light and dark.
    public static let systemRed = system((255, 59, 48), (255, 69, 58))
    /// UIKit's `systemOrange`, light and dark.
    public static let systemOrange = system((255, 149, 0), (255, 159, 10))
    /// UIKit's `systemYellow`, light and dark.
    public static let systemYellow = system((255, 204, 0), (255, 214, 10))
    /// UIKit's `systemGreen`, light and dark.
    public static let systemGreen = system((52, 199, 89), (48, 209, 88))
    /// UIKit's `systemMint`, light and dark.
    public static let systemMint = system((0, 199, 190), (99, 230, 226))
    /// UIKit's `systemTeal`, light and dark.
    public static let systemTeal = system((48, 176, 199), (64, 200, 224))
    /// UIKit's `systemCyan`, light and dark.
    public static let systemCyan = system((50, 173, 230), (100, 210, 255))
    /// UIKit's `systemBlue`, light and dark.
    public static let systemBlue = system((0, 122, 255), (10, 132, 255))
    /// UIKit's `systemIndigo`, light and dark.
    public static let systemIndigo = system((88, 86, 214), (94, 92, 230))
    /// UIKit's `systemPurple`, light and dark.
    public static let systemPurple = system((175, 82, 222), (191, 90, 242))
    /// UIKit's `systemPink`, light and dark.
    public static let systemPink = system((255, 45, 85), (255, 55, 95))
    /// UIKit's `systemBrown`, light and dark.
    public static let systemBrown = system((162, 132, 94), (172, 142, 104))
    /// UIKit's `systemGray`, the same in both.
    public static let systemGray = system((142, 142, 147), (142, 142, 147))
    /// Text: black in light looks, white in dark ones.
    public static let label = system((0, 0, 0), (255, 255, 255))
    /// UIKit's `secondaryLabel` (the label at 60%), as it shows on the view's background.
    public static let secondaryLabel = system((138, 138, 142), (141, 141, 147))
    /// Background: white in light looks, black in dark ones.
    public static let systemBackground = system((255, 255, 255), (0, 0, 0))
    /// AppKit's `placeholderTextColor` (black or white at 25%), as it shows on the background.
    public static let placeholderTextColor = system((191, 191, 191), (64, 64, 64))
    /// AppKit's `controlAccentColor` with the default accent (blue).
    public static let controlAccentColor = systemBlue
    /// AppKit's `textInsertionPointColor`: the accent colour.
    public static let textInsertionPointColor = controlAccentColor
    /// White in every look.
    public static let white = Color(1, 1, 1)
    /// Black in every look.
    public static let black = Color(0, 0, 0)
}
