import AccountCore
import AccountTestSupport
import DurableFiles
import Foundation
import Synchronization
import Testing

/// The JSON backend's cross-process lock: its timeout is time on a monotonic clock, not the sum
/// of the pauses it asked for, so a waiter on a loaded machine gives up when it said it would.
@Suite("File lock")
struct FileLockTests {
    /// A clock that moves only when the waiter pauses, and by `overrun` times what it asked for,
    /// as on a machine too loaded to wake a sleeper on time; `onPause` runs at each pause.
    final class SlowSleeperClock: Sendable {
        let time = Mutex<ContinuousClock.Instant>(.now)
        let pauses = Mutex<Int>(0)
        let overrun: Int
        let onPause: @Sendable (Int) -> Void

        init(overrun: Int, onPause: @escaping @Sendable (Int) -> Void = { _ in }) {
            self.overrun = overrun
            self.onPause = onPause
        }

        var clock: LockWaitClock {
            LockWaitClock(
                now: { self.time.withLock { $0 } },
                pause: { asked in
                    self.time.withLock { $0 += asked * self.overrun }
                    let count = self.pauses.withLock { count in
                        count += 1
                        return count
                    }
                    self.onPause(count)
                })
        }
    }

    /// Takes the lock on `path` through a descriptor of its own (an `flock` belongs to the open
    /// file description, so this process's next open of the file must wait for it).
    static func hold(_ path: String) throws -> Int32 {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        try #require(fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0)
        return fd
    }

    @Test("a waiter whose pauses overrun threefold still gives up at its timeout, not three times later")
    func timeoutOnTheClock() throws {
        let scratch = try ScratchFolder("file-lock-timeout")
        let path = scratch.path + "/store.lock"
        let holder = try Self.hold(path)
        defer { close(holder) }
        let slow = SlowSleeperClock(overrun: 3)
        let started = slow.time.withLock { $0 }
        var ran = false
        let error = #expect(throws: AccountError.self) {
            try FileLock.withExclusiveLock(path: path, timeoutMilliseconds: 100, clock: slow.clock) { ran = true }
        }
        #expect(error?.code == "store_busy" && error?.message(.english).contains(path) == true)
        #expect(!ran, "the body ran without the lock")
        let waited = slow.time.withLock { $0 } - started
        // The last pause is cut to what is left, then overruns: at most 3 × (time left) past it.
        #expect(waited >= .milliseconds(100), "gave up early, after \(waited)")
        #expect(waited <= .milliseconds(100) + .milliseconds(10) * 3, "waited \(waited) for a 100 ms timeout")
    }

    @Test("a waiter gets the lock as soon as its holder lets go, and runs its body holding it")
    func acquiredAfterRelease() throws {
        let scratch = try ScratchFolder("file-lock-release")
        let path = scratch.path + "/store.lock"
        let holder = try Self.hold(path)
        // The holder lets go at the waiter's fifth pause.
        let slow = SlowSleeperClock(overrun: 1) { pause in
            if pause == 5 { close(holder) }
        }
        let result = try FileLock.withExclusiveLock(path: path, timeoutMilliseconds: 5_000, clock: slow.clock) {
            // Held: another description cannot take it now.
            let other = open(path, O_RDWR | O_CLOEXEC)
            defer { close(other) }
            return flock(other, LOCK_EX | LOCK_NB) != 0 ? "held" : "not held"
        }
        #expect(result == "held")
        #expect(slow.pauses.withLock { $0 } == 5)
        // Released afterwards, however the body ended.
        let after = try Self.hold(path)
        close(after)
    }
}
