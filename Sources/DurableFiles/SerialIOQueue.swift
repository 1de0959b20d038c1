import Dispatch

/// Runs blocking work on a private serial thread, off Swift's cooperative pool.
///
/// Waiting for an `flock`, a busy database, an `fsync` or a child process must not pin one of
/// the few cooperative threads. A backend hops here for the work that can wait: the JSON
/// backend for every call, LMDB for opening and closing (its writer lock has no timeout to try
/// it with), and SQLite and LMDB for a write that finds the store in use, SQLite also for an
/// open or a close that does (the uncontended ones, and reads, run on the caller's thread);
/// the conformance suite waits here for the processes it starts. Work on one queue runs one
/// item at a time, which also serialises the calls a repository sends here.
public final class SerialIOQueue: Sendable {
    private let queue: DispatchQueue

    /// Creates a queue; `label` shows in debuggers.
    public init(label: String) {
        queue = DispatchQueue(label: label)
    }

    /// Stops the process when called off this queue: state confined to the queue is checked at
    /// run time, as GRDB checks its connections' confinement.
    public func checkOnQueue() {
        dispatchPrecondition(condition: .onQueue(queue))
    }

    /// Runs `work` on the queue and returns its result, rethrowing its error (a `work` that
    /// cannot throw makes a call that cannot either). The result is `sending`, so a value made
    /// on the queue (an open connection) can be handed to its owner.
    public func run<T, Failure: Error>(
        _ work: @escaping @Sendable () throws(Failure) -> sending T
    ) async throws(Failure) -> sending T {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, Failure>, Never>) in
            queue.async {
                continuation.resume(returning: Result { () throws(Failure) -> T in try work() })
            }
        }
        return try result.get()
    }
}
