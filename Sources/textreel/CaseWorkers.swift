import Foundation
import TextReelMarkdown
import TextReelGolden

/// Golden cases in worker processes, as pytest-xdist, Playwright and Bazel run tests: `textreel
/// test` with more than one worker starts this executable again (`textreel test-worker`) once per
/// worker thread, so text work, which one process serialises under its font lock, runs on every
/// core; a case that ends its worker (a crash, an abort) fails alone, with what the worker wrote
/// to stderr, and a new worker takes the next case. Results and their order are those of an
/// in-process run.
///
/// The protocol, over the worker's stdin and stdout, one JSON document per line: the parent sends
/// a `Hello` (protocol version, suites, look, update mode, prune), then `Job`s (a position in the
/// suites' case list, which the worker reads the same way, and the case's folder to check it);
/// the worker answers each with that case's `CaseResult`. Closing stdin ends the worker. What it
/// writes to stderr is shown with its case, in case order.
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
    /// `shutDown()` on the pool when the run is over. Its `count` workers are started at once, so
    /// their start-up (a process, its fonts) overlaps the parent's and each other's.
    final class Pool: @unchecked Sendable {
        private let hello: Hello
        private let lock = NSLock()
        private var workers: [Worker] = []
        /// Started and not yet taken by a thread.
        private var idle: [Worker] = []
        private var started = 0
        /// What each case's worker wrote to stderr, by case folder, until the case is shown.
        private var stderr: [String: String] = [:]
        private let key = "TextReel.CaseWorkers.worker.\(UUID().uuidString)"

        init(hello: Hello, count: Int) throws {
            self.hello = hello
            idle = try (0..<count).map { _ in try start() }
        }

        private func start() throws -> Worker {
            let number = lock.withLock { started += 1; return started }
            let worker = try Worker(hello: hello, number: number)
            lock.withLock { workers.append(worker) }
            return worker
        }

        /// Runs case `index` in this thread's worker, starting one if need be. A worker that
        /// cannot start or ends before answering fails the case, not the run.
        func run(_ index: Int, _ testCase: GoldenCase) -> CaseResult {
            do {
                let worker = try threadWorker()
                defer { let text = worker.newStderr(); if !text.isEmpty { lock.withLock { stderr[testCase.folder.path, default: ""] += text } } }
                return try worker.run(Job(index: index, folder: testCase.folder.path))
            } catch {
                Thread.current.threadDictionary.removeObject(forKey: key)
                let how = (error as? Worker.Ended).map { "its worker process \($0.how)" } ?? "its worker process could not start (\(error))"
                let wrote = (error as? Worker.Ended)?.stderr ?? ""
                var result = CaseResult(name: testCase.name, folder: testCase.folder.path, status: .failed, frames: 0)
                result.error = how + " while running it" + (wrote.isEmpty ? "" : "; it wrote:\n\(wrote)")
                result.structure = ["the case cannot run: \(how)"]
                return result
            }
        }

        /// What the worker of `result`'s case wrote to stderr while running it (shown in case
        /// order, as one process would have written it).
        func takeStderr(of result: CaseResult) -> String { lock.withLock { stderr.removeValue(forKey: result.folder) ?? "" } }

        private func threadWorker() throws -> Worker {
            if let worker = Thread.current.threadDictionary[key] as? Worker { return worker }
            // A started one, or a new one for a thread whose worker ended.
            let worker = try lock.withLock { idle.popLast() } ?? start()
            Thread.current.threadDictionary[key] = worker
            return worker
        }

        /// Ends every worker: all their inputs are closed first (each finishes on its input's
        /// end), then each is waited for.
        func shutDown(quietly: Bool = false) {
            let all = lock.withLock { workers }
            for worker in all { worker.closeInput() }
            for worker in all { worker.waitUntilExit(showingStderr: !quietly) }
        }
    }

    /// One case for a worker: its position in the suites' case list, and its folder (which the
    /// worker checks, so a suite read otherwise never runs the wrong case).
    struct Job: Codable {
        var index: Int
        var folder: String
    }

    /// One worker process and its pipes. Its stderr goes to an unlinked file read back after each
    /// case, so a chatty worker never blocks on a full pipe and nothing is left behind.
    final class Worker {
        /// The worker ended before answering: how, and what it wrote to stderr meanwhile.
        struct Ended: Error { let how: String; let stderr: String }

        private let process: ChildProcess
        private let stderrReader: FileHandle
        private var buffer = Data()

        init(hello: Hello, number: Int) throws {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("textreel-worker-\(getpid())-\(number)-\(UUID().uuidString).stderr").path
            let writer = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard writer >= 0 else { throw TextReelError(file: path, "cannot make the worker's stderr file") }
            defer { close(writer) }
            let reader = open(path, O_RDONLY | O_CLOEXEC)
            unlink(path)
            guard reader >= 0 else { throw TextReelError(file: path, "cannot read the worker's stderr file") }
            stderrReader = FileHandle(fileDescriptor: reader, closeOnDealloc: true)
            // This executable, as it is now (not a path a rebuild could replace).
            process = try ChildProcess("/proc/self/exe", ["test-worker", String(getpid())], stderr: writer)
            LocalShare.register(worker: process.pid)
            try send(JSONEncoder().encode(hello))
        }

        private func send(_ line: Data) throws {
            do { try process.input.write(contentsOf: line + Data("\n".utf8)) } catch { throw ended() }
        }

        /// Sends `job`; returns the worker's result for it.
        func run(_ job: Job) throws -> CaseResult {
            try send(JSONEncoder().encode(job))
            while true {
                if let newline = buffer.firstIndex(of: 0x0A) {
                    let line = buffer[buffer.startIndex..<newline]
                    buffer.removeSubrange(buffer.startIndex...newline)
                    return try JSONDecoder().decode(CaseResult.self, from: line)
                }
                let chunk = process.output.availableData
                if chunk.isEmpty { throw ended() }
                buffer.append(chunk)
            }
        }

        /// What became of a worker that stopped answering.
        private func ended() -> Ended {
            let how = switch process.wait() {
            case .signalled(let signal): "was killed by signal \(signal)"
            case .exited(let status): "exited with status \(status)"
            case .unknown(let why): "ended, and could not be waited for (\(why))"
            }
            return Ended(how: how, stderr: newStderr().trimmingCharacters(in: .whitespacesAndNewlines))
        }

        /// What the worker wrote to stderr since the last look.
        func newStderr() -> String { String(decoding: stderrReader.availableData, as: UTF8.self) }

        func closeInput() { try? process.input.close() }

        /// Waits for the worker to end; what it wrote to stderr since its last case is shown,
        /// unless the worker was started for cases that were never sent (it then says only what
        /// the parent says: that the suites cannot be read).
        func waitUntilExit(showingStderr: Bool) {
            process.wait()
            let rest = newStderr()
            if showingStderr && !rest.isEmpty { Terminal.write(rest, to: STDERR_FILENO) }
        }
    }

    /// `textreel test-worker`: reads a `Hello`, then runs each case number it is sent and answers
    /// with the result. Its stdout carries only answers: anything else printed goes to stderr.
    static func serve() throws -> Int32 {
        guard isatty(STDIN_FILENO) == 0 else {
            Terminal.error("textreel test-worker: started by `textreel test` to run cases in a process of their own, not by hand; run `textreel test <suite>`")
            return 2
        }
        if let parent = CommandLine.arguments.dropFirst(2).first.flatMap({ pid_t($0) }) { ParentWatch.start(parent: parent) }
        let answers = FileHandle(fileDescriptor: dup(STDOUT_FILENO), closeOnDealloc: true)
        dup2(STDERR_FILENO, STDOUT_FILENO)
        // Set up the fonts while the parent is still reading its cases (a frame of one word).
        _ = try? TextView(document: TextDocument(markdown: "warm"), viewportSize: CGSize(width: 64, height: 32)).renderFrame()
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
            guard let job = try? JSONDecoder().decode(Job.self, from: Data(line.utf8)), cases.indices.contains(job.index),
                  cases[job.index].folder.path == job.folder else {
                Terminal.error("textreel test-worker: no case \(line) in the suites as this worker reads them (\(cases.count) cases)")
                return 2
            }
            let index = job.index
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
