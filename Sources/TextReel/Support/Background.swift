import Foundation

/// A value made on another thread while the caller goes on; `value` waits for it. Safe by
/// construction: `made` is written once, before `done` is signalled, and read only after.
package final class Background<Value: Sendable>: @unchecked Sendable {
    private var made: Value?
    private let done = DispatchSemaphore(value: 0)

    /// Starts making the value on a thread of its own; `yielding`: at a lower priority (nice
    /// 10), so a value that can wait takes the cores only when work that cannot leaves them.
    package init(yielding: Bool = false, _ make: @escaping @Sendable () -> Value) {
        Thread.detachNewThread { [self] in
            // Linux keeps a nice value per thread: `who` 0 is the calling thread.
            if yielding { setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10) }
            made = make()
            done.signal()
        }
    }

    /// The value, once made (the first call waits; later calls do not).
    package var value: Value {
        done.wait()
        done.signal()
        return made!
    }
}
