import Foundation

/// How a Swift golden assertion records: `.missing`, `.changed`, `.all`, `.never`, or
/// `.automatic` (the enclosing `withGoldenRecording` scope's mode, else `TEXTREEL_RECORD`'s,
/// else `missing`; `never` under CI). A struct, not an optional enum, so that `record: .none`
/// does not compile instead of silently meaning "the default".
public struct GoldenRecording: Sendable, Equatable {
    /// The mode it stands for; nil: decided by the scope or the environment.
    public let mode: GoldenSuite.UpdateMode?

    /// Only goldens that do not exist yet.
    public static let missing = GoldenRecording(mode: .missing)
    /// Also replacing goldens that differ.
    public static let changed = GoldenRecording(mode: .changed)
    /// Every golden, differing or not (unchanged frames are left as they are).
    public static let all = GoldenRecording(mode: .all)
    /// Never: a missing golden fails.
    public static let never = GoldenRecording(mode: .never)
    /// The scope's mode, else `TEXTREEL_RECORD`'s, else `missing` (`never` when `CI` is set).
    public static let automatic = GoldenRecording(mode: nil)

    /// The mode of the innermost `withGoldenRecording` (or `.goldenRecording` trait) around the
    /// current task, if any.
    @TaskLocal public static var scoped: GoldenSuite.UpdateMode?

    /// The mode an assertion uses now.
    public func resolved() throws -> GoldenSuite.UpdateMode { try mode ?? GoldenSuite.UpdateMode.fromEnvironment() }
}

/// Runs `body` with golden assertions recording in `recording`'s mode (unless one says its own),
/// as swift-snapshot-testing's `withSnapshotTesting(record:)`; for XCTest and Swift Testing alike.
public func withGoldenRecording<T>(_ recording: GoldenRecording, _ body: () throws -> T) rethrows -> T {
    try GoldenRecording.$scoped.withValue(recording.mode ?? GoldenRecording.scoped) { try body() }
}

/// The same around asynchronous work.
public func withGoldenRecording<T>(_ recording: GoldenRecording, _ body: () async throws -> T) async rethrows -> T {
    try await GoldenRecording.$scoped.withValue(recording.mode ?? GoldenRecording.scoped) { try await body() }
}
