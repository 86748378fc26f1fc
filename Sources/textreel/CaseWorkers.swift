import Foundation
import TextReel
import TextReelGolden

/// Golden cases in worker processes, as pytest-xdist, Playwright and Bazel run tests: `textreel
/// test` with more than one worker starts this executable again (`textreel test-worker`) once per
/// worker thread, so text work, which one process serialises under its font lock, runs on every
/// core; a case that ends its worker (a crash, an abort) fails alone, with what the worker wrote
/// to stderr, and a new worker takes the next case. Results and their order are those of an
/// in-process run.
///
/// The protocol, over the worker's stdin and stdout, one JSON document per line: the parent sends
/// a `Hello` (protocol version, suites, look, update mode, prune), then case numbers (positions in
/// the suites' case list, which the worker reads the same way); the worker answers each number
/// with that case's `CaseResult`. Closing stdin ends the worker. Its stderr goes to a file the
/// parent copies to its own stderr after each case.
enum CaseWorkers {
    static let protocolVersion = 1

    /// What a worker needs to find and run the cases as the parent would.
    struct Hello: Codable {
        var version: Int
        var suites: [String]
        var theme: String?
        var textSize: String?
        var direction: String?
        var update: String
        var prune: Bool
    }

    /// A runner for `GoldenSuite.run` that sends each case to the calling thread's worker; call
    /// `shutDown()` on the pool when the run is over.
    final class Pool: @unchecked Sendable {
        private let hello: Hello
        private let lock = NSLock()
        private var workers: [Worker] = []
        private var started = 0
        private let key = "TextReel.CaseWorkers.worker.\(UUID().uuidString)"

        init(hello: Hello) { self.hello = hello }

        /// Runs case `index` in this thread's worker, starting one if need be.
        func run(_ index: Int, _ testCase: GoldenCase) throws -> CaseResult {
            let worker = try threadWorker()
            do {
                return try worker.run(index)
            } catch let ended as Worker.Ended {
                Thread.current.threadDictionary.removeObject(forKey: key)
                var result = CaseResult(name: testCase.name, folder: testCase.folder.path, status: .failed, frames: 0)
                result.error = "its worker process \(ended.how) while running it" + (ended.stderr.isEmpty ? "" : "; it wrote:\n\(ended.stderr)")
                result.structure = ["the case cannot run: its worker process \(ended.how)"]
                return result
            }
        }

        private func threadWorker() throws -> Worker {
            if let worker = Thread.current.threadDictionary[key] as? Worker { return worker }
            let number = lock.withLock { started += 1; return started }
            let worker = try Worker(hello: hello, number: number)
            lock.withLock { workers.append(worker) }
            Thread.current.threadDictionary[key] = worker
            return worker
        }

        /// Ends every worker (each finishes on its stdin's end) and removes their stderr files.
        func shutDown() {
            for worker in lock.withLock({ workers }) { worker.finish() }
        }
    }

    /// One worker process and its pipes.
    final class Worker {
        /// The worker ended before answering: how, and what it wrote to stderr meanwhile.
        struct Ended: Error { let how: String; let stderr: String }

        private let process = Process()
        private let input = Pipe(), output = Pipe()
        private let stderrFile: URL
        private let stderrHandle: FileHandle
        private var stderrRead: UInt64 = 0
        private var buffer = Data()

        init(hello: Hello, number: Int) throws {
            stderrFile = FileManager.default.temporaryDirectory.appendingPathComponent("textreel-worker-\(getpid())-\(number).stderr")
            _ = FileManager.default.createFile(atPath: stderrFile.path, contents: nil)
            stderrHandle = try FileHandle(forWritingTo: stderrFile)
            process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            process.arguments = ["test-worker"]
            process.standardInput = input
            process.standardOutput = output
            process.standardError = stderrHandle
            try process.run()
            try send(JSONEncoder().encode(hello))
        }

