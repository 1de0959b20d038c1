import Synchronization
import Testing

@testable import PostgresBackend

/// The PostgreSQL backend folds concurrent session lookups into shared queries. These checks
/// pin what that may and may not do, without a server: a batch is driven by a closure that
/// records the keys it was given and waits for the test to let it answer.
@Suite("Session lookups folded into batches")
struct LookupCoalescerTests {
    /// Records each batch as it starts, and holds it until the test releases it.
    final class Recorder: Sendable {
        private let state = Mutex<(batches: [[String]], cancelled: [Bool], gates: [CheckedContinuation<Void, Never>])>(
            ([], [], []))
        /// The keys that exist, and what the batch answers for them.
        let known: Set<String>

        init(known: Set<String>) { self.known = known }

        var batches: [[String]] { state.withLock { $0.batches } }
        var sawCancellation: [Bool] { state.withLock { $0.cancelled } }
        var held: Int { state.withLock { $0.gates.count } }

        func run(_ keys: [String]) async throws -> [String: String] {
            await withCheckedContinuation { gate in
                state.withLock {
                    $0.batches.append(keys)
                    $0.cancelled.append(Task.isCancelled)
                    $0.gates.append(gate)
                }
            }
            if keys.contains("fail") { throw Failure() }
            return Dictionary(uniqueKeysWithValues: Set(keys).intersection(known).map { ($0, "value of \($0)") })
        }

        /// Lets batches answer, each as it arrives, until `count` batches have run and none is held.
        func releaseUntil(batches count: Int) async {
            while batches.count < count || held > 0 {
                release()
                await Task.yield()
            }
        }

        /// Lets the batch held longest answer.
        func releaseOldest() {
            let gate = state.withLock { state in state.gates.isEmpty ? nil : state.gates.removeFirst() }
            gate?.resume()
        }

        /// Lets every batch held so far answer.
        func release() {
            for gate in state.withLock({ state in
                defer { state.gates = [] }
                return state.gates
            }) { gate.resume() }
        }
    }

    struct Failure: Error, Equatable {}

    /// Yields until `condition` holds: the lookups run in tasks of their own.
    static func until(_ condition: () -> Bool) async {
        while !condition() { await Task.yield() }
    }

    static func coalescer(_ recorder: Recorder, inFlight: Int = 1, batch: Int = 64) -> LookupCoalescer<
        String, String
    > {
        LookupCoalescer(maximumInFlight: inFlight, maximumBatch: batch) { try await recorder.run($0) }
    }

    /// Lends the recorder's `run` as a lease, counting the leases and how many are open; can be
    /// told to refuse its next lease once the test lets it answer.
    final class Leases: Sendable {
        private let state = Mutex<(granted: Int, open: Int, refuseNext: Bool, gate: CheckedContinuation<Void, Never>?)>(
            (0, 0, false, nil))
        let recorder: Recorder

        init(_ recorder: Recorder) { self.recorder = recorder }

        var granted: Int { state.withLock { $0.granted } }
        var open: Int { state.withLock { $0.open } }
        var waiting: Bool { state.withLock { $0.gate != nil } }

        /// The next lease waits for `answerRefusal()`, then throws `Failure` without lending.
        func refuseNext() { state.withLock { $0.refuseNext = true } }

        func answerRefusal() {
            let gate = state.withLock { state in
                defer { state.gate = nil }
                return state.gate
            }
            gate?.resume()
        }

        func lease(_ body: @escaping @Sendable (_ run: LookupCoalescer<String, String>.Run) async -> Void) async throws
        {
            if state.withLock({ $0.refuseNext }) {
                await withCheckedContinuation { gate in state.withLock { $0.gate = gate } }
                state.withLock { $0.refuseNext = false }
                throw Failure()
            }
            state.withLock {
                $0.granted += 1
                $0.open += 1
            }
            await body { [recorder] keys in try await recorder.run(keys) }
            state.withLock { $0.open -= 1 }
        }
    }

    static func leasing(_ leases: Leases, batchesPerLease: Int = 256) -> LookupCoalescer<String, String> {
        LookupCoalescer(maximumInFlight: 1, maximumBatch: 1, batchesPerLease: batchesPerLease) { body in
            try await leases.lease(body)
        }
    }

    /// Starts a lookup of each key in turn: the first runs (held by `recorder`), the others wait
    /// in the order given.
    static func lineUp(
        _ keys: [String], in lookups: LookupCoalescer<String, String>, _ recorder: Recorder
    ) async -> [Task<String?, any Error>] {
        var started: [Task<String?, any Error>] = []
        for key in keys {
            started.append(Task { try await lookups.value(for: key) })
            let waiting = started.count - 1
            if waiting == 0 {
                await until { recorder.held == 1 }
            } else {
                await until { lookups.pendingCount == waiting }
            }
        }
        return started
    }

    /// A clock that moves only when told to.
    final class StepClock: Sendable {
        private let start = ContinuousClock.now
        private let elapsed = Mutex(Duration.zero)

        func now() -> ContinuousClock.Instant { start + elapsed.withLock { $0 } }
        func advance(_ duration: Duration) { elapsed.withLock { $0 += duration } }
    }

