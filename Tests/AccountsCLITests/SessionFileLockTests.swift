import AccountCore
import AccountTestSupport
import AccountsCLI
import DurableFiles
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A change of the saved sessions waits for another `accounts` process's change, and only so
/// long: a process that holds the folder's lock and never lets go (hung under a fault, stopped)
/// makes the next command fail with `store_busy` instead of waiting without end.
@Suite("Saved sessions' lock")
struct SessionFileLockTests {
    /// A clock that moves only when the waiter pauses, by what it asked for.
    final class PausedTime: Sendable {
        let time = Mutex<ContinuousClock.Instant>(.now)
        var clock: LockWaitClock {
            LockWaitClock(now: { self.time.withLock { $0 } }, pause: { asked in self.time.withLock { $0 += asked } })
        }
    }

    @Test("a lock another process never lets go of ends in store_busy after the timeout, not a wait without end")
    func boundedWait() throws {
        let scratch = try ScratchFolder("session-lock")
        var file = SessionTokenFile(path: scratch.path + "/session", mayCreateFolder: false)
        file.lockTimeoutMilliseconds = 2_000
        file.lockClock = PausedTime().clock
        let store = SessionStore(backend: "sqlite", location: scratch.path + "/accounts.sqlite", storeID: "s1")
        // Another process's hold: a descriptor of its own, so this process's lock must wait.
        let holder = open(scratch.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        #expect(holder >= 0 && flock(holder, LOCK_EX) == 0)
        let token = String(repeating: "a", count: 64)
        do {
            try file.save(token, for: store)
            Issue.record("the change went on while another held the lock")
        } catch {
            guard case .storeBusy = error else {
                Issue.record("\(error)")
                return
            }
            #expect(error.message(.english).contains("2000 ms"))
        }
        #expect(!FileManager.default.fileExists(atPath: file.path), "nothing was written while it waited")
        flock(holder, LOCK_UN)
        close(holder)
        try file.save(token, for: store)
        #expect(FileManager.default.fileExists(atPath: file.path), "the lock let go: the session is saved")
    }
}
