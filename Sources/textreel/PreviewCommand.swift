import Foundation
import TextReelMarkdown

/// `textreel preview`: where every fragment sits at one moment, in the terminal.
enum PreviewCommand {
    static let help = """
    Usage: textreel preview <document.md> [options]

    Shows, for one moment, the document's height (measured versus estimated), the visible rect,
    the overdraw band, and a table of the fragments in the viewport bounds (paragraph, kind, y range,
    lines, layout state, visible or overdraw only, first words, attachments with their state and
    last event), with a minimap of the whole document.

    Options:
      --script FILE     a scroll script; --frame picks the moment in it
      --frame N         the script's frame N (default 1)
      --at Y            start at scroll offset Y in points; with --script, the script starts there,
                        as in render --at
      --width PT        viewport width (default: the script's, else 800)
      --height PT       viewport height (default: the script's, else 600)
      --json            print the same as one JSON object
      --image[=MODE]    draw the frame too: symbols (default), sixels or kitty; auto-detected
                        when the terminal supports graphics
      --interactive     a full-screen view: arrows, j/k, PgUp/PgDn, Home/End scroll; g jumps to a
                        paragraph; n/p step through the script's frames; o toggles the overlay; q quits
      --watch           follow the file: each save is applied as edits of the blocks that changed
                        (the view stays still), with a status line of what it cost; with --json,
                        one JSON object a line per version; with --interactive, the full-screen view
                        follows it too
      -h, --help        show this help

    \(AppearanceOptions.help)

    \(LimitOptions.help)

    Colours when stdout is a terminal, unless NO_COLOR is set.

    Examples:
      textreel preview Fixtures/documents/demo.md --at 600
      textreel preview Fixtures/documents/demo.md --script Fixtures/scripts/demo.json5 --frame 100 --image
    """

    /// A document, a script and the view at one moment.
    final class Session {
        /// The version shown: a watched file's latest that read (a frame of the script starts from it).
        var document: TextDocument
        let script: ScrollScript
        let size: CGSize
        var view: TextView
        var frame = 1
        var lastEvents: [String: String] = [:]
        var overlay = false
        /// Where the script starts, as `render --at` does: the view is scrolled here before frame 1.
        var startY: Double = 0
        let name: String

        let limits: (frames: Int, steps: Int)
        let frameCount: Int
        let theme: Theme

        init(document: TextDocument, script: ScrollScript, size: CGSize, name: String, limits: (frames: Int, steps: Int),
             theme: Theme) throws {
            self.theme = theme
            self.document = document
            self.script = script
            self.size = size
            self.name = name
            self.limits = limits
            view = TextView(document: document, viewportSize: size, theme: theme)
            frameCount = try ScriptRunner(view: view, script: script, maximumFrames: limits.frames, maximumSteps: limits.steps).frameCount
        }

        /// Replays the script up to frame `number` (laying out, not drawing).
        func go(toFrame number: Int) throws {
            view = TextView(document: document, viewportSize: size, theme: theme)
            view.showsOverlay = overlay
            if startY != 0 { view.scroll(toY: startY, exact: false) }
            let runner = try ScriptRunner(view: view, script: script, maximumFrames: limits.frames, maximumSteps: limits.steps)
            frame = min(max(number, 1), runner.frameCount)
            lastEvents = [:]
            try runner.run(drawing: 0...0, through: frame) { _, _, event in
                for a in event.attachments { lastEvents[a.id] = a.event.rawValue }
            }
        }

        /// The preview of the last pass (every way into a session runs one).
        var preview: LayoutPreview {
            get throws {
                let pass = try view.lastPass ?? view.layoutPass()
                return LayoutPreview(pass, frame: frame, time: Double(frame - 1) / script.fps, lastEvents: lastEvents)
            }
        }
    }

