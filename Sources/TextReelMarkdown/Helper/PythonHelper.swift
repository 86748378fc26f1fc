import Foundation
import TextReel

/// One Python process per TextReel process for what only Python libraries in Debian's packages do
/// well: Pygments' lexers (`SyntaxHighlighter`) and matplotlib's TeX math (`MathTypesetter`); and
/// the chromium that draws Mermaid diagrams (`MermaidDiagrams`), which ends with it.
/// Started on the first request; asked a JSON line, it answers one, one request at a time under
/// a lock, whatever the threads. Debian's interpreter, isolated (-I: no PYTHONPATH, no user
/// site; -S: no site), so the libraries (and so the pixels) are the packages', whatever the
/// environment the render runs in.
final class PythonHelper: @unchecked Sendable {
    static let shared = PythonHelper()

    static let python = "/usr/bin/python3"

    /// How long one request may take, in seconds (`TEXTREEL_HELPER_TIMEOUT`, default 30): the
    /// largest band of code or formula TextReel sends takes well under a second; a request past
    /// the limit is a helper gone astray, stopped rather than waited on for good.
    static let timeLimit: Double = {
        let value = ProcessInfo.processInfo.environment["TEXTREEL_HELPER_TIMEOUT"].flatMap(Double.init) ?? 30
        return value > 0 ? value : 30
    }()

    private let lock = NSLock()
    private var process: Process?
    private var input: FileHandle?
    private var output: FileHandle?
    private var buffer = Data()
    /// The helper could not start, or failed twice: the rest is drawn without it.
    private var unavailable = false
    /// Helpers started after one failed: one, so a crash on one input costs one block, and a
    /// helper that keeps failing does not cost a restart per block.
    private var restarts = 0
    /// What was drawn without the helper, and why, in order (read by `HelperProcess.incidents`).
    private var incidents: [String] = []
    var incidentLog: [String] { lock.withLock { incidents } }

    /// The reply to `request`, which is about `subject` ("swift code at line 12"); nil when the
    /// helper cannot start, fails or is late (recorded in `incidents`).
    func exchange(_ request: [String: Any], about subject: String) -> [String: Any]? {
        guard let line = try? JSONSerialization.data(withJSONObject: request) else { return nil }
        return lock.withLock { exchange(line + Data("\n".utf8), about: subject) }
    }

    /// One request and its reply line. Call with the lock held.
    private func exchange(_ request: Data, about subject: String) -> [String: Any]? {
        guard !unavailable else {
            incidents.append("\(subject): drawn without the helper process, which failed earlier")
            return nil
        }
        if process == nil && !start() {
            unavailable = true
            incidents.append("\(subject): the helper process (\(Self.python) with Pygments or matplotlib) could not start; drawn without it")
            return nil
        }
        // Written again after a signal interrupts it (FileHandle gives up: a timer's signal in
        // the middle of a request left code plain for the rest of the process).
        var problem: String?
        if let input, AtomicFile.writeAll(request, to: input.fileDescriptor) == nil {
            switch readLine(limit: Self.timeLimit) {
            case .line(let line):
                if let reply = try? JSONSerialization.jsonObject(with: line) as? [String: Any] { return reply }
                problem = "the helper's answer was not JSON"
            case .late: problem = "the helper did not answer within \(NumberText.text(Self.timeLimit)) s"
            case .closed: problem = "the helper process ended"
            }
        } else {
            problem = "the helper process ended"
        }
        stop()
        incidents.append("\(subject): \(problem ?? "the helper failed"); drawn without it")
        if restarts >= 1 { unavailable = true } else { restarts += 1 }
        return nil
    }

    /// Ends the helper (killed: it may be stuck) and forgets it; the next request starts another.
    private func stop() {
        if let process, process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        process = nil
        try? input?.close(); try? output?.close()
        input = nil; output = nil
        buffer = Data()
    }

