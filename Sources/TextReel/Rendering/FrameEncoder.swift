import Foundation

/// PNG bytes of frames encoded on two worker threads while the next frames are laid out and
/// drawn, as `FrameWriter` writes files: for a golden case, whose frames are compared as bytes
/// and never written (encoding them one by one on the drawing thread made a test of an unchanged
/// case take 1.4× its render). The bytes are the serial encoder's.
public final class FrameEncoder: @unchecked Sendable {
    private let queue = DispatchQueue(label: "textreel.frame-encoder", attributes: .concurrent)
    private let workers = DispatchSemaphore(value: 2)
    private let group = DispatchGroup()
    private let lock = NSLock()
    private var encoded: [Int: Data] = [:]
    private var firstError: Error?

    /// An encoder with nothing in flight.
    public init() {}

    /// Starts encoding `frame` as number `number`; at most two are in flight.
    public func encode(_ frame: RenderedFrame, number: Int) {
        workers.wait()
        let job = Job(frame: frame)
        queue.async(group: group) { [self] in
            defer { workers.signal() }
            do {
                let png = try job.frame.pngData()
                lock.withLock { encoded[number] = png }
            } catch {
                lock.withLock { if firstError == nil { firstError = error } }
            }
        }
    }

    /// Waits for every frame; their bytes by number.
    public func finish() throws -> [Int: Data] {
        group.wait()
        return try lock.withLock {
            if let firstError { throw firstError }
            return encoded
        }
    }

    /// A frame in flight: only its worker touches it once handed over.
    private struct Job: @unchecked Sendable { let frame: RenderedFrame }
}
