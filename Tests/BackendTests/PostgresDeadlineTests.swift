import AccountCore
import CMallocStatistics
import Synchronization
import Testing

@testable import PostgresBackend

/// Every PostgreSQL call waits for its pooled connection under `PostgresDeadline`; no server is
/// needed to check the deadline itself.
@Suite("PostgreSQL connection deadline", .timeLimit(.minutes(5)))
struct PostgresDeadlineTests {
    /// Timers the test fires by hand, in the order the call armed them, so no check depends
    /// on how busy the machine is.
    final class ManualTimer: Sendable {
        private let armed = AsyncStream<(milliseconds: Int, expire: @Sendable () -> Void)>.makeStream()

        var timer: PostgresDeadline.Timer {
            { [armed] milliseconds, expire in
                armed.continuation.yield((milliseconds, expire))
                return {}
            }
        }

        /// Waits until the call has armed its next timer, then lets it expire; returns how long
        /// that timer was set for.
        @discardableResult
        func fire() async -> Int? {
            var iterator = armed.stream.makeAsyncIterator()
            guard let next = await iterator.next() else { return nil }
            next.expire()
            return next.milliseconds
        }
    }

    /// A pool as a waiting call sees it: `probe`'s findings, the count of connections in use
    /// that `inUse` gives, and `afterProbe` told of each finding.
    struct FixedWatch: PoolWatch {
        let probe: ConnectionProbe
        let inUse: @Sendable () -> Int
        let afterProbe: @Sendable () -> Void

        init(
            _ probe: ConnectionProbe, inUse: @escaping @Sendable () -> Int = { 0 },
            afterProbe: @escaping @Sendable () -> Void = {}
        ) {
            self.probe = probe
            self.inUse = inUse
            self.afterProbe = afterProbe
        }

        func check() async -> ConnectionProbe.Finding { await probe.check() }
        var connectionsInUse: Int { inUse() }
        func noted(_ finding: ConnectionProbe.Finding, connectionsInUse: Int) { afterProbe() }
    }

    /// A call's outcome, typed; `body` waits for a connection that never comes.
    static func waitForever(
        milliseconds: Int, probe: ConnectionProbe?, connectionsInUse: Int = 0, timer: ManualTimer,
        afterProbe: @escaping @Sendable () -> Void = {}
    ) async -> Result<Int, any Error> {
        await waitForever(
            milliseconds: milliseconds,
            watch: probe.map { FixedWatch($0, inUse: { connectionsInUse }, afterProbe: afterProbe) }, timer: timer)
    }

    /// A call's outcome, typed, under `watch`; `body` waits for a connection that never comes.
    static func waitForever(
        milliseconds: Int, watch: (any PoolWatch)?, timer: ManualTimer
    ) async -> Result<Int, any Error> {
        do {
            return .success(
                try await PostgresDeadline.run(
                    milliseconds: milliseconds, location: "postgres://a@db:5432/x schema s", watch: watch,
                    timer: timer.timer
                ) { _ -> Int in
                    let (stream, _) = AsyncStream<Int>.makeStream()
                    for await _ in stream {}
                    throw CancellationError()
                })
        } catch {
            return .failure(error)
        }
    }

    /// The English message of a `store_io` outcome, or a recorded issue.
    static func storeIOMessage(_ outcome: Result<Int, any Error>) -> String? {
        switch outcome {
        case .success:
            Issue.record("a call without a connection succeeded")
        case .failure(let error as AccountError):
            #expect(error.code == "store_io")
            return error.message(.english)
        case .failure(let error):
            Issue.record("an untyped error: \(error)")
        }
        return nil
    }

    @Test("a call that gets no connection in time is store_io naming the wait, and its wait is cancelled")
    func noConnectionInTime() async throws {
        let manual = ManualTimer()
        let cancelled = AsyncStream<Bool>.makeStream()
        async let outcome: Result<Int, any Error> = {
            do {
                return .success(
                    try await PostgresDeadline.run(
                        milliseconds: 50, location: "postgres://a@db:5432/x schema s", timer: manual.timer
                    ) { _ -> Int in
                        // Waits for a connection that never comes, until it is cancelled.
                        let (stream, _) = AsyncStream<Int>.makeStream()
                        for await _ in stream {}
                        cancelled.continuation.yield(Task.isCancelled)
                        throw CancellationError()
                    })
            } catch {
                return .failure(error)
            }
        }()
        await manual.fire()
        switch await outcome {
        case .success: Issue.record("a call without a connection succeeded")
        case .failure(let error as AccountError):
            #expect(error.code == "store_io")
            #expect(error.message(.english).contains("no connection could be made within 50 ms"))
            #expect(error.message(.english).contains("postgres://a@db:5432/x"))
        case .failure(let error): Issue.record("an untyped error: \(error)")
        }
        var seen = cancelled.stream.makeAsyncIterator()
        #expect(await seen.next() == true, "the wait went on after the deadline")
    }

