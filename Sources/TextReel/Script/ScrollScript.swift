import Foundation

/// A scripted scroll, read from JSON5: viewport, frame rate, overdraw and the steps to run.
public struct ScrollScript: Sendable {
    /// The view's size in points and its pixels per point.
    public struct Viewport: Sendable, Equatable {
        /// Width in points.
        public var width: Double
        /// Height in points.
        public var height: Double
        /// Pixels per point.
        public var scale: Double
        /// The scales a viewport may have, wherever it is given (command line, script, case).
        public static let scales = 0.25...8.0

        /// A viewport of `width` × `height` points at `scale`.
        public init(width: Double, height: Double, scale: Double = 1) {
            self.width = width; self.height = height; self.scale = scale
        }

        /// The viewport when neither the command line nor the script gives one.
        public static let standard = Viewport(width: 800, height: 600, scale: 1)
    }

    /// How an animated scroll's progress eases over its duration (`curve:`).
    public enum Curve: String, Sendable, CaseIterable {
        /// Constant speed.
        case linear
        /// Starts slow, ends fast (cubic).
        case easeIn
        /// Starts fast, ends slow (cubic).
        case easeOut
        /// Slow at both ends (cubic): the default.
        case easeInOut

        /// Eased progress for `t` in 0…1.
        public func callAsFunction(_ t: Double) -> Double {
            switch self {
            case .linear: t
            case .easeIn: t * t * t
            case .easeOut: 1 - pow(1 - t, 3)
            case .easeInOut: t < 0.5 ? 4 * t * t * t : 1 - pow(-2 * t + 2, 3) / 2
            }
        }
    }

    /// Where a scroll target lands in the viewport (`align:`).
    public enum Align: String, Sendable, CaseIterable {
        /// The target's top at the viewport's top: the default.
        case top
        /// The target centred in the viewport.
        case center
        /// The target's bottom at the viewport's bottom.
        case bottom
    }

    /// UIScrollView's deceleration rates, per millisecond.
    public enum Deceleration: String, Sendable, CaseIterable {
        /// `UIScrollView.DecelerationRate.normal`: a long glide.
        case normal
        /// `UIScrollView.DecelerationRate.fast`: stops soon.
        case fast
        var rate: Double { self == .normal ? 0.998 : 0.99 }
    }

    /// A `register` entry: the reuse policies of a provider type.
    public struct Registration: Sendable, Equatable {
        /// The provider type, by `providerName` or scheme ("video").
        public var provider: String
        /// The policies it keeps its views by.
        public var policy: ReusePolicy

        package init(provider: String, policy: ReusePolicy) { self.provider = provider; self.policy = policy }
    }

    /// The script's viewport (nil: not given; the command line or `Viewport.standard` decides).
    public var viewport: Viewport?
    /// Frames per second (default 30).
    public var fps: Double
    /// Overdraw above and below the visible rect, as a fraction of its height (default 0.5).
    public var overdraw: Double
    /// The steps, each of its own kind (`ScriptSteps.kinds`).
    public var steps: [any ScriptStep]
    /// Registrations from the top-level `register` key, applied before the first frame.
    public var registrations: [Registration] = []
    /// Caps on attachment views kept out of view (`keptViews: {count, bytes}`), when given.
    public var keptViewCount: Int?
    /// The cap in bytes, when given.
    public var keptViewBytes: Int?
    /// Seconds of one caret blink (`caretBlink`); nil: a steady caret.
    public var caretBlink: Double?
    /// Where each step is in the source (line, column), for runtime errors.
    public var stepPositions: [(line: Int, column: Int)]
    /// The file the script came from, for errors.
    public var fileName: String
    /// What the file says twice (a repeated key): the last one counts.
    public var warnings: [String] = []
    /// `theme:`, `textSize:`, `direction:` (the command line's flags override them).
    public var appearance = Appearance()
    /// Where `theme:` is written, for errors about the theme it names.
    var themePosition: (line: Int, column: Int) = (1, 1)

    /// `error`, about the theme this script names, at its `theme:` line and column.
    public func themeError(_ error: TextReelError) -> TextReelError {
        TextReelError(file: fileName, line: themePosition.line, column: themePosition.column, "theme: " + (error.file.map { "\($0): " } ?? "") + error.message)
    }

    /// No steps: one frame of the document as it is.
    public static let still = ScrollScript(viewport: nil, fps: 30, overdraw: 0.5, steps: [], stepPositions: [],
                                           fileName: "<none>")

    /// Limits that keep a script from running forever.
    public static let maximumFrames = 100_000
    /// The most steps a script may hold.
    public static let maximumSteps = 100_000
    /// The highest frame rate a script may ask for.
    public static let maximumFPS = 240.0
}

extension ScrollScript {
    /// Reads a script file; every problem is a `TextReelError` with line and column. Providers
    /// named in `register` are looked up in `providers` (the built-in ones unless given).
    public init(contentsOf url: URL, providers: AttachmentProviders = AttachmentProviders()) throws {
        let data = try InputFile.read(url, what: "script", expected: "a JSON5 scroll script", maximumBytes: InputFile.maximumTextBytes)
        try self.init(data: data, fileName: url.path, providers: providers)
    }

    /// Reads a script from JSON5 bytes; every problem is a `TextReelError` in `fileName`, with line and column.
    public init(data: Data, fileName: String = "<script>", providers: AttachmentProviders = AttachmentProviders()) throws {
        guard let text = String(data: data, encoding: .utf8) else {
            throw TextReelError(file: fileName, "invalid UTF-8; expected a JSON5 text file")
        }
        let document = try JSON5Document(text: text, fileName: fileName)
        do {
            let decoded = try document.decode(ScriptFile.self, userInfo: [.attachmentProviders: providers])
            viewport = decoded.viewport
            fps = decoded.fps
            overdraw = decoded.overdraw
            steps = decoded.steps.map(\.step)
            registrations = decoded.register
            keptViewCount = decoded.keptViews?.count
            keptViewBytes = decoded.keptViews?.bytes
            caretBlink = decoded.caretBlink
            appearance = decoded.appearance
            let at = document.position(of: [AnyKey("theme")])
            themePosition = (at.line, at.column)
            stepPositions = document.itemPositions(["steps"]).map { ($0.line, $0.column) }
            warnings = document.warnings
            self.fileName = fileName
        }
    }

    /// The error for a step that cannot run (a paragraph that does not exist at that frame, …).
    func error(step: Int, _ message: String) -> TextReelError {
        let position = stepPositions.indices.contains(step) ? stepPositions[step] : (1, 1)
        return TextReelError(file: fileName, line: position.0, column: position.1, message)
    }
}
