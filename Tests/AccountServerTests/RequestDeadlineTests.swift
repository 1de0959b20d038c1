import CMallocStatistics
import Testing

@testable import AccountServer

/// Every login, sign-up, password change and withdrawal runs under a ``RequestDeadline``; under
/// a burst of them (500 concurrent logins answer ~15,000 a second, most of them 503) the
/// deadlines of requests that are already answered must not pile up until they would expire.
@Suite("Request deadlines", .timeLimit(.minutes(5)))
struct RequestDeadlineTests {
    /// Bytes malloc has handed out and not taken back (small blocks: Swift's tasks and closures).
    static func bytesInUse() -> Int { Int(malloc_statistics_bytes_in_use()) }

    @Test("deadlines of requests answered in time hold no memory until they would have expired")
    func answeredDeadlinesHoldNothing() async throws {
        // An hour, so that a busy machine never lets one expire.
        let deadline = RequestDeadline.seconds(3_600)
        for n in 0..<1_000 { _ = try await deadline.run { n } }
        let before = Self.bytesInUse()
        var sum = 0
        for n in 0..<50_000 { sum &+= try await deadline.run { n } }
        let grown = Self.bytesInUse() - before
        #expect(sum == 49_999 * 50_000 / 2, "every run answers with its own work's result")
        // A timer left armed costs about 1.4 KB (Swift's `Task.sleep` keeps a task
        // queued until the time it was asked for, cancelled or not): 50,000 of them left 67 MiB;
        // the event loop's timer leaves under 1 MiB. Other suites allocate meanwhile, so the
        // bound leaves them room.
        #expect(grown < 12 << 20, "50,000 answered requests left \(grown >> 20) MiB behind")
    }

    @Test("a real deadline that passes answers RequestTimedOut while the work goes on to its end")
    func passedDeadline() async throws {
        let deadline = RequestDeadline.seconds(0)
        let release = AsyncStream<Void>.makeStream()
        let finished = AsyncStream<Int>.makeStream()
        await #expect(throws: RequestTimedOut.self) {
            try await deadline.run {
                for await _ in release.stream { break }
                finished.continuation.yield(7)
                return 7
            }
        }
        release.continuation.yield()
        var iterator = finished.stream.makeAsyncIterator()
        #expect(await iterator.next() == 7, "the work was not cut short")
    }
}
