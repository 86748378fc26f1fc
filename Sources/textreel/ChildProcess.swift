import Foundation
import Synchronization
import TextReelMarkdown

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
        /// It could not be waited for (why).
        case unknown(String)
    }

    let pid: pid_t
    /// The write end of the child's stdin, and the read end of its stdout.
    let input: FileHandle
    let output: FileHandle
    private let ending = Mutex<Ending?>(nil)

    /// Starts `executable` with `arguments`; its stderr is `stderr` (a descriptor the caller keeps).
    init(_ executable: String, _ arguments: [String], stderr: Int32) throws {
        var toChild: [Int32] = [-1, -1], fromChild: [Int32] = [-1, -1]
        guard pipe2(&toChild, O_CLOEXEC) == 0 else { throw Self.failure("cannot make a pipe", errno) }
        guard pipe2(&fromChild, O_CLOEXEC) == 0 else {
            let error = errno
            toChild.forEach { close($0) }
            throw Self.failure("cannot make a pipe", error)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // dup2 gives the child its own descriptors 0, 1 and 2, without close-on-exec.
        posix_spawn_file_actions_adddup2(&actions, toChild[0], STDIN_FILENO)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], STDOUT_FILENO)
        posix_spawn_file_actions_adddup2(&actions, stderr, STDERR_FILENO)
        // Nothing else: a descriptor another thread opened without close-on-exec (Foundation's
        // `Process` does) would otherwise stay open in the child.
        _ = posix_spawn_file_actions_addclosefrom_np(&actions, 3)
        // A process group of its own, as `Process` gave: a Ctrl-C at the terminal reaches the
        // parent, which lets the cases in flight finish, not the workers. No signal the
        // parent blocks stays blocked in the child.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let started = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        close(toChild[0])
        close(fromChild[1])
        guard started == 0 else {
            close(toChild[1])
            close(fromChild[0])
            throw Self.failure("cannot start \(executable)", started)
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
            var waited = waitpid(pid, &status, 0)
            while waited < 0 && errno == EINTR { waited = waitpid(pid, &status, 0) }
            // WIFSIGNALED / WTERMSIG / WEXITSTATUS, which Swift does not import (they are macros).
            let signal = status & 0x7F
            let ended: Ending = waited < 0 ? .unknown(String(cString: strerror(errno)))
                : signal != 0 && signal != 0x7F ? .signalled(signal) : .exited((status >> 8) & 0xFF)
            ending = ended
            return ended
        }
    }

    private static func failure(_ what: String, _ error: Int32) -> TextReelError { TextReelError("\(what): \(String(cString: strerror(error)))") }
}

/// Linux's `pipe2(2)` (Glibc declares it only under _GNU_SOURCE, which Swift's Glibc module
/// is not built with).
@_silgen_name("pipe2") private func pipe2(_ fds: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32

/// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34; declared only under _GNU_SOURCE).
@_silgen_name("posix_spawn_file_actions_addclosefrom_np")
private func posix_spawn_file_actions_addclosefrom_np(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: Int32) -> Int32
