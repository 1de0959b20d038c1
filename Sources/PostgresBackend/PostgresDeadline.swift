import AccountCore
import NIOCore
import NIOPosix
import Synchronization

/// Bounds how long a call waits for a pooled connection.
///
/// PostgresNIO's pool retries connecting in the background while a lease waits, without
/// limit; a server that went away must instead give the caller `store_io` in bounded time.
/// Once the connection is leased, the work itself is not cut short (a slow import is fine).
enum PostgresDeadline {
    /// Starts a timer that calls `expire` after `milliseconds`, and returns what cancels it.
    typealias Timer = @Sendable (_ milliseconds: Int, _ expire: @escaping @Sendable () -> Void) -> @Sendable () -> Void

    /// A task scheduled on one of SwiftNIO's event loops, which cancelling removes at once.
    /// `Task.sleep` would not do: cancelling it resumes the sleeper but leaves a task queued in
    /// Dispatch until the time asked for, so every call held about 1.4 KB of the heap for the
    /// whole timeout (10 s by default): thousands of calls a second under load.
    static let eventLoopTimer: Timer = { milliseconds, expire in
        let scheduled = MultiThreadedEventLoopGroup.singleton.any().scheduleTask(
            in: .milliseconds(Int64(milliseconds))
        ) { expire() }
        return { scheduled.cancel() }
    }

    /// Runs `body`, which calls `leased` once it holds a connection; if it has not when the
    /// timer expires, cancels it and throws `storeIO`. Tests pass a `timer` they fire.
    static func run<T: Sendable>(
        milliseconds: Int, location: String, timer: Timer = eventLoopTimer,
        _ body: @escaping @Sendable (_ leased: @escaping @Sendable () -> Void) async throws -> T
    ) async throws -> T {
        let lease = LeaseState()
        let work = Task { try await body { lease.markLeased() } }
        let disarm = timer(milliseconds) {
            if lease.expireIfWaiting() { work.cancel() }
        }
        defer { disarm() }
        do {
            return try await withTaskCancellationHandler {
                try await work.value
            } onCancel: {
                work.cancel()
            }
        } catch {
            if lease.hasExpired {
                throw AccountError.storeIO(detail: "\(location): no connection could be made within \(milliseconds) ms")
            }
            throw error
        }
    }
}

/// Whether the call got its connection before the timer ran out: whichever comes first wins.
private final class LeaseState: Sendable {
    private static let waiting = 0
    private static let leased = 1
    private static let expired = 2
    private let state = Atomic<Int>(LeaseState.waiting)

    func markLeased() {
        _ = state.compareExchange(expected: Self.waiting, desired: Self.leased, ordering: .acquiringAndReleasing)
    }

    /// Marks the call expired, unless it was leased first; true if it did.
    func expireIfWaiting() -> Bool {
        state.compareExchange(expected: Self.waiting, desired: Self.expired, ordering: .acquiringAndReleasing).exchanged
    }

    var hasExpired: Bool { state.load(ordering: .acquiring) == Self.expired }
}
