import Foundation

/// A large regular file mapped into memory instead of copied: the index scans it at memory speed
/// and its pages stay the kernel's page cache, not a second copy. (Populating every page up front
/// measured slower than faulting them in as the scan goes.) A file cut shorter by another process
/// while it is mapped would stop this one (SIGBUS), so small files, which cost nothing to copy,
/// are read.
package enum MappedFile {
    /// Files from this size on are mapped.
    static let threshold = 16 << 20

    /// The file's bytes, mapped, or nil when it is small, not a regular file, or cannot be mapped.
    package static func map(_ url: URL) -> Data? {
        let fd = open(url.path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_size >= threshold else { return nil }
        let size = Int(status.st_size)
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else { return nil }
        return Data(bytesNoCopy: base, count: size, deallocator: .custom { pointer, count in munmap(pointer, count) })
    }
}