    private func start() -> Bool {
        guard FileManager.default.isExecutableFile(atPath: Self.python) else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.python)
        // Isolated (-I: no PYTHONPATH, no user site) and without site (-S): only Debian's
        // packages. Given this process's id, the helper ends when this process does, however
        // it ends (killed too: it watches this process, not a pipe it might not be reading).
        process.arguments = ["-I", "-S", "-c", Self.helper, String(getpid())]
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return false }
        self.process = process
        input = stdin.fileHandleForWriting
        output = stdout.fileHandleForReading
        // The helper's first line names its libraries: it started.
        guard case .line(let hello) = readLine(limit: max(Self.timeLimit, 10)),
              (try? JSONSerialization.jsonObject(with: hello)) is [String: Any] else {
            stop()
            return false
        }
        return true
    }

    private enum Read { case line(Data), late, closed }

    /// The next line, waiting at most `limit` seconds in all.
    private func readLine(limit: Double) -> Read {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(limit * 1e9)
        var searched = 0
        while true {
            // Only the bytes not looked at yet: a reply of a megabyte comes in many pieces.
            if let end = buffer[(buffer.startIndex + searched)...].firstIndex(of: 0x0A) {
                let line = Data(buffer[buffer.startIndex..<end])
                buffer = Data(buffer[(end + 1)...])
                return .line(line)
            }
            searched = buffer.count
            guard let output else { return .closed }
            // Wait for bytes until the deadline (the clock bounds a wait; it never changes a pixel).
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else { return .late }
            var poller = pollfd(fd: output.fileDescriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min((deadline - now) / 1_000_000 + 1, UInt64(Int32.max))))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { if ready == 0 { return .late }; return .closed }
            // What the pipe holds now (read(upToCount:) would wait for the whole count).
            guard let chunk = Self.read(from: output.fileDescriptor) else { return .closed }
            buffer.append(chunk)
        }
    }

    /// What the pipe holds now, at least a byte; nil at its end or on an error. A read a signal
    /// interrupts is read again (FileHandle's `availableData` stops the process on it).
    private static func read(from fd: Int32) -> Data? {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            return n > 0 ? Data(chunk[..<n]) : nil
        }
    }

    /// The helper's source, its parts in order (embedded at build time): diagrams, highlighting,
    /// math, then `PythonHelper.py`, which answers requests.
    static let helper = String(decoding: [PackageResources.MermaidBrowser_py, PackageResources.Highlight_py, PackageResources.MathIdioms_py,
                                          PackageResources.MathLayout_py, PackageResources.PythonHelper_py].joined(separator: [0x0A]).map { $0 }, as: UTF8.self)
}

/// What TextReel drew without its helper process (Pygments' highlighting, matplotlib's math) in
/// this process, and why: a helper that is late, crashes or cannot start is said, never silent.
/// A request is stopped after `TEXTREEL_HELPER_TIMEOUT` seconds (default 30); the helper is
/// started again once; it ends with the process that started it, however that ends.
public enum HelperProcess {
    /// One line per block or formula drawn without the helper, in order.
    public static var incidents: [String] { PythonHelper.shared.incidentLog }

    /// The helper's libraries as Debian installed them ("Pygments 2.14.0, matplotlib 3.6.3"),
    /// read from their metadata without starting Python; nil when neither is there. (mermaid.js
    /// is pinned by TextReel itself: its version changes only with TextReel's.)
    public static let libraries: String? = {
        let folder = "/usr/lib/python3/dist-packages"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        let found = ["Pygments", "matplotlib"].compactMap { library -> String? in
            let entry = names.sorted().first { ($0.hasSuffix(".egg-info") || $0.hasSuffix(".dist-info")) && $0.lowercased().hasPrefix(library.lowercased() + "-") }
            guard let entry else { return nil }
            let version = entry.dropFirst(library.count + 1).split(separator: ".").prefix { $0 != "egg-info" && $0 != "dist-info" }
            return "\(library) \(version.joined(separator: "."))"
        }
        return found.isEmpty ? nil : found.joined(separator: ", ")
    }()
}