    @Test("a call that got its connection is not cut short when the deadline passes")
    func leasedWorkRunsToItsEnd() async throws {
        let manual = ManualTimer()
        let gotConnection = AsyncStream<Void>.makeStream()
        let release = AsyncStream<Void>.makeStream()
        async let answer = PostgresDeadline.run(milliseconds: 50, location: "here", timer: manual.timer) { leased in
            leased()
            gotConnection.continuation.yield()
            for await _ in release.stream { break }
            return Task.isCancelled ? -1 : 42
        }
        var connected = gotConnection.stream.makeAsyncIterator()
        _ = await connected.next()
        await manual.fire()
        release.continuation.yield()
        #expect(try await answer == 42, "the work was cancelled or its answer lost")
    }

    @Test("calls answered in time leave nothing behind until their deadline would have passed")
    func answeredCallsHoldNothing() async throws {
        func bytesInUse() -> Int { Int(malloc_statistics_bytes_in_use()) }
        // The real timer, an hour long, so that a busy machine never lets one expire.
        let hour = 3_600_000
        for n in 0..<1_000 {
            _ = try await PostgresDeadline.run(milliseconds: hour, location: "here") { leased in
                leased()
                return n
            }
        }
        let before = bytesInUse()
        var sum = 0
        for n in 0..<50_000 {
            sum &+= try await PostgresDeadline.run(milliseconds: hour, location: "here") { leased in
                leased()
                return n
            }
        }
        let grown = bytesInUse() - before
        #expect(sum == 49_999 * 50_000 / 2)
        // `Task.sleep` as the timer kept about 1.4 KB per call queued until the deadline: 68 MiB
        // for these 50,000; the event loop's timer leaves under 1 MiB.
        #expect(grown < 12 << 20, "50,000 answered calls left \(grown >> 20) MiB behind")
    }

    @Test("a refusal that waiting cannot mend ends the wait as soon as the probe finds it")
    func lastingRefusalEndsTheWait() async throws {
        let manual = ManualTimer()
        let probe = ConnectionProbe {
            .unreachable(
                reason: "password authentication failed for user \"a\" (SQLSTATE 28P01)", waitingCanHelp: false)
        }
        async let outcome = Self.waitForever(milliseconds: 10_000, probe: probe, timer: manual)
        #expect(await manual.fire() == 500, "the probe's timer is the first, at half a second")
        // The deadline's timer is armed, but never fired: the probe's finding alone ends the call.
        let message = Self.storeIOMessage(await outcome) ?? ""
        #expect(message.contains("postgres://a@db:5432/x"))
        #expect(message.contains("cannot connect: password authentication failed for user \"a\" (SQLSTATE 28P01)"))
        #expect(!message.contains("within"), "it says the call waited out a deadline it did not: \(message)")
    }

