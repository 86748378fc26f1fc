import Foundation

/// Every small file TextReel reads by name (scripts, themes, case files, images) is read the way
/// the document is: a device, a FIFO, a socket or a folder is refused with a clear error instead
/// of blocking or growing without end (`--script /dev/zero` grew to 14 GB), and so is a file
/// past the size given; links are followed, as the document's are.
public enum InputFile {
    /// The bytes of the regular file at `url`, at most `maximumBytes`; `what` names it in errors
    /// ("script", "theme") and `expected` says what it should be ("a JSON5 scroll script").
    public static func read(_ url: URL, what: String, expected: String, maximumBytes: Int) throws -> Data {
        guard let status = FileStatus(path: url.path) else {
            throw TextReelError(file: url.path, "no such \(what); expected \(expected)")
        }
        if let problem = problem(with: status, maximumBytes: maximumBytes) {
            throw TextReelError(file: url.path, "the \(what) \(problem); expected \(expected)")
        }
        do {
            let data = try Data(contentsOf: url)
            // A file that grew after the check is held to the same limit.
            guard data.count <= maximumBytes else { throw TextReelError(file: url.path, "the \(what) \(sizeProblem(data.count, maximumBytes)); expected \(expected)") }
            return data
        } catch let error as TextReelError { throw error } catch {
            throw TextReelError(file: url.path, "the \(what) cannot be read (\(TextReelError.reason(error)))")
        }
    }

    /// Why a file of `status` is not read ("is a FIFO, not a regular file"), or nil.
    public static func problem(with status: FileStatus, maximumBytes: Int) -> String? {
        switch status.kind {
        case .regular: return status.size > maximumBytes ? sizeProblem(status.size, maximumBytes) : nil
        case .directory: return "is a folder, not a file"
        case .characterDevice: return "is a character device, not a regular file"
        case .blockDevice: return "is a block device, not a regular file"
        case .socket: return "is a socket, not a regular file"
        case .other: return "is a FIFO or other special file, not a regular file"
        }
    }

    private static func sizeProblem(_ size: Int, _ maximum: Int) -> String {
        "is \(size) bytes, over the \(maximum >> 20 > 0 ? "\(maximum >> 20) MB" : "\(maximum >> 10) KB") limit"
    }

    /// The most a script, theme or case file may hold: far more than any hand-written one.
    public static let maximumTextBytes = 16 << 20
}
