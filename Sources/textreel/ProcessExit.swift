import Foundation

/// Waits for a child process to end. Foundation's `waitUntilExit()` on Linux polls its run loop
/// every 50 ms and is not always woken when the child ends: ffmpeg's end (and a suite's worker
/// processes', before they were started with `ChildProcess`) was seen up to 50 ms late.
final class ProcessExit: Sendable {
    private let ended = DispatchSemaphore(value: 0)

    /// Watches `process`; made before `run()`, it takes the process's termination handler.
    init(of process: Process) {
        process.terminationHandler = { [ended] _ in ended.signal() }
    }

    /// Returns once the process has ended (its status is then known); at once after the first time.
    func wait() {
        ended.wait()
        ended.signal()
    }
}
