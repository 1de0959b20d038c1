import Dispatch

/// Runs blocking file and database work on a private serial thread, off Swift's cooperative pool.
///
/// Waiting for an `flock`, a busy database or an `fsync` must not pin one of the few cooperative
/// threads, so a backend hops here for the work that can wait: the JSON backend for every call,
/// LMDB for opening and closing (its writer lock has no timeout to try it with), and SQLite and
/// LMDB for a write that finds the store in use, SQLite also for an open or a close that does
/// (the uncontended ones, and reads, run on the caller's thread). Work on one queue runs one
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

    /// Runs `work` on the queue and returns its result, rethrowing its error. The result is
    /// `sending`, so a value made on the queue (an open connection) can be handed to its owner.
    public func run<T>(_ work: @escaping @Sendable () throws -> sending T) async throws -> sending T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                do {
                    continuation.resume(returning: try work())
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }
}
