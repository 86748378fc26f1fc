import Glibc

/// A file's kind, size, modification time, identity and link count from one `stat` (symbolic
/// links followed unless asked otherwise). Foundation's
/// `attributesOfItem` also names the file's owner and group, reading `/etc/passwd` and
/// `/etc/group` on every call: thirty such calls were 3 ms of a 50 ms first frame.
public struct FileStatus: Equatable, Sendable {
    /// What the path names.
    public enum Kind: Sendable {
        /// A plain file.
        case regular
        /// A folder.
        case directory
        /// A character device (a terminal, `/dev/null`).
        case characterDevice
        /// A block device (a disk).
        case blockDevice
        /// A Unix domain socket.
        case socket
        /// A pipe or anything else.
        case other
    }

    /// What the path names.
    public let kind: Kind
    /// Bytes.
    public let size: Int
    /// Seconds since 1970, to the nanosecond the file system keeps.
    public let modified: Double
    /// The file itself (its device and inode): two paths of one identity name one file.
    public let identity: [UInt64]
    /// How many names (hard links) the file has.
    public let links: Int

    /// nil when nothing can be stat'ed at `path`; a symbolic link itself (kind `.other`) when
    /// `followingLinks` is false.
    public init?(path: String, followingLinks: Bool = true) {
        var status = stat()
        guard (followingLinks ? stat(path, &status) : lstat(path, &status)) == 0 else { return nil }
        switch status.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFCHR: kind = .characterDevice
        case S_IFBLK: kind = .blockDevice
        case S_IFSOCK: kind = .socket
        default: kind = .other
        }
        size = Int(status.st_size)
        modified = Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9
        identity = [UInt64(status.st_dev), UInt64(status.st_ino)]
        links = Int(status.st_nlink)
    }
}
