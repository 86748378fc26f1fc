import Foundation

/// A child process of TextReel's ends when its parent does, however the parent ends (SIGKILL
/// too): a worker left behind would go on writing goldens for a run nobody is watching. The
/// parent's id is checked every tenth of a second (a system call; Swift cannot call the variadic
/// `syscall` that opens a pidfd). Parent-death signals were not used: Linux sends them when the
/// thread that started the child ends, not the process; the child's stdin was not watched: the
/// parent closes it at the end of a run, which is not a death.
enum ParentWatch {
    /// Watches `parent` (the id the parent passed: a child that read `getppid()` after the
    /// parent had already ended would watch the process that adopted it) on a thread of its own.
    static func start(parent: pid_t) {
        guard getppid() == parent else { _exit(3) }
        Thread.detachNewThread {
            while getppid() == parent { usleep(100_000) }
            _exit(3)
        }
    }
}
