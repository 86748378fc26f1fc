import Foundation
import TextReelMarkdown

/// `textreel render`: frames of a document, at one scroll offset or along a scroll script.
enum RenderCommand {
    static let help = """
    Usage: textreel render <document.md> [options]

    Renders the document into PNG frames of a scrolling text view: one frame at --at, or one
    frame per script frame with --script. Writes frame-00001.png …, events.jsonl (one JSON object
    per frame) and summary.json into the output folder.

    Options:
      --out DIR        output folder (default: Output/<document name>/)
      --script FILE    a JSON5 scroll script (viewport, fps, overdraw, steps)
      --frames A-B     draw only frames A to B (1-based); the others are laid out, not drawn,
                       so the pixels are those of a full run
      --width PT       viewport width in points (default: the script's, else 800)
      --height PT      viewport height in points (default: the script's, else 600)
      --scale N        pixels per point (default: the script's, else 1)
      --at Y           scroll offset in points before the first frame (default 0), where the
                       current estimates of the heights above put it: one viewport of work
      --exact          with --at, measure every paragraph above Y first (on every core), so Y
                       is exact; costs time in proportion to Y
      --shard I/N      render the I-th of N consecutive parts of the frames, with the pixels and
                       events of a full render (the frames before the part are drawn, not
                       written); `textreel merge-renders` joins the parts' folders into one
      --overlay        draw fragment frames, rendering-surface bounds, the visible rect and
                       the overdraw band
      --contact-sheet  also write contact-sheet.png: a numbered grid of thumbnails of all frames
      --animation FILE also write the frames as one animation that plays inline (pull requests,
                       bug reports): .png an animated PNG, .webp a lossless animated WebP; a
                       frame equal to the one before lengthens it; no ffmpeg needed
      --chart FILE     also write an SVG chart of the run over its frames: the viewport's y,
                       corrections, paragraphs shaped, views made and discarded, broken checks
                       (frames that break one are marked)
      --video FILE     also encode the frames into FILE (.mp4, .gif or .webm) with ffmpeg
      --format FORMAT  png (default), or y4m: write the frames to stdout as a YUV4MPEG2 stream
                       (no PNGs) for any video tool
      --compression C  fast (default); small: smaller PNGs, written more slowly; none: stored,
                       for tools that read the frames right away
      --serial         encode PNGs on the main thread (the default encodes frame n while frame
                       n + 1 is drawn; the bytes are the same)
      --quiet          print nothing but errors
      --verbose        also print each frame's delegate pass and corrections
      --strict         fail (status 1, naming the frame) when a frame breaks an invariant or
                       a budget; without it they are warnings on stderr and errors in events.jsonl
      --budget LIST    limits every frame must keep, e.g. maxJump=0,maxCorrection=300,
                       maxRecreated=0,flicker=false (see `textreel explore --help`)
      --watch          after the render, follow the document, the script and the theme file:
                       each save renders again, rewriting only the frames that changed (an
                       image viewer beside the source reloads only those); a version that does
                       not read keeps the last frames, with the error; Ctrl-C stops
      -h, --help       show this help

    The viewport may be at most \(ViewportLimits.maximumPixels) pixels a side after scaling.

    \(AppearanceOptions.help)

    \(LimitOptions.help)

    Examples:
      textreel render Fixtures/documents/demo.md --at 400
      textreel render Fixtures/documents/demo.md --theme dark --text-size XXL --direction rtl
      textreel render Fixtures/documents/demo.md --script Fixtures/scripts/demo.json5 --out Output/demo
    """

    /// The file `option` names can be written: not a folder, in a folder that exists and is writable.
    static func checkWritable(_ path: String, option: String) throws {
        let url = URL(fileURLWithPath: path)
        if FileStatus(path: url.path)?.kind == .directory {
            throw Arguments.UsageError(message: "--\(option) \(path) is a folder; expected a file name")
        }
        let folder = url.deletingLastPathComponent().path
        guard FileStatus(path: folder)?.kind == .directory else {
            throw Arguments.UsageError(message: "--\(option) \(path): the folder \(folder) does not exist; create it first (checked before the first frame)")
        }
        // Asked by creating a file there, as the output will be (a temporary name, renamed): the
        // folder's permission bits do not say whether it takes files (/proc, a read-only mount).
        let probe = folder + "/.textreel-probe-\(getpid())"
        let fd = open(probe, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw Arguments.UsageError(message: "--\(option) \(path): the folder \(folder) does not take files (\(String(cString: strerror(errno)))); checked before the first frame")
        }
        close(fd)
        unlink(probe)
    }

