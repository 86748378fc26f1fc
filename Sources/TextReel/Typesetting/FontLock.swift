import Foundation
import Synchronization

/// The process-wide lock around everything that may open or close a font face: shaping a
/// paragraph, measuring or drawing a Pango layout, freeing one, making or freeing a font map,
/// and librsvg's drawing (its text goes through Pango too).
///
/// Each thread has font maps of its own, but under them Cairo keeps one FreeType library and
/// one list of faces per font file for the whole process: it opens faces (`FT_New_Face`) outside
/// its font-map mutex, closes them when more than ten are open (the font set has 23 files), and
/// links and unlinks a file's faces with no lock at all. FreeType allows creating and freeing
/// faces of one library from one thread at a time. So every road into those calls takes this
/// lock; compositing surfaces, encoding PNGs and comparing images stay parallel. Recursive, as a
/// layout freed while a fragment is being shaped takes it again.
enum FontLock {
    private static let lock = NSRecursiveLock()
    /// The thread holding the lock (`pthread_self`), 0 when none: written only by the holder.
    private static let owner = Atomic<UInt>(0)

    static func run<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        let outer = owner.load(ordering: .relaxed)
        owner.store(UInt(pthread_self()), ordering: .relaxed)
        defer {
            owner.store(outer, ordering: .relaxed)
            lock.unlock()
        }
        return try body()
    }

    /// Whether the calling thread holds the lock (it must not then wait for another thread
    /// that needs it).
    static var isHeldByCurrentThread: Bool { owner.load(ordering: .relaxed) == UInt(pthread_self()) }
}
