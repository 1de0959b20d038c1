import Synchronization

/// Folds lookups that arrive while others are on their way into one query.
///
/// Every authenticated request looks up its session. One query per request costs a round trip,
/// a parse of the protocol messages on both ends and a wake-up of a server process; under
/// load that overhead, not the index read, is what PostgreSQL spends its time on. So a lookup
/// that arrives while `maximumInFlight` batches are already running waits for the next batch,
/// which takes every lookup pending by then (at most `maximumBatch`) and runs them as one
/// query. A lookup never waits for a timer: when a batch slot is free it goes at once, alone.
///
/// Nothing is cached. A lookup only ever joins a batch that has not started yet, so its query
/// begins after the lookup was asked for and sees every write committed before that — a
/// logout on another host is seen at once.
final class LookupCoalescer<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    typealias Run = @Sendable (_ keys: [Key]) async throws -> [Key: Value]

    private struct Waiter {
        let key: Key
        let continuation: CheckedContinuation<Value?, any Error>
    }

    private struct State {
        var pending: [Waiter] = []
        var running = 0
    }

    private let state = Mutex(State())
    private let maximumInFlight: Int
    private let maximumBatch: Int
    private let run: Run

    /// - Parameters:
    ///   - maximumInFlight: how many batches may run at once (at least 1).
    ///   - maximumBatch: how many keys one batch takes at most (at least 1).
    ///   - run: answers a batch: the value of each key found; a key left out was not found.
    ///     An error it throws is every waiting lookup's error.
    init(maximumInFlight: Int, maximumBatch: Int, run: @escaping Run) {
        self.maximumInFlight = max(1, maximumInFlight)
        self.maximumBatch = max(1, maximumBatch)
        self.run = run
    }

    /// How many lookups wait for a batch to start (for tests that line lookups up).
    var pendingCount: Int { state.withLock { $0.pending.count } }

    /// The value for `key`, or nil when the batch's query did not find it.
    func value(for key: Key) async throws -> Value? {
        try await withCheckedThrowingContinuation { continuation in
            let batch = state.withLock { state -> [Waiter]? in
                state.pending.append(Waiter(key: key, continuation: continuation))
                guard state.running < maximumInFlight else { return nil }
                state.running += 1
                return Self.take(maximumBatch, from: &state.pending)
            }
            if let batch {
                // The batch runs in a task of its own, not in the task of the lookup that started
                // it: that request's cancellation must not fail the others waiting on the batch.
                Task { await self.drain(startingWith: batch) }
            }
        }
    }

    /// Runs `batch`, then every batch that gathered meanwhile, until nothing is pending.
    private func drain(startingWith batch: [Waiter]) async {
        var batch = batch
        while true {
            do {
                let found = try await run(batch.map(\.key))
                for waiter in batch { waiter.continuation.resume(returning: found[waiter.key]) }
            } catch {
                for waiter in batch { waiter.continuation.resume(throwing: error) }
            }
            let next = state.withLock { state -> [Waiter]? in
                guard !state.pending.isEmpty else {
                    state.running -= 1
                    return nil
                }
                return Self.take(maximumBatch, from: &state.pending)
            }
            guard let next else { return }
            batch = next
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