        private func send(_ line: Data) throws {
            do { try input.fileHandleForWriting.write(contentsOf: line + Data("\n".utf8)) } catch { throw ended() }
        }

        /// Sends case `index`; returns the worker's result for it.
        func run(_ index: Int) throws -> CaseResult {
            try send(Data("\(index)".utf8))
            defer { forwardStderr() }
            while true {
                if let newline = buffer.firstIndex(of: 0x0A) {
                    let line = buffer[buffer.startIndex..<newline]
                    buffer.removeSubrange(buffer.startIndex...newline)
                    return try JSONDecoder().decode(CaseResult.self, from: line)
                }
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { throw ended() }
                buffer.append(chunk)
            }
        }

        /// What became of a worker that stopped answering.
        private func ended() -> Ended {
            process.waitUntilExit()
            let how = process.terminationReason == .uncaughtSignal
                ? "was killed by signal \(process.terminationStatus)" : "exited with status \(process.terminationStatus)"
            return Ended(how: how, stderr: newStderr().trimmingCharacters(in: .whitespacesAndNewlines))
        }

        /// What the worker wrote to stderr since the last look.
        private func newStderr() -> String {
            guard let handle = try? FileHandle(forReadingFrom: stderrFile) else { return "" }
            defer { try? handle.close() }
            try? handle.seek(toOffset: stderrRead)
            let data = (try? handle.readToEnd()) ?? Data()
            stderrRead += UInt64(data.count)
            return String(decoding: data, as: UTF8.self)
        }

        private func forwardStderr() {
            let text = newStderr()
            if !text.isEmpty { Terminal.write(text, to: STDERR_FILENO) }
        }

        func finish() {
            try? input.fileHandleForWriting.close()
            if process.isRunning { process.waitUntilExit() }
            forwardStderr()
            try? stderrHandle.close()
            try? FileManager.default.removeItem(at: stderrFile)
        }
    }

    /// `textreel test-worker`: reads a `Hello`, then runs each case number it is sent and answers
    /// with the result. Its stdout carries only answers: anything else printed goes to stderr.
    static func serve() throws -> Int32 {
        let answers = FileHandle(fileDescriptor: dup(STDOUT_FILENO), closeOnDealloc: true)
        dup2(STDERR_FILENO, STDOUT_FILENO)
        guard let first = readLine(), let hello = try? JSONDecoder().decode(Hello.self, from: Data(first.utf8)) else {
            Terminal.error("textreel test-worker: expected a hello line on stdin (it is started by `textreel test`)")
            return 2
        }
        guard hello.version == protocolVersion else {
            Terminal.error("textreel test-worker: protocol version \(hello.version), this worker speaks \(protocolVersion)")
            return 2
        }
        let look = try Appearance.parse(theme: hello.theme, textSize: hello.textSize, direction: hello.direction)
        let cases = try GoldenSuite.cases(in: hello.suites.map { URL(fileURLWithPath: $0) }).map { $0.restyled(look) }
        var options = GoldenSuite.Options(update: try GoldenSuite.UpdateMode(parsing: hello.update, from: "the hello line"))
        options.prune = hello.prune
        let encoder = JSONEncoder()
        // Fault injection for the project's tests: the case named here ends its worker, as a crash would.
        let abortCase = ProcessInfo.processInfo.environment["TEXTREEL_TEST_WORKER_ABORT"]
        while let line = readLine() {
            guard let index = Int(line), cases.indices.contains(index) else {
                Terminal.error("textreel test-worker: no case \(line) (the suites hold \(cases.count))")
                return 2
            }
            if cases[index].name == abortCase {
                Terminal.error("textreel test-worker: aborting on case \(cases[index].name), as TEXTREEL_TEST_WORKER_ABORT asks")
                abort()
            }
            let result = GoldenSuite.run(cases[index], options: options)
            try answers.write(contentsOf: encoder.encode(result) + Data("\n".utf8))
        }
        return 0
    }
}