    @Test("the same refusal does not end the wait while other calls hold connections: one will come free")
    func lastingRefusalWithConnectionsInUse() async throws {
        let manual = ManualTimer()
        let probed = AsyncStream<Void>.makeStream()
        let probe = ConnectionProbe {
            .unreachable(
                reason: "password authentication failed for user \"a\" (SQLSTATE 28P01)", waitingCanHelp: false)
        }
        async let outcome = Self.waitForever(
            milliseconds: 10_000, probe: probe, connectionsInUse: 3, timer: manual,
            afterProbe: { probed.continuation.yield() })
        #expect(await manual.fire() == 500)
        var recorded = probed.stream.makeAsyncIterator()
        _ = await recorded.next()
        #expect(await manual.fire() == 9_500)
        let message = Self.storeIOMessage(await outcome) ?? ""
        #expect(
            message.hasSuffix(
                "no connection could be made within 10000 ms; connecting fails: password authentication failed for user \"a\" (SQLSTATE 28P01)"
            ), "\(message)")
    }

    @Test(
        "a wait that runs out says what the probe found, and whether other calls held connections",
        arguments: [
            (
                ConnectionProbe.Finding.unreachable(
                    reason: "cannot connect to 127.0.0.1:5432: Connection refused", waitingCanHelp: true),
                0,
                "no connection could be made within 10000 ms; connecting fails: cannot connect to 127.0.0.1:5432: Connection refused"
            ),
            (
                .reachable, 3,
                "no pooled connection came free within 10000 ms; the server accepts connections, so all of the pool's (postgres.pool_size) were busy"
            ),
            (
                .reachable, 0,
                "no connection could be made within 10000 ms; the server accepts connections, but the pool had none open and was waiting to try again"
            ),
        ])
    func findingNamedAtTheDeadline(finding: ConnectionProbe.Finding, inUse: Int, expected: String) async throws {
        let manual = ManualTimer()
        let probed = AsyncStream<Void>.makeStream()
        let probe = ConnectionProbe { finding }
        async let outcome = Self.waitForever(
            milliseconds: 10_000, probe: probe, connectionsInUse: inUse, timer: manual,
            afterProbe: { probed.continuation.yield() })
        #expect(await manual.fire() == 500)
        var recorded = probed.stream.makeAsyncIterator()
        _ = await recorded.next()
        #expect(await manual.fire() == 9_500, "the deadline's timer covers the rest of the wait")
        let message = Self.storeIOMessage(await outcome) ?? ""
        #expect(message.hasSuffix("postgres://a@db:5432/x schema s: \(expected)"), "\(message)")
    }

    @Test("a pool with no connection in use at the probe that gave one out by the deadline was busy")
    func connectionGivenOutAfterTheProbe() async throws {
        // A pool slow to open its first connection on a busy machine: the probe came first,
        // then the connection went to another call, which held it past this call's deadline.
        let manual = ManualTimer()
        let probed = AsyncStream<Void>.makeStream()
        let inUse = Atomic<Int>(0)
        let watch = FixedWatch(
            ConnectionProbe { .reachable }, inUse: { inUse.load(ordering: .relaxed) },
            afterProbe: { probed.continuation.yield() })
        async let outcome = Self.waitForever(milliseconds: 10_000, watch: watch, timer: manual)
        #expect(await manual.fire() == 500)
        var recorded = probed.stream.makeAsyncIterator()
        _ = await recorded.next()
        inUse.store(1, ordering: .relaxed)
        #expect(await manual.fire() == 9_500)
        let message = Self.storeIOMessage(await outcome) ?? ""
        #expect(
            message.hasSuffix(
                "no pooled connection came free within 10000 ms; the server accepts connections, so all of the pool's (postgres.pool_size) were busy"
            ), "\(message)")
    }

    @Test("a wait that runs out before the probe has an answer says so")
    func probeWithoutAnswer() async throws {
        let manual = ManualTimer()
        let (never, _) = AsyncStream<ConnectionProbe.Finding>.makeStream()
        let probe = ConnectionProbe {
            for await finding in never { return finding }
            return .reachable
        }
        async let outcome = Self.waitForever(milliseconds: 1_000, probe: probe, timer: manual)
        #expect(await manual.fire() == 500)
        #expect(await manual.fire() == 500)
        let message = Self.storeIOMessage(await outcome) ?? ""
        #expect(
            message.hasSuffix(
                "no connection could be made within 1000 ms, nor did a connection attempt of its own finish"))
    }

    @Test("a call that gets its connection before the probe's delay never asks it")
    func leasedCallsDoNotProbe() async throws {
        let attempts = Atomic<Int>(0)
        let probe = ConnectionProbe {
            attempts.add(1, ordering: .relaxed)
            return .reachable
        }
        let manual = ManualTimer()
        for n in 0..<100 {
            let answer = try await PostgresDeadline.run(
                milliseconds: 10_000, location: "here", watch: FixedWatch(probe), timer: manual.timer
            ) { leased in
                leased()
                return n
            }
            #expect(answer == n)
        }
        // Every call armed only the probe's timer; firing one late finds the call long done.
        #expect(await manual.fire() == 500)
        #expect(attempts.load(ordering: .relaxed) == 0)
    }
}
