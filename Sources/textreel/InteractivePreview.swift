import Foundation
import TextReelMarkdown

/// The terminal's saved state, reachable from signal handlers (which cannot capture context).
nonisolated(unsafe) private var savedTermios = termios()
nonisolated(unsafe) private var terminalResized: sig_atomic_t = 0
private let leaveSequence = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"

/// Raw mode and the alternate screen, restored on exit, on SIGINT/SIGTERM and on errors.
enum RawTerminal {
    static func enter() {
        tcgetattr(0, &savedTermios)
        var raw = savedTermios
        cfmakeraw(&raw)
        tcsetattr(0, TCSANOW, &raw)
        write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J")
        let restoreAndExit: @convention(c) (Int32) -> Void = { signal in
            tcsetattr(0, TCSANOW, &savedTermios)
            leaveSequence.withCString { _ = Foundation.write(1, $0, strlen($0)) }
            _exit(128 + signal)
        }
        signal(SIGINT, restoreAndExit)
        signal(SIGTERM, restoreAndExit)
        signal(SIGWINCH) { _ in terminalResized = 1 }
    }

    static func leave() {
        write(leaveSequence)
        tcsetattr(0, TCSANOW, &savedTermios)
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
        signal(SIGWINCH, SIG_DFL)
    }

    static func write(_ text: String) {
        Terminal.write(text, to: STDOUT_FILENO)
    }

    /// Takes and clears the resize flag.
    static func takeResize() -> Bool {
        defer { terminalResized = 0 }
        return terminalResized != 0
    }

    /// The keys typed, or nil after `timeout` milliseconds. Several keys can arrive in one read:
    /// each escape sequence (ESC [ … final byte, or ESC O x) or single byte is one key.
    static func readKeys(timeout: Int32) -> [[UInt8]]? {
        var poller = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, timeout) > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(0, &buffer, buffer.count)
        guard count > 0 else { return [[0x71]] }   // end of input: quit
        var keys: [[UInt8]] = []
        var i = 0
        while i < count {
            if buffer[i] == 0x1B, i + 2 < count + 1, i + 1 < count, buffer[i + 1] == 0x5B || buffer[i + 1] == 0x4F {
                var j = i + 2
                while j < count, buffer[i + 1] == 0x5B, !(0x40...0x7E).contains(buffer[j]) { j += 1 }
                keys.append(Array(buffer[i...min(j, count - 1)]))
                i = j + 1
            } else {
                keys.append([buffer[i]])
                i += 1
            }
        }
        return keys
    }
}

/// `textreel preview --interactive`: the frame and the fragment table side by side.
/// With a watched file (`--watch`), a save is applied as `preview --watch` applies it, and the
/// status line says what it cost until the next key.
struct InteractivePreview {
    let session: PreviewCommand.Session
    /// The file followed, when `--watch` asks, and its watcher (made before it was first read).
    var reload: LiveReload?
    let watcher: FileWatcher?
    /// What the last save cost (shown until a key is pressed).
    private var saved: String?

    init(session: PreviewCommand.Session, reload: LiveReload? = nil, watcher: FileWatcher? = nil) {
        self.session = session
        self.reload = reload
        self.watcher = watcher
    }

    mutating func run() throws -> Int32 {
        guard isatty(0) == 1, isatty(1) == 1 else {
            throw TextReelError("--interactive needs a terminal; use preview without it (or --json) in scripts")
        }
        RawTerminal.enter()
        defer { RawTerminal.leave() }
        var prompt: String?
        try draw(prompt: prompt)
        while true {
            if RawTerminal.takeResize() { try draw(prompt: prompt) }
            if let watcher, watcher.pendingChange() != nil, reload != nil {
                saved = try reload!.apply(to: session.view).status
                // Another frame of the script (n, p) starts from this version, not the first.
                session.document = reload!.shown
                try draw(prompt: prompt)
            }
            guard let keys = RawTerminal.readKeys(timeout: 100) else { continue }
            saved = nil
            for key in keys {
                if try !handle(key, prompt: &prompt) { return 0 }
            }
            try draw(prompt: prompt)
        }
    }

