import Foundation

/// One Python process per TextReel process for what only Python libraries in Debian's packages do
/// well: Pygments' lexers (`SyntaxHighlighter`) and matplotlib's TeX math (`MathTypesetter`).
/// Started on the first request; asked a JSON line, it answers one, one request at a time under
/// a lock, whatever the threads. Debian's interpreter, isolated (-I: no PYTHONPATH, no user
/// site; -S: no site), so the libraries (and so the pixels) are the packages', whatever the
/// environment the render runs in.
final class PythonHelper: @unchecked Sendable {
    static let shared = PythonHelper()

    static let python = "/usr/bin/python3"

    private let lock = NSLock()
    private var process: Process?
    private var input: FileHandle?
    private var output: FileHandle?
    private var buffer = Data()
    /// The helper could not start, or died: code stays plain for the rest of the process.
    private var unavailable = false
    /// The reply to `request`; nil when the helper cannot start or died (then for good).
    func exchange(_ request: [String: Any]) -> [String: Any]? {
        guard let line = try? JSONSerialization.data(withJSONObject: request) else { return nil }
        return lock.withLock { exchange(line + Data("\n".utf8)) }
    }

    /// One request and its reply line. Call with the lock held.
    private func exchange(_ request: Data) -> [String: Any]? {
        guard !unavailable else { return nil }
        if process == nil && !start() { unavailable = true; return nil }
        do {
            // Written again after a signal interrupts it (FileHandle gives up: a timer's signal in
            // the middle of a request left code plain for the rest of the process).
            guard let input, AtomicFile.writeAll(request, to: input.fileDescriptor) == nil else { throw CocoaError(.fileWriteUnknown) }
            guard let line = readLine() else { throw CocoaError(.fileReadUnknown) }
            return try JSONSerialization.jsonObject(with: line) as? [String: Any]
        } catch {
            unavailable = true
            process?.terminate()
            return nil
        }
    }

    private func start() -> Bool {
        guard FileManager.default.isExecutableFile(atPath: Self.python) else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.python)
        // Isolated (-I: no PYTHONPATH, no user site) and without site (-S): only Debian's packages.
        process.arguments = ["-I", "-S", "-c", Self.helper]
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return false }
        self.process = process
        input = stdin.fileHandleForWriting
        output = stdout.fileHandleForReading
        // The helper's first line names its Pygments: it started, with its libraries.
        guard let hello = readLine(), let object = try? JSONSerialization.jsonObject(with: hello) as? [String: Any],
              object["pygments"] is String else {
            process.terminate()
            return false
        }
        return true
    }

    private func readLine() -> Data? {
        var searched = 0
        while true {
            // Only the bytes not looked at yet: a reply of a megabyte comes in many pieces.
            if let end = buffer[(buffer.startIndex + searched)...].firstIndex(of: 0x0A) {
                let line = Data(buffer[buffer.startIndex..<end])
                buffer = Data(buffer[(end + 1)...])
                return line
            }
            searched = buffer.count
            // What the pipe holds now (read(upToCount:) would wait for the whole count).
            guard let output, let chunk = Self.read(from: output.fileDescriptor) else { return nil }
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

    /// The helper's source (`PythonHelper.py`, embedded at build time).
    static let helper = String(decoding: PackageResources.PythonHelper_py, as: UTF8.self)
}
