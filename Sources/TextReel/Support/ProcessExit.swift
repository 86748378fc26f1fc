import Foundation

/// Waits for a child process to end. Foundation's `waitUntilExit()` on Linux polls its run loop
/// every 50 ms and is not always woken when the child ends: a suite's worker processes, and every
/// whole-process figure of the benchmark, were seen up to 50 ms late.
public final class ProcessExit: Sendable {
    private let ended = DispatchSemaphore(value: 0)

    /// Watches `process`; made before `run()`, it takes the process's termination handler.
    public init(of process: Process) {
        process.terminationHandler = { [ended] _ in ended.signal() }
    }

    /// Runs `process` and returns once it has ended.
    public static func run(_ process: Process) throws {
        let exit = ProcessExit(of: process)
        try process.run()
        exit.wait()
    }

    /// Returns once the process has ended (its status is then known); at once after the first time.
    public func wait() {
        ended.wait()
        ended.signal()
    }
}
