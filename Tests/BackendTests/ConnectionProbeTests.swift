import Synchronization
import Testing

@testable import PostgresBackend

/// The probe opens one connection for all the calls waiting at a time; no server is needed to
/// check how it shares and ages its findings.
@Suite("PostgreSQL connection probe", .timeLimit(.minutes(5)))
struct ConnectionProbeTests {
    /// A clock the test moves by hand.
    final class ManualClock: Sendable {
        private let instant = Mutex(ContinuousClock.now)
        var now: @Sendable () -> ContinuousClock.Instant { { [self] in instant.withLock { $0 } } }
        func advance(by duration: Duration) { instant.withLock { $0 += duration } }
    }

    /// An attempt that counts itself and answers only when the test releases it.
    final class HeldAttempt: Sendable {
        let count = Atomic<Int>(0)
        private let started = AsyncStream<Void>.makeStream()
        private let release = AsyncStream<ConnectionProbe.Finding>.makeStream()

        var attempt: ConnectionProbe.Attempt {
            { [self] in
                count.add(1, ordering: .relaxed)
                started.continuation.yield()
                for await finding in release.stream { return finding }
                return .reachable
            }
        }

        func waitUntilStarted() async {
            var iterator = started.stream.makeAsyncIterator()
            _ = await iterator.next()
        }

        func answer(_ finding: ConnectionProbe.Finding) { release.continuation.yield(finding) }
    }

    @Test("checks made while an attempt runs share it; its finding answers for a second, then a new one runs")
    func sharedAndAged() async throws {
        let clock = ManualClock()
        let held = HeldAttempt()
        let probe = ConnectionProbe(freshFor: .seconds(1), now: clock.now, attempt: held.attempt)
        let refused = ConnectionProbe.Finding.unreachable(reason: "connection refused", waitingCanHelp: true)

        let findings = await withTaskGroup(of: ConnectionProbe.Finding.self) { group in
            for _ in 0..<8 { group.addTask { await probe.check() } }
            await held.waitUntilStarted()
            held.answer(refused)
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(findings == Array(repeating: refused, count: 8))
        #expect(held.count.load(ordering: .relaxed) == 1, "concurrent checks each opened a connection")

        clock.advance(by: .milliseconds(900))
        #expect(await probe.check() == refused)
        #expect(held.count.load(ordering: .relaxed) == 1, "a finding under a second old was not reused")

        clock.advance(by: .milliseconds(200))
        async let fresh = probe.check()
        await held.waitUntilStarted()
        held.answer(.reachable)
        #expect(await fresh == .reachable)
        #expect(held.count.load(ordering: .relaxed) == 2, "an old finding answered without a new attempt")
    }
}
