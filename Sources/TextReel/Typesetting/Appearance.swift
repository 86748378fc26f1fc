import Foundation

/// The look a view is rendered in, as the command line (`--theme`, `--text-size`,
/// `--direction`), scripts and golden cases name it: a theme (built-in name or file), a text
/// size and a layout direction. Resolved into the `Theme` a text view is made with.
public struct Appearance: Hashable, Sendable {
    /// A built-in theme's name ("dark") or a theme file's path (nil: light).
    public var theme: String?
    /// The text size (nil: `M`).
    public var textSize: TextSize?
    /// The layout direction (nil: left to right).
    public var direction: Theme.LayoutDirection?

    /// Settings; nil leaves one to whatever comes next (`over(_:)`) or the default.
    public init(theme: String? = nil, textSize: TextSize? = nil, direction: Theme.LayoutDirection? = nil) {
        self.theme = theme; self.textSize = textSize; self.direction = direction
    }

    /// These settings, with `other`'s filling what these leave out.
    public func over(_ other: Appearance) -> Appearance {
        Appearance(theme: theme ?? other.theme, textSize: textSize ?? other.textSize, direction: direction ?? other.direction)
    }

    /// The theme: a theme file's path is relative to `folder` (the script's or case's).
    public func resolve(relativeTo folder: URL? = nil) throws -> Theme {
        var base = Theme.light
        if let theme {
            if Theme.builtIn[theme] == nil, let folder, !theme.hasPrefix("/") {
                base = try Theme(named: folder.appendingPathComponent(theme).path)
            } else {
                base = try Theme(named: theme)
            }
        }
        return base.at(textSize ?? .M).with(direction ?? .leftToRight)
    }

    /// "dark · XXXL · rtl": the settings given, for names and messages.
    public var label: String {
        [theme.map { URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent }, textSize?.rawValue, direction?.rawValue]
            .compactMap { $0 }.joined(separator: " · ")
    }

    /// Parses the command line's values; nil where a flag was not given.
    public static func parse(theme: String?, textSize: String?, direction: String?) throws -> Appearance {
        var appearance = Appearance(theme: theme)
        if let textSize { appearance.textSize = try size(named: textSize) }
        if let direction { appearance.direction = try self.direction(named: direction) }
        return appearance
    }

    static func size(named name: String) throws -> TextSize {
        guard let size = TextSize(name: name) else {
            throw TextReelError("unknown text size '\(name)'; expected one of \(TextSize.names) (or UIKit's names, like extraLarge)")
        }
        return size
    }

    static func direction(named name: String) throws -> Theme.LayoutDirection {
        guard let direction = Theme.LayoutDirection(rawValue: name.lowercased()) else {
            throw TextReelError("unknown direction '\(name)'; expected ltr or rtl")
        }
        return direction
    }

    /// `theme:`, `textSize:` and `direction:` of a script, a golden case or a variant, with the
    /// same messages as the command line's flags, at the key's line and column.
    public static func decode(_ c: StrictContainer) throws -> Appearance {
        func at<T>(_ key: String, _ parse: (String) throws -> T) throws -> T? {
            guard let text = try c.optional(String.self, key) else { return nil }
            do { return try parse(text) } catch let error as TextReelError { throw c.impossible(key, error.message) }
        }
        var appearance = Appearance(theme: try c.optional(String.self, "theme"))
        if let size = try at("textSize", size(named:)) { appearance.textSize = size }
        if let direction = try at("direction", direction(named:)) { appearance.direction = direction }
        return appearance
    }
}
