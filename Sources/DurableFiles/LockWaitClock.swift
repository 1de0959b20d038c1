#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a ``FileLock`` waiter reads the time and pauses between tries. The timeout is measured on
/// `now`, never by adding up the pauses asked for: on a loaded machine a 10 ms pause takes longer,
/// and a sum of the requests would let a waiter wait well past its timeout. Tests inject a clock
/// whose pauses overrun.
package struct LockWaitClock: Sendable {
    /// The current instant (monotonic: wall-clock steps do not move it).
    package let now: @Sendable () -> ContinuousClock.Instant
    /// Pauses for about this long, or longer.
    package let pause: @Sendable (Duration) -> Void

    package init(
        now: @escaping @Sendable () -> ContinuousClock.Instant, pause: @escaping @Sendable (Duration) -> Void
    ) {
        self.now = now
        self.pause = pause
    }

    /// `ContinuousClock` and `usleep`: the lock is taken on the caller's thread, synchronously.
    package static let system = LockWaitClock(
        now: { .now },
        pause: { duration in
            let (seconds, attoseconds) = duration.components
            usleep(UInt32(seconds * 1_000_000 + attoseconds / 1_000_000_000_000))
        })
}
