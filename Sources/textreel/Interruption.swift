import Foundation
import TextReelMarkdown

/// SIGINT and SIGTERM during long work: the current frame (or golden case) finishes, temporary
/// files are removed, and the command exits with 130 (143 for SIGTERM).
enum Interruption {
    nonisolated(unsafe) private static var caught: sig_atomic_t = 0

    static func install() {
        signal(SIGINT) { Interruption.caught = $0 }
        signal(SIGTERM) { Interruption.caught = $0 }
    }

    /// Throws when a signal arrived.
    static func check(_ what: String) throws {
        guard caught != 0 else { return }
        throw TextReelError("interrupted by \(caught == SIGTERM ? "SIGTERM" : "Ctrl-C") \(what); nothing half-written was left",
                            exitStatus: caught == SIGTERM ? 143 : 130)
    }
}
