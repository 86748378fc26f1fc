import Foundation

/// Writes frames as PNG files. In parallel mode, frames are encoded and written by two worker
/// threads while the next frames are laid out and drawn (drawing takes well under a millisecond,
/// encoding several); at most two frames are in flight, and the bytes are the same as in serial mode
/// (each frame owns its surface, and encoding has no shared state).
public final class FrameWriter: @unchecked Sendable {
    public let parallel: Bool
    public let compression: PNGCompression
    private let queue = DispatchQueue(label: "textreel.frame-writer", attributes: .concurrent)
    private let workers = DispatchSemaphore(value: 2)
    private let group = DispatchGroup()
    private let lock = NSLock()
    private var firstError: Error?

    public init(parallel: Bool = true, compression: PNGCompression = .fast) {
        self.parallel = parallel
        self.compression = compression
    }

    /// Hands the frame over; a failure of an earlier frame is thrown here or by `finish()`.
    public func write(_ frame: RenderedFrame, to url: URL) throws {
        try rethrow()
        guard parallel else { return try frame.write(to: url, compression: compression) }
        workers.wait()
        let job = Job(frame: frame, url: url)
        queue.async(group: group) { [self] in
            defer { workers.signal() }
            do { try job.frame.write(to: job.url, compression: compression) } catch {
                lock.withLock { if firstError == nil { firstError = error } }
            }
        }
    }

    /// Waits for every frame to be written.
    public func finish() throws {
        group.wait()
        try rethrow()
    }

    private func rethrow() throws {
        if let error = lock.withLock({ firstError }) { throw error }
    }

    /// A frame in flight: only the writer thread touches it once handed over.
    private struct Job: @unchecked Sendable {
        let frame: RenderedFrame
        let url: URL
    }
}
