import Foundation

/// Runs work that recurses once per nesting level (the Markdown walk) on a thread with a stack
/// large enough for the deepest nesting the limits allow, whatever thread calls it. Only the
/// pages the recursion touches are ever committed.
package enum DeepStack {
    /// Room for `ReadingLimits.maximumNesting` levels with frames to spare, even unoptimised.
    static let size = 512 << 20

    package static func run<T>(_ body: () throws -> T) throws -> T {
        try withoutActuallyEscaping(body) { escapable in
            let box = Box(escapable)
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                box.run()
                done.signal()
            }
            thread.stackSize = size
            thread.start()
            done.wait()
            return try box.result!.get()
        }
    }

    /// Hands the body to the thread and its result back; the caller waits, so nothing races.
    /// The body is dropped before the caller resumes: it must not outlive the call.
    private final class Box<T>: @unchecked Sendable {
        var body: (() throws -> T)?
        var result: Result<T, Error>?
        init(_ body: @escaping () throws -> T) { self.body = body }
        func run() {
            result = Result { try body!() }
            body = nil
        }
    }
}
