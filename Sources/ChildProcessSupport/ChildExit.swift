import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension Process {
    /// Blocks the calling thread until the process has exited, asleep in the kernel meanwhile.
    ///
    /// Foundation's `waitUntilExit()` polls the calling thread's run loop, and on a thread with
    /// no run loop sources (any of Dispatch's) each poll returns at once: the wait keeps a core
    /// busy for as long as the child runs (1.99 s of CPU over a 2 s child, measured). On a
    /// two-core machine that starves the tasks and servers the waiter shares it with. So this
    /// first sleeps in `waitid` until the child has ended, leaving it for Foundation to reap
    /// (`WNOWAIT`; once Foundation has reaped it, `waitid` returns `ECHILD` just as well), and
    /// only then lets `waitUntilExit()` wait the moment Foundation takes to record the status.
    package func waitUntilExitAsleep() {
        if isRunning {
            var info = siginfo_t()
            while waitid(P_PID, id_t(processIdentifier), &info, WEXITED | WNOWAIT) == -1, errno == EINTR {}
        }
        waitUntilExit()
    }
}
