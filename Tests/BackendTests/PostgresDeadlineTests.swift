import AccountCore
import CMallocStatistics
import Synchronization
import Testing

@testable import PostgresBackend

/// Every PostgreSQL call waits for its pooled connection under `PostgresDeadline`; no server is
/// needed to check the deadline itself.
@Suite("PostgreSQL connection deadline", .timeLimit(.minutes(5)))
struct PostgresDeadlineTests {
    /// A timer the test fires by hand, so no check depends on how busy the machine is.
    final class ManualTimer: Sendable {
        private let expire = Mutex<(@Sendable () -> Void)?>(nil)
        private let armed = AsyncStream<Void>.makeStream()

        var timer: PostgresDeadline.Timer {
            { [self] _, expire in
                self.expire.withLock { $0 = expire }
                armed.continuation.yield()
                return {}
            }
        }

        /// Waits until the call has armed the timer, then lets it expire.
        func fire() async {
            var iterator = armed.stream.makeAsyncIterator()
            _ = await iterator.next()
            expire.withLock { $0 }?()
        }
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
}
