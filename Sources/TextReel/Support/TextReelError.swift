import Foundation

/// A user-facing error: what was wrong, where (file, line, column when known) and what was expected.
/// The CLI prints `description` and exits with `exitStatus`.
public struct TextReelError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The file at fault (nil: none).
    public var file: String?
    /// 1-based line in `file`, when known.
    public var line: Int?
    /// 1-based column in `line`, when known.
    public var column: Int?
    /// What was wrong and what was expected.
    public var message: String
    /// 2 for bad input or usage (the default), 1 for a golden mismatch.
    public var exitStatus: Int32

    /// An error with where it happened when known; exit status 2 unless given.
    public init(file: String? = nil, line: Int? = nil, column: Int? = nil, _ message: String,
                exitStatus: Int32 = 2) {
        self.file = file; self.line = line; self.column = column
        self.message = message; self.exitStatus = exitStatus
    }

    /// Why a file operation failed, in the system's words ("No such file or directory").
    public static func reason(_ error: Error) -> String {
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return ns.localizedDescription
    }

    public var description: String {
        var place = file ?? ""
        if let line { place += ":\(line)" }
        if let column { place += ":\(column)" }
        return place.isEmpty ? "error: \(message)" : "\(place): error: \(message)"
    }
}