    static func run(_ raw: [String]) throws -> Int32 {
        let args = try Arguments(raw, command: .render)
        if args.flags.contains("help") { print(help); return 0 }
        if args.flags.contains("watch") { return try RenderWatch(args).run() }
        try render(args)
        return 0
    }

    /// One render of `args`. `keepingFrames`: the folder is this process's own from an earlier
    /// render of the same command (`--watch`): its frames are written over in place, a file
    /// already holding a frame's bytes left untouched, and frames past the new last one removed.
    /// Returns how many frames were already on disk as they are, and how many were removed.
    @discardableResult
    static func render(_ args: Arguments, keepingFrames: Bool = false) throws -> (frames: Int, unchanged: Int, removed: Int) {
        let options = try RenderOptions(args)
        FontSet.standard.prepare()   // the view's fonts, made while the document is read
        // Every file written after the last frame is checked before the first one is drawn.
        for option in ["chart", "animation", "video"] {
            if let path = args.values[option], path != "-" { try Self.checkWritable(path, option: option) }
        }
        let writer = FrameWriter(parallel: !args.flags.contains("serial"), compression: options.compression)
        writer.keepsUnchangedFiles = keepingFrames
        // Whatever happens, frames in flight are finished (each is written atomically) before exit.
        defer { try? writer.finish() }
        let video = try args.values["video"].map { try VideoEncoder(output: URL(fileURLWithPath: $0), fps: 30) }
        let script = try args.values["script"].map { try ScrollScript(contentsOf: URL(fileURLWithPath: $0)) }
        if !args.flags.contains("quiet") { for warning in script?.warnings ?? [] { Terminal.error(warning) } }
        // The inputs' key hashes the environment's fingerprint: made meanwhile, too.
        let inputsKey = Background { RenderInputs.key(document: options.document, script: script, args: args) }
        let document = try DocumentInput.read(options.document, limits: try LimitOptions.reading(args), plain: args.flags.contains("plain"))
        if !options.quiet { for warning in document.warnings { Terminal.error(warning) } }
        let view = try makeView(document, script: script, args, options)
        let runner = try LimitOptions.runner(view, script ?? ScrollScript.still, args)
        let shard = try args.values["shard"].map { try RenderShard(parsing: $0, frameCount: runner.frameCount, alongWith: args.values["frames"]) }
        // A part draws every frame before its own (their surfaces are what its first frames are
        // composited from, and what their events count) and writes only its own.
        let range = try shard.map { 1...$0.frames.upperBound } ?? args.values["frames"].map { try parseFrames($0, count: runner.frameCount) }
        let written = shard?.frames ?? range
        let inputs = inputsKey.value
        let lock = try OutputFolder.prepare(options.out, removingFramesOf: !keepingFrames && (range == nil || shard != nil), inputs: inputs,
                                            keepingFrames: keepingFrames)
        // Frames still being written are finished before the set-aside files are let go.
        defer { try? writer.finish(); lock.release() }
        if let replaced = lock.replaced {
            replaced.keep(options.toStdout ? 0 : written?.count ?? runner.frameCount)
            writer.reusableFile = { replaced.take() }
        }
        Interruption.install()

        let record = try RenderRecord(folder: options.out, inputs: inputs)
        let fps = script?.fps ?? 30
        var sinks: [FrameSink] = [options.toStdout ? Y4MSink(fps: fps) : PNGFolderSink(folder: options.out, writer: writer)]
        if args.flags.contains("contact-sheet") { sinks.append(ContactSheetSink(url: options.out.appendingPathComponent("contact-sheet.png"))) }
        if let video {
            try video.start(fps: fps)
            sinks.append(video)
        }
        if let file = args.values["animation"] { sinks.append(try AnimationSink.make(URL(fileURLWithPath: file), fps: fps)) }
        var chart = RunChart()
        let progress = Progress(total: range?.count ?? runner.frameCount, enabled: !options.quiet)
        var summary: RunSummary
        var missing: String?
        /// What laying a paragraph out found wrong (a formula not typeset), said once each.
        var laidOutWarnings: Set<String> = []
        do {
            summary = try runner.run(drawing: range, through: shard?.frames.upperBound) { number, frame, event in
                try Interruption.check("after frame \(number - 1)")
                var file: (index: Int, url: URL)?
                let writes = frame != nil && written.map { $0.contains(number) } ?? true
                if let frame, writes {
                    try record.started()
                    for sink in sinks { file = try sink.add(frame, number: number) ?? file }
                }
                if frame != nil { progress.step() }
                if options.verbose {
                    Terminal.error("frame \(number): y \(event.viewport.y), correction \(event.correction), shaped \(event.laidOut.count), pass \(event.pass.joined(separator: " "))")
                }
                for fragment in event.fragments {
                    for warning in fragment.warnings where warning.hasPrefix("math:") || warning.hasPrefix("mermaid diagram:") { laidOutWarnings.insert("paragraph \(fragment.index + 1): \(warning)") }
                }
                try record.add(event, file: file, drawn: writes && !options.toStdout, onDisk: writer.framesOnDisk)
                chart.add(event, broken: options.budget.violations(of: event).count)
                try options.check(event)
            }
            for sink in sinks { try sink.finish() }
            if let file = args.values["chart"] {
                try AtomicFile.write(Data(chart.svg().utf8), to: URL(fileURLWithPath: file))
            }
            progress.finish()
            if !options.quiet { for warning in laidOutWarnings.sorted() { Terminal.error("textreel: warning: \(warning)") } }
            let incidents = HelperProcess.incidents
            if !incidents.isEmpty {
                summary.drawnWithoutHelper = incidents
                if !options.quiet {
                    for incident in incidents.prefix(5) { Terminal.error("textreel: warning: \(incident)") }
                    if incidents.count > 5 { Terminal.error("textreel: warning: \(incidents.count - 5) more blocks drawn without the helper (summary.json's drawnWithoutHelper lists them)") }
                }
            }
            if options.toStdout {
                // The frames went to standard output: none is in the folder, and the summary says so.
                summary.streamed = summary.framesWritten
                summary.framesWritten = 0
            }
            if let shard {
                summary.framesWritten = shard.frames.count
                summary.shard = shard.description
            }
            missing = try record.complete(summary, onDisk: writer.framesOnDisk,
                                          expected: options.toStdout ? nil : shard?.frames ?? 1...runner.frameCount)
        } catch {
            // Frames in flight are finished, then the summary says what the folder holds.
            try? writer.finish()
            progress.finish()
            record.stopped(by: error, onDisk: writer.framesOnDisk, documentHeight: view.textLayoutManager.documentHeight,
                           paragraphs: view.textLayoutManager.paragraphCount)
            throw error
        }
        if !options.quiet {
            let first = written?.lowerBound ?? 1, last = written?.upperBound ?? runner.frameCount
            let frames = first == last ? String(format: "frame-%05d.png", first)
                                       : String(format: "frame-%05d.png … frame-%05d.png", first, last)
            print("wrote \(summary.framesWritten) frame\(summary.framesWritten == 1 ? "" : "s") to \(options.out.relativePath)/: \(frames), events.jsonl, summary.json")
            if let missing { print("the folder still lacks frame\(missing.contains(where: { !$0.isNumber }) ? "s" : "") \(missing) of the script: summary.json says \"partial\"") }
        }
        let removed = keepingFrames ? OutputFolder.removeFrames(of: options.out, after: runner.frameCount) : 0
        return (summary.framesWritten, writer.unchangedFiles, removed)
    }

