import Foundation
import TextReelMarkdown

/// `textreel --version`: the release and what a frame depends on besides the input (the same
/// libraries and fonts a golden's fingerprint records).
enum Version {
    static let release = "0.2.0"

    static var description: String {
        let f = EnvironmentFingerprint.current(helperLibraries: HelperProcess.libraries)
        return """
        textreel \(release)
        Pango \(f.pango), HarfBuzz \(f.harfbuzz), Cairo \(f.cairo), FreeType \(f.freetype), fontconfig \(f.fontconfig)
        \(f.fonts.count) font files; \(f.fontOptions); PNG: \(f.pngEncoder ?? "")
        helper: \(f.helperLibraries ?? "none (code is drawn plain, math as its source)")
        """
    }
}