    static func run(_ raw: [String]) throws -> Int32 {
        // `--image` may stand alone or take a mode: normalize it before parsing.
        var raw = raw
        var imageMode: TerminalImage.Mode?
        var wantsImage = false
        raw.removeAll { arg in
            guard arg == "--image" || arg.hasPrefix("--image=") else { return false }
            wantsImage = true
            if let eq = arg.firstIndex(of: "=") { imageMode = TerminalImage.Mode(rawValue: String(arg[arg.index(after: eq)...])) }
            return true
        }
        if wantsImage, raw.contains(where: { $0.hasPrefix("--image=") }) == false, imageMode == nil,
           let bad = CommandLine.arguments.first(where: { $0.hasPrefix("--image=") }) {
            throw Arguments.UsageError(message: "\(bad) is not a mode; expected symbols, sixels or kitty")
        }
        let args = try Arguments(raw, command: .preview)
        if args.flags.contains("help") { print(help); return 0 }
        guard args.positional.count == 1 else {
            throw Arguments.UsageError(message: args.positional.isEmpty ? "preview needs a document" : "preview takes one document")
        }
        if args.positional[0] == "-" && args.flags.contains("interactive") {
            throw Arguments.UsageError(message: "--interactive reads keys from standard input, so the document cannot come from it; give a file")
        }
        let documentURL = URL(fileURLWithPath: args.positional[0])
        if args.flags.contains("watch"), args.positional[0] == "-" {
            throw Arguments.UsageError(message: "--watch follows a file; standard input cannot change")
        }
        // Watching from before the first read: a save while it reads is the first change.
        let watcher = args.flags.contains("watch") ? try FileWatcher(documentURL) : nil
        let document = try DocumentInput.read(args.positional[0], limits: try LimitOptions.reading(args), plain: args.flags.contains("plain"))
        let script = try args.values["script"].map { try ScrollScript(contentsOf: URL(fileURLWithPath: $0)) } ?? .still
        for warning in document.warnings + script.warnings { Terminal.error(warning) }
        let standard = script.viewport ?? .standard
        let theme = try AppearanceOptions.theme(args, script: args.values["script"] == nil ? nil : script)
        let viewport = try ViewportLimits.check(width: try args.double("width", default: standard.width),
                                                height: try args.double("height", default: standard.height),
                                                scale: 1, theme: theme)
        let session = try Session(document: document, script: script, size: viewport.size, name: documentURL.lastPathComponent,
                                  limits: (try LimitOptions.maximumFrames(args), try LimitOptions.maximumSteps(args)), theme: theme)
        let frameText = args.values["frame"] ?? "1"
        guard let frameNumber = Int(frameText), frameNumber >= 1 else {
            throw Arguments.UsageError(message: "--frame expects a whole number of at least 1, got '\(frameText)'")
        }
        if frameNumber > session.frameCount {
            throw Arguments.UsageError(message: args.values["script"] == nil
                ? "--frame \(frameNumber) needs a script; without --script there is only frame 1"
                : "--frame \(frameNumber) is past the last frame; the script makes \(session.frameCount)")
        }
        session.startY = try args.double("at", default: 0)
        try session.go(toFrame: frameNumber)
        if args.flags.contains("interactive") {
            let reload = args.flags.contains("watch")
                ? LiveReload(url: documentURL, limits: try LimitOptions.reading(args), plain: args.flags.contains("plain"), shown: session.view.document) : nil
            var interactive = InteractivePreview(session: session, reload: reload, watcher: watcher)
            return try interactive.run()
        }
        if args.flags.contains("watch") {
            return try LivePreview(session: session, url: documentURL, limits: try LimitOptions.reading(args), json: args.flags.contains("json"), plain: args.flags.contains("plain"),
                                   image: wantsImage ? imageMode ?? TerminalImage.detectMode() : nil).run(watcher!)
        }
        if args.flags.contains("json") {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(session.preview), as: UTF8.self))
            return 0
        }
        let terminal = TerminalSize.current
        let style = TextStyle(enabled: Terminal.stdoutIsTerminal && ProcessInfo.processInfo.environment["NO_COLOR"] == nil)
        if wantsImage {
            if let mode = imageMode, let warning = TerminalImage.warning(asking: mode) { Terminal.error(warning) }
            let frame = try session.view.renderFrame()
            print(TerminalImage.render(frame, columns: terminal.columns, rows: max(terminal.rows - 2, 10),
                                       mode: imageMode ?? TerminalImage.detectMode()))
        }
        print(PreviewTable.lines(try session.preview, name: session.name, width: terminal.columns, style: style).joined(separator: "\n"))
        return 0
    }
}
