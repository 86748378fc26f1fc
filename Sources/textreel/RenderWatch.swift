import Foundation
import TextReelMarkdown

/// `render --watch`: renders, then follows the document, its images, the script and the theme
/// file, rendering again after each save into the same folder. Only frames whose bytes changed
/// are written (`FrameWriter.keepsUnchangedFiles`), so an editor's image preview beside the
/// source reloads only those; a version that does not read leaves the last frames, with the
/// error; a save that changes no frame writes none. The process keeps its fonts and caches
/// between renders, so a render after a save costs what the frames cost.
struct RenderWatch {
    let args: Arguments

    init(_ args: Arguments) throws {
        self.args = args
        if args.positional.first == "-" { throw Arguments.UsageError(message: "--watch follows a file; standard input cannot change") }
        for option in ["shard", "video", "frames"] where args.values[option] != nil {
            throw Arguments.UsageError(message: "--watch renders every frame again into the folder; it does not go with --\(option)")
        }
        if args.values["format"] == "y4m" { throw Arguments.UsageError(message: "--watch writes PNG frames; it does not go with --format y4m") }
    }

    func run() throws -> Int32 {
        let options = try RenderOptions(args)
        // Watching from before the first render: a save while one renders is the next change.
        let watcher = try FileWatcher(watched())
        do { try RenderCommand.render(args) } catch {
            Terminal.error("textreel: \(error); watching for a version that renders")
        }
        Interruption.install()
        say("watching \(watched().map(\.lastPathComponent).joined(separator: ", ")) (Ctrl-C stops)", options)
        while let changed = watcher.waitForChange(stop: { (try? Interruption.check("")) == nil }) {
            let started = DispatchTime.now().uptimeNanoseconds
            do {
                var quiet = args
                quiet.flags.insert("quiet")
                let run = try RenderCommand.render(quiet, keepingFrames: true)
                let milliseconds = NumberText.text(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6, decimals: 1)
                let written = run.frames - run.unchanged
                let removed = run.removed == 0 ? "" : ", \(run.removed) past the new last frame removed"
                say("\(changed.joined(separator: ", ")) saved: "
                    + (written == 0 ? "no frame changed; none written\(removed) (\(milliseconds) ms)"
                       : "\(written) of \(run.frames) frame\(run.frames == 1 ? "" : "s") written, \(run.unchanged) unchanged\(removed) (\(milliseconds) ms from the save)"),
                    options)
            } catch {
                Terminal.error("textreel: \(error); the folder keeps the last frames that rendered")
            }
            try watcher.watch(watched())
        }
        return 0
    }

    /// The files a render reads: the document, its images, the script and a theme file.
    private func watched() -> [URL] {
        guard let path = args.positional.first else { return [] }
        var files = [URL(fileURLWithPath: path)]
        if let document = try? DocumentInput.read(path, limits: (try? LimitOptions.reading(args)) ?? .standard, plain: args.flags.contains("plain")) {
            files += document.paragraphs.flatMap { $0.attachments.compactMap(\.file) }
        }
        if let script = args.values["script"] { files.append(URL(fileURLWithPath: script)) }
        if let theme = args.values["theme"], FileManager.default.fileExists(atPath: theme) { files.append(URL(fileURLWithPath: theme)) }
        var seen = Set<String>()
        return files.filter { seen.insert($0.standardizedFileURL.path).inserted }
    }

    private func say(_ line: String, _ options: RenderOptions) {
        guard !options.quiet else { return }
        print(line)
        fflush(nil)
    }
}
