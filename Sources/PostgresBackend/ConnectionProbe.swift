import Synchronization

/// Finds out why the pool has no connection to give, by opening one connection of its own.
///
/// PostgresNIO's pool retries connecting in the background and tells nobody why it fails, so a
/// call that waits for a pooled connection cannot tell a server that is down, a password that
/// no longer works and a pool whose connections are all busy apart. The probe tries once for
/// all the calls waiting at the time: concurrent checks share one attempt, and its finding is
/// reused for `freshFor`, so an outage under load costs the server about one connection attempt
/// a second, not one per request.
final class ConnectionProbe: Sendable {
    /// What one connection attempt showed.
    enum Finding: Sendable, Equatable {
        /// The server accepted a connection: the pool's own connections are busy.
        case reachable
        /// Connecting failed for `reason`; `waitingCanHelp` is false for a refusal that stays
        /// until an operator acts (a wrong password, a missing database, a TLS mismatch), and true
        /// for one that can pass by itself (a server restarting or out of connection slots).
        case unreachable(reason: String, waitingCanHelp: Bool)
    }

    typealias Attempt = @Sendable () async -> Finding

    private struct State {
        var last: (finding: Finding, at: ContinuousClock.Instant)?
        var running: Task<Finding, Never>?
    }

    private let attempt: Attempt
    private let freshFor: Duration
    private let now: @Sendable () -> ContinuousClock.Instant
    private let state = Mutex(State())

    /// - Parameters:
    ///   - freshFor: How long a finding answers later checks without a new attempt.
    ///   - now: The clock that ages findings (tests pass their own).
    ///   - attempt: Opens and closes one connection, and says what happened.
    init(
        freshFor: Duration = .seconds(1), now: @escaping @Sendable () -> ContinuousClock.Instant = { .now },
        attempt: @escaping Attempt
    ) {
        self.attempt = attempt
        self.freshFor = freshFor
        self.now = now
    }

    /// The latest finding, from a fresh one, a running attempt, or a new attempt.
    func check() async -> Finding {
        enum Source {
            case fresh(Finding)
            case attempt(Task<Finding, Never>)
        }
        let source = state.withLock { state -> Source in
            if let running = state.running { return .attempt(running) }
            if let last = state.last, now() - last.at < freshFor { return .fresh(last.finding) }
            let task = Task { [attempt] in await attempt() }
            state.running = task
            return .attempt(task)
        }
        switch source {
        case .fresh(let finding):
            return finding
        case .attempt(let task):
            let finding = await task.value
            state.withLock { state in
                // The first waiter back records the attempt; the others find it recorded.
                if state.running == task {
                    state.running = nil
                    state.last = (finding, now())
                }
            }
            return finding
        }
    }
}
