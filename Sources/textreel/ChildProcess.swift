import Foundation
import Synchronization
import TextReel

/// A child process started with `posix_spawn`: its stdin and stdout are pipes made close-on-exec
/// at once, so a child started meanwhile on another thread inherits none of their ends (with
/// Foundation's `Process`, whose pipes are not, starts had to be serialised), and it is reaped
/// with `waitpid`, the moment it ends (`Process.waitUntilExit` polls every 50 ms). About a
/// millisecond to start where `Process` took six.
final class ChildProcess {
    /// How a child ended.
    enum Ending: Equatable {
        case exited(Int32)
        case signalled(Int32)
    }

    let pid: pid_t
    /// The write end of the child's stdin, and the read end of its stdout.
    let input: FileHandle
    let output: FileHandle
    private let ending = Mutex<Ending?>(nil)

    /// Starts `executable` with `arguments`; its stderr is `stderr` (a descriptor the caller keeps).
    init(_ executable: String, _ arguments: [String], stderr: Int32) throws {
        var toChild: [Int32] = [-1, -1], fromChild: [Int32] = [-1, -1]
        guard pipe2(&toChild, O_CLOEXEC) == 0 else { throw Self.failure("cannot make a pipe") }
        guard pipe2(&fromChild, O_CLOEXEC) == 0 else {
            toChild.forEach { close($0) }
            throw Self.failure("cannot make a pipe")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // dup2 gives the child its own descriptors 0, 1 and 2, without close-on-exec.
        posix_spawn_file_actions_adddup2(&actions, toChild[0], STDIN_FILENO)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], STDOUT_FILENO)
        posix_spawn_file_actions_adddup2(&actions, stderr, STDERR_FILENO)
        // No signal the parent blocks stays blocked in the child.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let started = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        close(toChild[0])
        close(fromChild[1])
        guard started == 0 else {
            close(toChild[1])
            close(fromChild[0])
            throw Self.failure("cannot start \(executable) (\(String(cString: strerror(started))))")
        }
        self.pid = pid
        input = FileHandle(fileDescriptor: toChild[1], closeOnDealloc: true)
        output = FileHandle(fileDescriptor: fromChild[0], closeOnDealloc: true)
    }

    /// Waits for the child to end (at once once it has) and says how it did.
    @discardableResult
    func wait() -> Ending {
        ending.withLock { ending in
            if let ending { return ending }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            // WIFSIGNALED / WTERMSIG / WEXITSTATUS, which Swift does not import (they are macros).
            let signal = status & 0x7F
            let ended: Ending = signal != 0 && signal != 0x7F ? .signalled(signal) : .exited((status >> 8) & 0xFF)
            ending = ended
            return ended
        }
    }

    private static func failure(_ what: String) -> TextReelError { TextReelError("\(what): \(String(cString: strerror(errno)))") }
}

/// Linux's `pipe2(2)` (Glibc declares it only under _GNU_SOURCE, which Swift's Glibc module
/// is not built with).
@_silgen_name("pipe2") private func pipe2(_ fds: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32
