import Foundation

/// A value made on another thread while the caller goes on; `value` waits for it. Safe by
/// construction: `made` is written once, before `done` is signalled, and read only after.
final class Background<Value: Sendable>: @unchecked Sendable {
    private var made: Value?
    private let done = DispatchSemaphore(value: 0)

    init(_ make: @escaping @Sendable () -> Value) {
        Thread.detachNewThread { [self] in
            made = make()
            done.signal()
        }
    }

    /// The value, once made (the first call waits; later calls do not).
    var value: Value {
        done.wait()
        done.signal()
        return made!
    }
}