    /// Up to two batches, the second only beside one out for 10 ms on `clock`; a lookup of
    /// "a" is running (held by the recorder) when it returns.
    static func stalling() async -> (
        Recorder, StepClock, LookupCoalescer<String, String>, first: Task<String?, any Error>
    ) {
        let recorder = Recorder(known: ["a", "b", "c"])
        let clock = StepClock()
        let lookups = LookupCoalescer<String, String>(
            maximumInFlight: 2, maximumBatch: 64, stallAfter: .milliseconds(10), now: clock.now
        ) { try await recorder.run($0) }
        let first = Task { try await lookups.value(for: "a") }
        await Self.until { recorder.held == 1 }
        return (recorder, clock, lookups, first)
    }

    @Test("a second batch starts beside a running one only once that one has been out for stallAfter")
    func secondBatchOnlyForAStall() async throws {
        let (recorder, clock, lookups, a) = await Self.stalling()
        clock.advance(.milliseconds(9))
        let b = Task { try await lookups.value(for: "b") }
        await Self.until { lookups.pendingCount == 1 || recorder.held == 2 }
        #expect(recorder.held == 1, "a batch out for 9 ms: the lookup waits for the next batch")
        clock.advance(.milliseconds(1))
        let c = Task { try await lookups.value(for: "c") }
        await Self.until { recorder.held == 2 || lookups.pendingCount == 2 }
        #expect(recorder.batches == [["a"], ["b", "c"]], "out for 10 ms: the next lookup starts a batch beside it")
        await recorder.releaseUntil(batches: 2)
        for (lookup, key) in zip([a, b, c], ["a", "b", "c"]) { #expect(try await lookup.value == "value of \(key)") }
        await Self.until { lookups.runningCount == 0 }
    }

    @Test("of two running batches, one that comes back while the other is young leaves what is pending to it")
    func backToOneBatch() async throws {
        let (recorder, clock, lookups, a) = await Self.stalling()
        clock.advance(.milliseconds(10))
        let b = Task { try await lookups.value(for: "b") }
        await Self.until { recorder.held == 2 }
        let c = Task { try await lookups.value(for: "c") }
        await Self.until { lookups.pendingCount == 1 }
        // The stalled batch comes back; the one beside it started just now.
        recorder.releaseOldest()
        #expect(try await a.value == "value of a")
        await Self.until { lookups.runningCount == 1 || recorder.held == 2 }
        #expect(lookups.runningCount == 1, "the batch that came back ran on")
        #expect(lookups.pendingCount == 1 && recorder.held == 1, "c waits for the young batch")
        await recorder.releaseUntil(batches: 3)
        #expect(recorder.batches == [["a"], ["b"], ["c"]])
        #expect(try await b.value == "value of b")
        #expect(try await c.value == "value of c")
        await Self.until { lookups.runningCount == 0 }
    }

    @Test("batches that gather while one runs reuse its lease, which is given back when nothing is pending")
    func batchesShareALease() async throws {
        let recorder = Recorder(known: ["a", "b", "c"])
        let leases = Leases(recorder)
        let lookups = Self.leasing(leases)
        let lined = await Self.lineUp(["a", "b", "c"], in: lookups, recorder)
        await recorder.releaseUntil(batches: 3)
        for (lookup, key) in zip(lined, ["a", "b", "c"]) { #expect(try await lookup.value == "value of \(key)") }
        #expect(leases.granted == 1)
        await Self.until { leases.open == 0 }
        let later = Task { try await lookups.value(for: "a") }
        await Self.until { recorder.held == 1 }
        recorder.release()
        #expect(try await later.value == "value of a")
        #expect(leases.granted == 2)
    }

    @Test("a failed batch ends its lease; the batch after it runs on a new one")
    func failureEndsTheLease() async throws {
        let recorder = Recorder(known: ["a", "b"])
        let leases = Leases(recorder)
        let lookups = Self.leasing(leases)
        let lined = await Self.lineUp(["a", "fail", "b"], in: lookups, recorder)
        await recorder.releaseUntil(batches: 3)
        #expect(try await lined[0].value == "value of a")
        await #expect(throws: Failure.self) { try await lined[1].value }
        #expect(try await lined[2].value == "value of b")
        #expect(recorder.batches == [["a"], ["fail"], ["b"]])
        #expect(leases.granted == 2)
    }

    @Test("a lease that lends nothing fails its own batch only; the next batch asks for a new one")
    func refusedLeaseFailsItsBatch() async throws {
        let recorder = Recorder(known: ["a", "b"])
        let leases = Leases(recorder)
        leases.refuseNext()
        let lookups = Self.leasing(leases)
        let first = Task { try await lookups.value(for: "a") }
        await Self.until { leases.waiting }
        let second = Task { try await lookups.value(for: "b") }
        await Self.until { lookups.pendingCount == 1 }
        leases.answerRefusal()
        await #expect(throws: Failure.self) { try await first.value }
        await Self.until { recorder.held == 1 }
        recorder.release()
        #expect(try await second.value == "value of b")
        #expect(recorder.batches == [["b"]])
        #expect(leases.granted == 1)
    }

    @Test("one lease serves at most batchesPerLease batches in a row")
    func leaseReuseIsBounded() async throws {
        let recorder = Recorder(known: ["a", "b", "c", "d"])
        let leases = Leases(recorder)
        let lookups = Self.leasing(leases, batchesPerLease: 2)
        let lined = await Self.lineUp(["a", "b", "c", "d"], in: lookups, recorder)
        await recorder.releaseUntil(batches: 4)
        for (lookup, key) in zip(lined, ["a", "b", "c", "d"]) { #expect(try await lookup.value == "value of \(key)") }
        #expect(leases.granted == 2)
    }

    @Test("a lookup with no batch running goes at once, alone; an unknown key is nil")
    func aloneAtOnce() async throws {
        let recorder = Recorder(known: ["a"])
        let lookups = Self.coalescer(recorder)
        let a = Task { try await lookups.value(for: "a") }
        await Self.until { recorder.held == 1 }
        recorder.release()
        #expect(try await a.value == "value of a")
        let b = Task { try await lookups.value(for: "nobody") }
        await Self.until { recorder.held == 1 }
        recorder.release()
        #expect(try await b.value == nil)
        #expect(recorder.batches == [["a"], ["nobody"]])
    }

    @Test("lookups that arrive while a batch runs share the next one, each getting its own answer")
    func laterLookupsShareTheNextBatch() async throws {
        let recorder = Recorder(known: ["a", "b", "d"])
        let lookups = Self.coalescer(recorder)
        let first = Task { try await lookups.value(for: "a") }
        await Self.until { recorder.held == 1 }
        // Arrive while the first batch is on its way: they must not join it, it has started.
        let later = ["b", "c", "d", "b"].map { key in Task { try await lookups.value(for: key) } }
        await Self.until { lookups.pendingCount == 4 }
        #expect(recorder.batches == [["a"]])
        recorder.release()
        #expect(try await first.value == "value of a")
        await Self.until { recorder.held == 1 }
        recorder.release()
        var answers: [String?] = []
        for lookup in later { answers.append(try await lookup.value) }
        #expect(answers == ["value of b", nil, "value of d", "value of b"])
        #expect(recorder.batches.count == 2)
        #expect(recorder.batches.last?.sorted() == ["b", "b", "c", "d"])
    }

    @Test("no batch takes more keys than its limit, and no more batches run at once than allowed")
    func boundsHold() async throws {
        let recorder = Recorder(known: ["k0", "k1", "k2", "k3", "k4", "k5", "k6"])
        let lookups = Self.coalescer(recorder, inFlight: 2, batch: 2)
        let firstTwo = (0..<2).map { n in Task { try await lookups.value(for: "k\(n)") } }
        await Self.until { recorder.held == 2 }
        let rest = (2..<7).map { n in Task { try await lookups.value(for: "k\(n)") } }
        await Self.until { lookups.pendingCount == 5 }
        #expect(recorder.held == 2)
        await recorder.releaseUntil(batches: 5)
        for (n, lookup) in (firstTwo + rest).enumerated() { #expect(try await lookup.value == "value of k\(n)") }
        #expect(recorder.batches.allSatisfy { $0.count <= 2 })
        #expect(recorder.batches.flatMap { $0 }.sorted() == (0..<7).map { "k\($0)" })
        #expect(lookups.pendingCount == 0)
    }

    @Test("a failed batch fails each of its lookups, and only those")
    func failureStaysInItsBatch() async throws {
        let recorder = Recorder(known: ["a", "b"])
        let lookups = Self.coalescer(recorder)
        let first = Task { try await lookups.value(for: "a") }
        await Self.until { recorder.held == 1 }
        let failing = ["b", "fail"].map { key in Task { try await lookups.value(for: key) } }
        await Self.until { lookups.pendingCount == 2 }
        recorder.release()
        #expect(try await first.value == "value of a")
        await Self.until { recorder.held == 1 }
        let after = Task { try await lookups.value(for: "b") }
        await Self.until { lookups.pendingCount == 1 }
        recorder.release()
        for lookup in failing { await #expect(throws: Failure.self) { try await lookup.value } }
        await Self.until { recorder.held == 1 }
        recorder.release()
        #expect(try await after.value == "value of b")
    }

    @Test("cancelling the request that started a batch does not cancel the lookups of others")
    func starterCancellationStaysItsOwn() async throws {
        let recorder = Recorder(known: ["a", "b", "c"])
        let lookups = Self.coalescer(recorder)
        let starter = Task { try await lookups.value(for: "a") }
        await Self.until { recorder.held == 1 }
        let others = ["b", "c"].map { key in Task { try await lookups.value(for: key) } }
        await Self.until { lookups.pendingCount == 2 }
        starter.cancel()
        recorder.release()
        await Self.until { recorder.held == 1 }
        recorder.release()
        #expect(try await others[0].value == "value of b")
        #expect(try await others[1].value == "value of c")
        #expect(recorder.sawCancellation == [false, false])
        _ = try? await starter.value
    }
}