    /// The text view the options ask for: the viewport (the command line's, else the script's),
    /// the look, the overlay, and the first scroll offset.
    private static func makeView(_ document: TextDocument, script: ScrollScript?, _ args: Arguments, _ options: RenderOptions) throws -> TextView {
        let theme = try AppearanceOptions.theme(args, script: script)
        let viewport = try ViewportLimits.check(
            width: try args.double("width", default: (script?.viewport ?? .standard).width),
            height: try args.double("height", default: (script?.viewport ?? .standard).height),
            scale: try args.double("scale", default: (script?.viewport ?? .standard).scale, in: ScrollScript.Viewport.scales),
            theme: theme, from: script?.viewport == nil ? nil : script?.fileName)
        let view = TextView(document: document, viewportSize: viewport.size, scale: viewport.scale, theme: theme)
        view.showsOverlay = args.flags.contains("overlay")
        let at = options.at
        if at != 0 {
            view.scroll(toY: at, exact: args.flags.contains("exact"))
            if !options.quiet && abs(view.contentOffset.y - at) > 0.5 {
                let shown = at > view.maximumContentOffset ? "its end" : "y \(Int(view.contentOffset.y.rounded()))"
                Terminal.error("textreel: warning: --at \(args.values["at"] ?? "") is outside the document (0 to about \(Int(view.maximumContentOffset)), from the heights known so far); showing \(shown)")
            }
        }
        return view
    }