    /// Acts on one key; false to quit.
    private func handle(_ key: [UInt8], prompt: inout String?) throws -> Bool {
        if var typed = prompt {
            switch key {
            case [0x0D], [0x0A]:
                if let index = Int(typed.dropFirst("paragraph: ".count)), index >= 0, index < session.view.textLayoutManager.paragraphCount {
                    session.view.textViewportLayoutController.relocateViewport(to: TextLocation(paragraph: session.view.document.paragraphs[index].id))
                }
                prompt = nil
            case [0x1B], [0x03]: prompt = nil
            case [0x7F]: if typed.count > "paragraph: ".count { typed.removeLast() }; prompt = typed
            default:
                if let c = String(bytes: key, encoding: .utf8), c.allSatisfy(\.isNumber) { prompt = typed + c }
            }
            return true
        }
        let page = session.size.height * 0.9
        switch key {
        case [0x71], [0x03], [0x04]: return false                              // q, Ctrl-C, Ctrl-D
        case [0x6A], [0x1B, 0x5B, 0x42]: session.view.scroll(by: 40)           // j, down
        case [0x6B], [0x1B, 0x5B, 0x41]: session.view.scroll(by: -40)          // k, up
        case [0x20], [0x1B, 0x5B, 0x36, 0x7E]: session.view.scroll(by: page)   // space, PgDn
        case [0x62], [0x1B, 0x5B, 0x35, 0x7E]: session.view.scroll(by: -page)  // b, PgUp
        case [0x1B, 0x5B, 0x48], [0x1B, 0x5B, 0x31, 0x7E], [0x1B, 0x4F, 0x48]: session.view.contentOffset = .zero
        case [0x1B, 0x5B, 0x46], [0x1B, 0x5B, 0x34, 0x7E], [0x1B, 0x4F, 0x46]:
            session.view.contentOffset = CGPoint(x: 0, y: session.view.textLayoutManager.documentHeight)
        case [0x67]: prompt = "paragraph: "                                    // g
        case [0x6E]: try session.go(toFrame: session.frame + 1)                // n
        case [0x70]: try session.go(toFrame: session.frame - 1)                // p
        case [0x6F]:                                                            // o
            session.overlay.toggle()
            session.view.showsOverlay = session.overlay
        default: break
        }
        return true
    }

    /// Redraws everything for the current terminal size (it works down to 80 × 24).
    private func draw(prompt: String?) throws {
        let size = TerminalSize.current
        let imageWidth = max(size.columns * 2 / 5, 20)
        let tableWidth = size.columns - imageWidth - 1
        let height = size.rows - 1
        let frame = try session.view.renderFrame()
        for a in session.view.drainAttachmentEvents() { session.lastEvents[a.id] = a.event.rawValue }
        let image = TerminalImage.render(frame, columns: imageWidth, rows: height, mode: .symbols)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let style = TextStyle(enabled: ProcessInfo.processInfo.environment["NO_COLOR"] == nil)
        let table = PreviewTable.compact(try session.preview, width: tableWidth, style: style)
        var screen = "\u{1B}[H\u{1B}[2J"
        for row in 0..<height {
            screen += "\u{1B}[\(row + 1);1H"
            if row < image.count { screen += image[row] + "\u{1B}[0m" }
            screen += "\u{1B}[\(row + 1);\(imageWidth + 2)H"
            if row < table.count { screen += table[row] }
        }
        let frames = session.frameCount
        let status = prompt.map { "\($0)▏ (Enter to jump, Esc to cancel)" } ?? saved
            ?? "frame \(session.frame)/\(frames) · y \(Int(session.view.contentOffset.y)) · ↑↓ j k PgUp PgDn Home End · g jump · n p frames · o overlay\(session.overlay ? " (on)" : "") · q quit"
        screen += "\u{1B}[\(size.rows);1H\u{1B}[7m" + PreviewTable.pad(status, size.columns) + "\u{1B}[0m"
        RawTerminal.write(screen)
    }
}
