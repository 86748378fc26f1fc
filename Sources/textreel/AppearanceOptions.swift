import Foundation
import TextReelMarkdown

/// `--theme`, `--text-size` and `--direction`, on every command that renders; they override a
/// script's `theme:`, `textSize:` and `direction:`.
enum AppearanceOptions {
    static let names = ["theme", "text-size", "direction"]

    static let help = """
    Look:
      --theme NAME|FILE     light (default), dark, editor (plain text as a code editor sets it), or a
                            JSON5 theme file
      --text-size SIZE      XS, S, M (default), L, XL, XXL, XXXL, A1 … A5 (UIKit's names too)
      --direction ltr|rtl   rtl mirrors the view: insets, indents, list markers, quote bars
    """

    /// The theme from the flags, over the script's settings (whose theme file is relative to it).
    /// A theme that names font families the font set lacks is warned about (unless `--quiet`).
    static func theme(_ args: Arguments, script: ScrollScript?) throws -> Theme {
        let flags = try Appearance.parse(theme: args.values["theme"], textSize: args.values["text-size"], direction: args.values["direction"])
        let appearance = flags.over(script?.appearance ?? Appearance())
        let theme: Theme
        if flags.theme != nil {
            theme = try appearance.resolve()
        } else {
            let folder = script.map { URL(fileURLWithPath: $0.fileName).deletingLastPathComponent() }
            do { theme = try appearance.resolve(relativeTo: folder) } catch let error as TextReelError {
                // The theme came from the script: say where it names it.
                guard let script, script.appearance.theme != nil, error.line == nil else { throw error }
                throw script.themeError(error)
            }
        }
        if let name = appearance.theme, Theme.builtIn[name] == nil, !args.flags.contains("quiet") {
            for warning in theme.fontWarnings() { Terminal.error("\(name): warning: \(warning)") }
        }
        return theme
    }
}
