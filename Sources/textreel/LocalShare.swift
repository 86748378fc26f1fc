import Foundation
import TextReelGolden
import TextReelMarkdown

/// The share of a suite's cases `textreel test` runs in its own process, beside its worker
/// processes: one of its case threads (the first to ask) renders its cases here instead of
/// handing them to a worker, so a second core works from the first case on, with no process to
/// start for it. Crash isolation stays: a case that crashes this process (a trap, a bad access,
/// an abort) makes it start itself again, at once, from the signal handler (`execve`, which is
/// safe there), told which case crashed and how many verdicts it had shown; the new process runs
/// every case in workers, shows only the verdicts not shown yet, and says what happened. The
/// crashed case then fails alone in a worker, as it would have without the local share.
enum LocalShare {
    /// Set in the environment of the process started again after a crash.
    static let crashedKey = "TEXTREEL_LOCAL_CRASH", shownKey = "TEXTREEL_SHOWN"

    /// The case running here, by index (-1: none), and the verdicts shown so far: read by the
    /// signal handler, so plain words written whole.
    nonisolated(unsafe) private static var running: Int32 = -1
    nonisolated(unsafe) private static var shown: Int32 = 0
    /// The thread that runs the local share.
    nonisolated(unsafe) private static var owner: pthread_t?
    private static let lock = NSLock()
    /// Made before any case runs: the handler only fills in digits and calls `execve`.
    nonisolated(unsafe) private static var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
    nonisolated(unsafe) private static var environment: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
    nonisolated(unsafe) private static var crashedSlot: UnsafeMutablePointer<CChar>?
    nonisolated(unsafe) private static var shownSlot: UnsafeMutablePointer<CChar>?
    private static let digits = 12
    /// The worker processes started, ended by the handler before it starts again, so that no
    /// case of the first run is still writing beside the second's.
    nonisolated(unsafe) private static let workers = UnsafeMutablePointer<pid_t>.allocate(capacity: 256)
    nonisolated(unsafe) private static var workerCount: Int32 = 0

    /// Notes a worker process started (its pid, for the crash handler).
    static func register(worker pid: pid_t) {
        lock.withLock {
            guard workerCount < 256 else { return }
            workers[Int(workerCount)] = pid
            workerCount += 1
        }
    }

    /// After a crash of the local share: the case that crashed it and the verdicts it showed.
    static var rerun: (crashed: Int, shown: Int)? {
        let environment = ProcessInfo.processInfo.environment
        guard let crashed = environment[crashedKey].flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }),
              let shown = environment[shownKey].flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) else { return nil }
        return (crashed, shown)
    }

    /// Prepares starting again and catches the signals a crash raises.
    static func install() {
        let argv = CommandLine.arguments
        arguments = .allocate(capacity: argv.count + 1)
        for (k, argument) in argv.enumerated() { arguments![k] = strdup(argument) }
        arguments![argv.count] = nil
        let kept = ProcessInfo.processInfo.environment.filter { $0.key != crashedKey && $0.key != shownKey }.map { "\($0.key)=\($0.value)" }
        environment = .allocate(capacity: kept.count + 3)
        for (k, entry) in kept.enumerated() { environment![k] = strdup(entry) }
        crashedSlot = strdup(crashedKey + "=" + String(repeating: " ", count: digits))
        shownSlot = strdup(shownKey + "=" + String(repeating: " ", count: digits))
        environment![kept.count] = crashedSlot
        environment![kept.count + 1] = shownSlot
        environment![kept.count + 2] = nil
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { signal in LocalShare.crashed(signal) }
        // On the alternate stack the case thread gets (`runsHere`): a stack overflow is caught too.
        action.sa_flags = Int32(truncatingIfNeeded: SA_RESETHAND) | Int32(SA_ONSTACK)
        for signal in [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE] { sigaction(signal, &action, nil) }
    }

    /// Whether the calling case thread is the one that runs cases here (the first to ask).
    static func runsHere() -> Bool {
        lock.withLock {
            if owner == nil {
                owner = pthread_self()
                // A stack of its own for the crash handler, should this thread's overflow.
                var stack = stack_t(ss_sp: UnsafeMutableRawPointer.allocate(byteCount: 1 << 16, alignment: 16), ss_flags: 0, ss_size: 1 << 16)
                sigaltstack(&stack, nil)
            }
            return pthread_equal(owner!, pthread_self()) != 0
        }
    }

    /// Runs case `index` here, under the crash net.
    static func run(_ index: Int, _ testCase: GoldenCase, options: GoldenSuite.Options) -> CaseResult {
        running = Int32(index)
        defer { running = -1 }
        // Fault injection for the project's tests: the case named here (or any, for "*") crashes
        // this process; a case a worker would crash on crashes it too.
        let environment = ProcessInfo.processInfo.environment
        if let name = environment["TEXTREEL_TEST_LOCAL_ABORT"], name == "*" || name == testCase.name { abort() }
        if environment["TEXTREEL_TEST_WORKER_ABORT"] == testCase.name { abort() }
        return GoldenSuite.run(testCase, options: options)
    }

    /// Counts a verdict shown (its line flushed, so a crash after it loses nothing).
    static func didShow() {
        fflush(nil)
        shown += 1
    }

    /// The signal handler: only async-signal-safe work (digits written into memory, execve).
    private static func crashed(_ signal: Int32) {
        // Only a crash of the local case's own thread: another thread's is no case's.
        guard running >= 0, let owner, pthread_equal(owner, pthread_self()) != 0,
              let arguments, let environment, let crashedSlot, let shownSlot else {
            raise(signal)   // SA_RESETHAND: the default action, as without this net
            return
        }
        write(Int(running), into: crashedSlot + crashedKey.utf8.count + 1)
        write(Int(shown), into: shownSlot + shownKey.utf8.count + 1)
        for k in 0..<Int(workerCount) { kill(workers[k], SIGKILL) }
        // The new image starts with this signal unblocked, as a fresh process would.
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        sigaddset(&unblocked, signal)
        sigprocmask(SIG_UNBLOCK, &unblocked, nil)
        execve("/proc/self/exe", arguments, environment)
        _exit(70)
    }

    /// `value` as decimal digits at `slot` (room for `digits`), padded with spaces.
    private static func write(_ value: Int, into slot: UnsafeMutablePointer<CChar>) {
        var rest = max(value, 0), k = digits - 1
        for j in 0..<digits { slot[j] = 0x20 }
        repeat {
            slot[k] = CChar(0x30 + rest % 10)
            rest /= 10
            k -= 1
        } while rest > 0 && k >= 0
    }
}
