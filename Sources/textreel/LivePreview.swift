import Foundation
import TextReelMarkdown

/// `preview --watch`: the preview follows the file. Each save is read as edits of the blocks
/// that changed (the paragraphs between the unchanged ones at the start and at the end), applied
/// to the open view: only they are shaped, and the paragraph at the top stays where it was. A
/// status line says what a change cost; a version that does not read keeps the last good one on
/// screen with the error; a save that changes nothing draws nothing.
struct LivePreview {
    let session: PreviewCommand.Session
    let url: URL
    let limits: ReadingLimits
    /// One JSON object a line (the preview of each version), statuses on stderr.
    let json: Bool
    /// Read as plain text (`--plain`).
    let plain: Bool
    let image: TerminalImage.Mode?

    /// Follows the file with `watcher`, made before the first version was read.
    func run(_ watcher: FileWatcher) throws -> Int32 {
        Interruption.install()
        var reload = LiveReload(url: url, limits: limits, plain: plain, shown: session.view.document)
        try show(status: "watching \(url.lastPathComponent) (Ctrl-C stops)")
        while watcher.waitForChange(stop: { (try? Interruption.check("")) == nil }) != nil {
            let change = try reload.apply(to: session.view)
            if change.drew { try show(status: change.status) } else { status(change.status) }
        }
        return 0
    }

    private func status(_ line: String) {
        if json { Terminal.error(line) } else { print(line); fflush(nil) }
    }

    /// The current version, and a status line under it.
    private func show(status line: String) throws {
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            print(String(decoding: try encoder.encode(session.preview), as: UTF8.self))
            fflush(nil)
            Terminal.error(line)
            return
        }
        let terminal = TerminalSize.current
        let style = TextStyle(enabled: Terminal.stdoutIsTerminal && ProcessInfo.processInfo.environment["NO_COLOR"] == nil)
        if Terminal.stdoutIsTerminal { print("\u{1B}[H\u{1B}[2J", terminator: "") }
        if let image {
            print(TerminalImage.render(try session.view.renderFrame(), columns: terminal.columns, rows: max(terminal.rows - 3, 10), mode: image))
        }
        print(PreviewTable.lines(try session.preview, name: session.name, width: terminal.columns, style: style).joined(separator: "\n"))
        status(line)
    }
}

/// A save of the watched file applied to an open view: the version read, compared with the one
/// on screen by the paragraphs they share at each end (`TextDocument.sharedEnds`), and the
/// paragraphs between replaced as one edit. Shared by `preview --watch` and the interactive
/// preview's reload.
struct LiveReload {
    let url: URL
    let limits: ReadingLimits
    /// Read as plain text (`--plain`).
    var plain = false
    /// The version on screen as it was read (the view's document is that one, edited).
    var shown: TextDocument

    /// Reads the file and applies it to `view`: a status line, and whether a frame changed.
    mutating func apply(to view: TextView) throws -> (status: String, drew: Bool) {
        let name = url.lastPathComponent
        let started = DispatchTime.now().uptimeNanoseconds
        let next: TextDocument
        do { next = try DocumentInput.read(url.path, limits: limits, plain: plain) } catch {
            return ("\(name): \(error); showing the last version that read", false)
        }
        let (prefix, suffix) = next.sharedEnds(with: shown)
        let old = shown.paragraphs, new = next.paragraphs
        if prefix == old.count && prefix == new.count { return ("\(name): saved without a change; nothing drawn", false) }
        // A view at the top stays at the top; elsewhere the paragraph at the top stays put.
        let atTop = view.contentOffset.y <= 0
        do {
            try view.replaceParagraphs(in: prefix..<old.count - suffix, with: Array(new[prefix..<new.count - suffix]))
        } catch {
            return ("\(name): \(error); showing the last version that read", false)
        }
        shown = next
        if atTop { view.scroll(toY: 0, exact: true) }
        let pass = try view.layoutPass()
        let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
        let correction = pass.correction == 0 ? "" : ", a correction of \(NumberText.text(pass.correction, decimals: 1)) pt kept the view still"
        return ("\(name): \(old.count - suffix - prefix) paragraphs replaced by \(new.count - suffix - prefix), "
                + "\(pass.shaped.count) shaped\(correction), \(NumberText.text(milliseconds, decimals: 1)) ms from the save to the frame", true)
    }
}
