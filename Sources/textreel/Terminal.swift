import Foundation
import TextReelMarkdown

enum Terminal {
    static func error(_ line: String) { write(line + "\n", to: STDERR_FILENO) }

    /// Writes `text` whole to a standard stream. A stream that cannot be written (a closed pipe,
    /// a full disk, a closed descriptor) loses the text: Foundation's `FileHandle.write(_:)`
    /// traps there instead, and a message must never crash the run it reports on.
    static func write(_ text: String, to fd: Int32) { write(Data(text.utf8), to: fd) }

    static func write(_ data: Data, to fd: Int32) { _ = AtomicFile.writeAll(data, to: fd) }

    static var stderrIsTerminal: Bool { isatty(2) == 1 }
    static var stdoutIsTerminal: Bool { isatty(1) == 1 }
}

/// A progress bar on stderr (frames done, frames per second, time left), only on a terminal.
/// Wall-clock time is read for the display only; it never reaches a frame.
final class Progress {
    private let total: Int
    private let enabled: Bool
    private var done = 0
    private let start = Date()
    private var lastDraw = Date.distantPast

    private let unit: String

    init(total: Int, enabled: Bool, unit: String = "frames") {
        self.total = total
        self.unit = unit
        self.enabled = enabled && Terminal.stderrIsTerminal && total > 1
    }

    func step() {
        done += 1
        guard enabled, Date().timeIntervalSince(lastDraw) > 0.1 || done == total else { return }
        lastDraw = Date()
        let elapsed = Date().timeIntervalSince(start)
        let fps = elapsed > 0 ? Double(done) / elapsed : 0
        let left = fps > 0 ? Double(total - done) / fps : 0
        let width = 30
        let filled = total > 0 ? width * done / total : width
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let line = String(format: "\r%@ %d/%d %@  %.1f/s  %.0fs left ", bar, done, total, unit, fps, left)
        Terminal.write(line, to: STDERR_FILENO)
    }

    func finish() {
        guard enabled else { return }
        Terminal.write("\r\u{1B}[K", to: STDERR_FILENO)
    }

    /// Clears the bar so a line can be printed; the next `step()` draws it again.
    func clear() {
        guard enabled else { return }
        Terminal.write("\r\u{1B}[K", to: STDERR_FILENO)
        lastDraw = .distantPast
    }
}
