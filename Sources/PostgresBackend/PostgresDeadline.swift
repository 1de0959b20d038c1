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

    /// How long a call waits for its connection before it asks the probe why there is none:
    /// long enough that a pool handing out connections never gets there, short enough that a
    /// refusal that waiting cannot mend is reported at once rather than after the whole wait.
    static func probeDelay(milliseconds: Int) -> Int { min(500, milliseconds / 2) }

    /// Runs `body`, which calls `leased` once it holds a connection; if it has not when the
    /// timer expires, cancels it and throws `storeIO`. Tests pass a `timer` they fire.
    ///
    /// With a `watch`, a call still waiting after ``probeDelay(milliseconds:)`` asks it why,
    /// and tells it the finding. A refusal that waiting cannot mend (a wrong password, a missing
    /// database) ends the wait at once while no connection is in use; while other calls hold
    /// connections, one of them will come free, as the refusal is only of new ones (a password
    /// changed under a running pool). The `storeIO` of a wait that runs out says what the probe
    /// found: the server's refusal, or a server that accepts connections while the pool's are
    /// all busy.
    static func run<T: Sendable>(
        milliseconds: Int, location: String, watch: (any PoolWatch)? = nil, timer: @escaping Timer = eventLoopTimer,
        _ body: @escaping @Sendable (_ leased: @escaping @Sendable () -> Void) async throws -> T
    ) async throws -> T {
        let lease = LeaseState()
        let work = Task { try await body { lease.markLeased() } }
        let expire: @Sendable () -> Void = {
            if lease.expireIfWaiting() { work.cancel() }
        }
        // One timer per call on the way that matters, the connection given at once; the
        // deadline's own timer is armed only when the probe's fires.
        let disarm: @Sendable () -> Void
        if let watch {
            let delay = probeDelay(milliseconds: milliseconds)
            disarm = timer(delay) {
                guard lease.startProbing() else { return }
                lease.armDeadline(timer(milliseconds - delay, expire))
                Task {
                    let finding = await watch.check()
                    let inUse = watch.connectionsInUse
                    if lease.record(finding, connectionsInUse: inUse) { work.cancel() }
                    watch.noted(finding, connectionsInUse: inUse)
                }
            }
        } else {
            disarm = timer(milliseconds, expire)
        }
        defer {
            disarm()
            lease.disarmDeadline()
        }
        do {
            return try await withTaskCancellationHandler {
                try await work.value
            } onCancel: {
                work.cancel()
            }
        } catch {
            // The count now as well as at the probe: a pool slow to open its first connection
            // (a busy machine) had none in use when the probe came, and then gave it to another call.
            if let reason = lease.expiry(milliseconds: milliseconds, connectionsInUseNow: watch?.connectionsInUse ?? 0)
            {
                throw AccountError.storeIO(detail: "\(location): \(reason)")
            }
            throw error
        }
    }
}

/// Whether the call got its connection before the timer ran out: whichever comes first wins.
/// What the probe found, and the deadline's timer once armed, are kept beside it.
private final class LeaseState: Sendable {
    private static let waiting = 0
    private static let leased = 1
    private static let expired = 2
    private let state = Atomic<Int>(LeaseState.waiting)

    private struct Probing {
        var started = false
        var finding: ConnectionProbe.Finding?
        var endedByFinding = false
        var connectionsInUse = 0
        var disarmDeadline: (@Sendable () -> Void)?
        var finished = false
    }
    private let probing = Mutex(Probing())

    func markLeased() {
        _ = state.compareExchange(expected: Self.waiting, desired: Self.leased, ordering: .acquiringAndReleasing)
    }

    /// Marks the call expired, unless it was leased first; true if it did.
    func expireIfWaiting() -> Bool {
        state.compareExchange(expected: Self.waiting, desired: Self.expired, ordering: .acquiringAndReleasing).exchanged
    }

    /// True, once, if the call is still waiting, so that it asks the probe.
    func startProbing() -> Bool {
        guard state.load(ordering: .acquiring) == Self.waiting else { return false }
        return probing.withLock { probing in
            defer { probing.started = true }
            return !probing.started && !probing.finished
        }
    }

    /// Keeps the deadline's timer so that the call's end disarms it; disarms it at once if
    /// the call has ended already.
    func armDeadline(_ disarm: @escaping @Sendable () -> Void) {
        let ended = probing.withLock { probing in
            if !probing.finished { probing.disarmDeadline = disarm }
            return probing.finished
        }
        if ended { disarm() }
    }

    func disarmDeadline() {
        probing.withLock { probing in
            probing.finished = true
            return probing.disarmDeadline.take()
        }?()
    }

    /// Records what the probe found; true if that ended the wait: a refusal waiting cannot mend,
    /// with no connection in use that could come free.
    func record(_ finding: ConnectionProbe.Finding, connectionsInUse: Int) -> Bool {
        probing.withLock { probing in
            probing.finding = finding
            probing.connectionsInUse = connectionsInUse
            guard case .unreachable(_, waitingCanHelp: false) = finding, connectionsInUse == 0, expireIfWaiting()
            else { return false }
            probing.endedByFinding = true
            return true
        }
    }

    /// Why the call got no connection, if it expired. The pool's connections were all busy if
    /// any was in use when the probe came or is now.
    func expiry(milliseconds: Int, connectionsInUseNow: Int) -> String? {
        guard state.load(ordering: .acquiring) == Self.expired else { return nil }
        let (started, finding, endedByFinding, inUse) = probing.withLock {
            ($0.started, $0.finding, $0.endedByFinding, max($0.connectionsInUse, connectionsInUseNow))
        }
        let wait = "no connection could be made within \(milliseconds) ms"
        switch finding {
        case .unreachable(let reason, _)?:
            return endedByFinding ? "cannot connect: \(reason)" : "\(wait); connecting fails: \(reason)"
        case .reachable? where inUse > 0:
            return
                "no pooled connection came free within \(milliseconds) ms; the server accepts connections, so all of the pool's (postgres.pool_size) were busy"
        case .reachable?:
            return
                "\(wait); the server accepts connections, but the pool had none open and was waiting to try again"
        case nil:
            return started ? "\(wait), nor did a connection attempt of its own finish" : wait
        }
    }
}
