import Foundation

enum Terminal {
    static func error(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

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
        FileHandle.standardError.write(Data(line.utf8))
    }

    func finish() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }

    /// Clears the bar so a line can be printed; the next `step()` draws it again.
    func clear() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
        lastDraw = .distantPast
    }
}
