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
        while recorder.batches.count < 5 || recorder.held > 0 {
            recorder.release()
            await Task.yield()
        }
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
