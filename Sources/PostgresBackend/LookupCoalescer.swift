import Synchronization

/// Folds lookups that arrive while others are on their way into one query.
///
/// Every authenticated request looks up its session. One query per request costs a round trip,
/// a parse of the protocol messages on both ends and a wake-up of a server process; under
/// load that overhead, not the index read, is what PostgreSQL spends its time on. So a lookup
/// that arrives while a batch runs waits for the next batch, which takes every lookup pending
/// by then (at most `maximumBatch`) and runs them as one query. A lookup never waits for a
/// timer: with no batch running it goes at once, alone.
///
/// One batch at a time makes the biggest batches, and was fastest
/// (bench/results/2026-11-25-to-26-serve-one-batch-in-flight.md). But a batch stuck on a
/// stalled connection must not hold up every signed-in request until its deadline: a lookup
/// that arrives when every running batch has been out for `stallAfter` or longer starts
/// another batch beside them, up to `maximumInFlight`. Of
/// several running batches, one that comes back while another is still young leaves the
/// pending lookups to that one, so a hiccup does not leave two in flight for good.
///
/// A batch runs on what a *lease* lends it (the PostgreSQL backend: a pooled connection), and
/// the batches that gathered while one ran reuse that lease, up to `batchesPerLease`: taking a
/// connection from the pool for each batch, with a deadline armed for the wait, cost about 6 %
/// of the server's CPU per signed-in read under load
/// (bench/results/2026-11-24-to-25-serve-postgres-session-lookups.md). A lease is never held
/// while nothing is pending, and a failed batch ends its lease, so the next batch starts on a
/// fresh one.
///
/// Nothing is cached. A lookup only ever joins a batch that has not started yet, so its query
/// begins after the lookup was asked for and sees every write committed before that — a
/// logout on another host is seen at once.
final class LookupCoalescer<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// Answers a batch: the value of each key found; a key left out was not found. An error
    /// it throws is every lookup of that batch's error.
    typealias Run = @Sendable (_ keys: [Key]) async throws -> [Key: Value]
    /// Lends `body` a `Run` for as long as `body` runs. Throws when it has nothing to lend (no
    /// connection within the connect timeout); `body` has then not run.
    typealias Lease = @Sendable (_ body: @escaping @Sendable (_ run: Run) async -> Void) async throws -> Void

    private struct Waiter: Sendable {
        let key: Key
        let continuation: CheckedContinuation<Value?, any Error>
    }

    private struct State {
        var pending: [Waiter] = []
        /// When the current batch of each running drain started, by drain.
        var batchStarts: [Int: ContinuousClock.Instant] = [:]
        var nextDrain = 0
    }

    /// What one lease's body left for the next lease: whether it ran at all, and the batch it
    /// took but did not run because the batch before it failed.
    private struct LeaseOutcome {
        var started = false
        var leftOver: [Waiter]?
    }

    private let state = Mutex(State())
    private let maximumInFlight: Int
    private let maximumBatch: Int
    private let batchesPerLease: Int
    private let stallAfter: Duration
    private let now: @Sendable () -> ContinuousClock.Instant
    private let lease: Lease

    /// - Parameters:
    ///   - maximumInFlight: how many batches may run at once (at least 1).
    ///   - maximumBatch: how many keys one batch takes at most (at least 1).
    ///   - batchesPerLease: how many batches in a row one lease serves at most (at least 1).
    ///   - stallAfter: how long every running batch must have been out before another starts
    ///     beside them (`.zero`: as soon as fewer than `maximumInFlight` run).
    ///   - now: the clock that times the batches.
    ///   - lease: lends what runs a batch; see `Lease`.
    init(
        maximumInFlight: Int, maximumBatch: Int, batchesPerLease: Int, stallAfter: Duration = .zero,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }, lease: @escaping Lease
    ) {
        self.maximumInFlight = max(1, maximumInFlight)
        self.maximumBatch = max(1, maximumBatch)
        self.batchesPerLease = max(1, batchesPerLease)
        self.stallAfter = stallAfter
        self.now = now
        self.lease = lease
    }

    /// Batches answered by `run` itself, with nothing to lease.
    convenience init(
        maximumInFlight: Int, maximumBatch: Int, stallAfter: Duration = .zero,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }, run: @escaping Run
    ) {
        self.init(
            maximumInFlight: maximumInFlight, maximumBatch: maximumBatch, batchesPerLease: .max,
            stallAfter: stallAfter, now: now
        ) { body in await body(run) }
    }

    /// How many lookups wait for a batch to start (for tests that line lookups up).
    var pendingCount: Int { state.withLock { $0.pending.count } }

    /// How many batches run now, counting one between its lease and its query (for tests).
    var runningCount: Int { state.withLock { $0.batchStarts.count } }

    /// The value for `key`, or nil when the batch's query did not find it.
    func value(for key: Key) async throws -> Value? {
        try await withCheckedThrowingContinuation { continuation in
            let started = state.withLock { state -> (drain: Int, batch: [Waiter])? in
                state.pending.append(Waiter(key: key, continuation: continuation))
                guard mayAddBatch(to: state) else { return nil }
                let drain = state.nextDrain
                state.nextDrain += 1
                return (drain, take(for: drain, from: &state))
            }
            if let started {
                // The batch runs in a task of its own, not in the task of the lookup that started
                // it: that request's cancellation must not fail the others waiting on the batch.
                Task { await self.drain(started.drain, startingWith: started.batch) }
            }
        }
    }

    /// Runs `batch`, then every batch that gathered meanwhile, until nothing is pending: on one
    /// lease while it serves, on a new one after a failed batch or `batchesPerLease` batches.
    private func drain(_ drain: Int, startingWith batch: [Waiter]) async {
        var batch = batch
        while true {
            let first = batch
            let outcome = Mutex(LeaseOutcome())
            do {
                try await lease { run in
                    outcome.withLock { $0.started = true }
                    let leftOver = await self.runBatches(drain, startingWith: first, on: run)
                    outcome.withLock { $0.leftOver = leftOver }
                }
            } catch {
                // Only a lease that never ran its body may answer the batch: once it ran, every
                // lookup it took was answered there, and must not be resumed twice.
                if !outcome.withLock({ $0.started }) {
                    Self.answer(first, with: .failure(error))
                    outcome.withLock { $0.leftOver = self.nextBatch(for: drain) }
                }
            }
            guard let next = outcome.withLock({ $0.leftOver }) else { return }
            batch = next
        }
    }

    /// Runs `batch` and the batches that follow on one lease's `run`. Returns the batch taken
    /// but not run, which needs a new lease, or nil when nothing was pending (and the slot is
    /// given back).
    private func runBatches(_ drain: Int, startingWith batch: [Waiter], on run: Run) async -> [Waiter]? {
        var batch = batch
        var served = 0
        while true {
            let result: Result<[Key: Value], any Error>
            do {
                result = .success(try await run(batch.map(\.key)))
            } catch {
                result = .failure(error)
            }
            Self.answer(batch, with: result)
            served += 1
            guard let next = nextBatch(for: drain) else { return nil }
            if case .failure = result { return next }
            if served >= batchesPerLease { return next }
            batch = next
        }
    }

    /// The next batch `drain` runs, or nil (the drain ends) when nothing is pending, or when
    /// another running batch is young enough to take what is.
    private func nextBatch(for drain: Int) -> [Waiter]? {
        state.withLock { state -> [Waiter]? in
            state.batchStarts[drain] = nil
            guard !state.pending.isEmpty, mayAddBatch(to: state) else { return nil }
            return take(for: drain, from: &state)
        }
    }

    /// Whether another batch may run now: when none runs, or fewer than `maximumInFlight` do
    /// and every one has been out for `stallAfter`. The clock is read only in the second case,
    /// so a lone batch's run of batches costs no clock read beyond its own start.
    private func mayAddBatch(to state: State) -> Bool {
        guard !state.batchStarts.isEmpty else { return true }
        guard state.batchStarts.count < maximumInFlight else { return false }
        let now = now()
        return state.batchStarts.values.allSatisfy { now - $0 >= stallAfter }
    }

    /// Takes the next batch off the pending lookups for `drain`, starting its clock.
    private func take(for drain: Int, from state: inout State) -> [Waiter] {
        state.batchStarts[drain] = now()
        return Self.take(maximumBatch, from: &state.pending)
    }

    private static func answer(_ batch: [Waiter], with result: Result<[Key: Value], any Error>) {
        switch result {
        case .success(let found): for waiter in batch { waiter.continuation.resume(returning: found[waiter.key]) }
        case .failure(let error): for waiter in batch { waiter.continuation.resume(throwing: error) }
        }
    }

    private static func take(_ count: Int, from pending: inout [Waiter]) -> [Waiter] {
        guard pending.count > count else {
            defer { pending.removeAll(keepingCapacity: true) }
            return pending
        }
        defer { pending.removeFirst(count) }
        return Array(pending.prefix(count))
    }
}
