package import AccountCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive `flock` on a lock file beside a store, held across a read-modify-write so that
/// several processes (and several repositories in one process) take turns.
///
/// `flock` locks belong to the open file description, so each `FileLock` opens its own.
///
/// A taken lock is polled, not waited for in the kernel, and that is unfair on purpose: a
/// writer that comes back tries at once and then every 0.2 ms, while a long waiter sleeps up
/// to 10 ms between tries, so writers often follow themselves. A fair lock (the kernel's
/// queue) did several times the work for the same writes, most likely because a JSON writer
/// that follows itself finds its document cached, where one that follows another process
/// reads and decodes the whole file again (bench/results/2026-12-04-file-lock-fairness.md).
/// The price is the tail: under sustained overload a waiter can lose for longer than the
/// timeout and get `store_busy`.
public enum FileLock {
    /// Opens (creating with mode 0600) `path`, waits up to `timeoutMilliseconds` for the lock,
    /// runs `body` holding it, and releases it however `body` ends.
    /// - Throws: `storeBusy` after the timeout; `storeIO` when the file cannot be opened; or
    ///   whatever `body` throws.
    public static func withExclusiveLock<T>(
        path: String, timeoutMilliseconds: Int, _ body: () throws -> T
    ) throws -> T {
        try withExclusiveLock(path: path, timeoutMilliseconds: timeoutMilliseconds, clock: .system, body)
    }

    /// ``withExclusiveLock(path:timeoutMilliseconds:_:)`` with the waiter's clock given.
    package static func withExclusiveLock<T>(
        path: String, timeoutMilliseconds: Int, clock: LockWaitClock, _ body: () throws -> T
    ) throws -> T {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw POSIXFailure.error("open lock file", path: path) }
        do {
            try lock(fd, path: path, timeoutMilliseconds: timeoutMilliseconds, clock: clock)
        } catch {
            close(fd)
            throw error
        }
        defer {
            flock(fd, LOCK_UN)
            close(fd)
        }
        return try body()
    }

    /// Takes an exclusive `flock` on the open file `fd` (named `path` in messages), waiting at
    /// most `timeoutMilliseconds` on `clock`: no lock is ever waited for without end, whatever
    /// the process holding it is doing (hung, stopped, on a disk that stopped answering).
    /// - Throws: `storeBusy` after the timeout; `storeIO` for any other failure.
    package static func lock(
        _ fd: Int32, path: String, timeoutMilliseconds: Int, clock: LockWaitClock = .system
    ) throws(AccountError) {
        let deadline = clock.now() + .milliseconds(timeoutMilliseconds)
        var pause = Duration.microseconds(200)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            guard code == EWOULDBLOCK || code == EINTR else {
                throw POSIXFailure.error("lock", path: path, errno: code)
            }
            let left = deadline - clock.now()
            if left <= .zero {
                throw AccountError.storeBusy(
                    detail: "another process held \(path) for more than \(timeoutMilliseconds) ms")
            }
            // Back off from 0.2 ms up to 10 ms: short waits are the common case. The last pause
            // ends at the deadline, so the final try is made there, not up to 10 ms after it.
            clock.pause(min(pause, left))
            pause = min(pause * 2, .milliseconds(10))
        }
    }
}