    static func parseFrames(_ text: String, count: Int) throws -> ClosedRange<Int> {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        let bounds: (Int?, Int?) = parts.count == 1 ? (parts[0], parts[0]) : parts.count == 2 ? (parts[0], parts[1]) : (nil, nil)
        guard let a = bounds.0, let b = bounds.1, a >= 1, a <= b else {
            throw Arguments.UsageError(message: "--frames expects A-B with 1 ≤ A ≤ B, got '\(text)'")
        }
        guard b <= count else {
            throw Arguments.UsageError(message: "--frames \(text) is past the last frame; the script makes \(count) frame\(count == 1 ? "" : "s")")
        }
        return a...b
    }
}

/// The command line's viewport, checked by the library's one viewport check.
extension ViewportLimits {
    /// `file` names the script the viewport came from, for the error.
    static func check(width: Double, height: Double, scale: Double, theme: Theme, from file: String? = nil) throws -> (size: CGSize, scale: Double) {
        let size = CGSize(width: width, height: height)
        do { try check(size, scale: scale, theme: theme) } catch let error as TextReelError where file != nil {
            throw TextReelError(file: file, error.message + " (the script's viewport; --width, --height and --scale override it)")
        }
        return (size, scale)
    }
}

/// What `render`'s options say, checked before anything is read.
struct RenderOptions {
    let document: String
    let out: URL
    /// `--format y4m`: frames go to standard output, and nothing else is printed there.
    let toStdout: Bool
    let compression: PNGCompression
    let quiet: Bool
    let verbose: Bool
    let at: Double
    let budget: Budget
    let strict: Bool

    init(_ args: Arguments) throws {
        guard args.positional.count == 1 else {
            throw Arguments.UsageError(message: args.positional.isEmpty ? "render needs a document" : "render takes one document, got \(args.positional.count)")
        }
        document = args.positional[0]
        let format = args.values["format"] ?? "png"
        guard format == "png" || format == "y4m" else {
            throw Arguments.UsageError(message: "--format expects png or y4m, got '\(format)'")
        }
        toStdout = format == "y4m"
        let compressionName = args.values["compression"] ?? "fast"
        guard let compression = PNGCompression(rawValue: compressionName) else {
            throw Arguments.UsageError(message: "--compression expects fast, small or none, got '\(compressionName)'")
        }
        self.compression = compression
        quiet = args.flags.contains("quiet") || toStdout
        verbose = args.flags.contains("verbose")
        at = try args.double("at", default: 0)
        // --exact measures what lies above --at; alone it would be silently nothing.
        if args.flags.contains("exact"), args.values["at"] == nil {
            throw Arguments.UsageError(message: "--exact measures every paragraph above --at Y; give --at (or, in a script, {scroll: {to: Y, exact: true}})")
        }
        budget = try Budget(parsing: args.values["budget"] ?? "")
        strict = args.flags.contains("strict")
        let name = document == "-" ? "stdin" : URL(fileURLWithPath: document).deletingPathExtension().lastPathComponent
        let outPath = args.values["out"] ?? "Output/\(name)"
        guard !outPath.isEmpty else { throw Arguments.UsageError(message: "--out expects a folder, got an empty path") }
        out = URL(fileURLWithPath: outPath)
    }

    /// A frame over its budget: an error with `--strict`, else a warning.
    func check(_ event: FrameEvent) throws {
        for violation in budget.violations(of: event) {
            if strict { throw TextReelError("\(violation) (--strict)", exitStatus: 1) }
            Terminal.error("textreel: warning: \(violation)")
        }
    }
}
