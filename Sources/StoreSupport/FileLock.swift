import AccountCore
import FileSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive `flock` on a lock file beside a store, held across a read-modify-write so that
/// several processes (and several repositories in one process) take turns.
///
/// `flock` locks belong to the open file description, so each `FileLock` opens its own.
public enum FileLock {
    /// Opens (creating with mode 0600) `path`, waits up to `timeoutMilliseconds` for the lock,
    /// runs `body` holding it, and releases it however `body` ends.
    /// - Throws: `storeBusy` after the timeout; `storeIO` when the file cannot be opened; or
    ///   whatever `body` throws.
    public static func withExclusiveLock<T>(
        path: String, timeoutMilliseconds: Int, _ body: () throws -> T
    ) throws -> T {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw POSIXFailure.error("open lock file", path: path) }
        var waitedMicroseconds = 0
        var pause: UInt32 = 200
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            guard code == EWOULDBLOCK || code == EINTR else {
                close(fd)
                throw POSIXFailure.error("lock", path: path, errno: code)
            }
            if waitedMicroseconds >= timeoutMilliseconds * 1000 {
                close(fd)
                throw AccountError.storeBusy(
                    detail: "another process held \(path) for more than \(timeoutMilliseconds) ms")
            }
            // Back off from 0.2 ms up to 10 ms: short waits are the common case.
            usleep(pause)
            waitedMicroseconds += Int(pause)
            pause = min(pause * 2, 10_000)
        }
        defer {
            flock(fd, LOCK_UN)
            close(fd)
        }
        return try body()
    }
}
