import Dispatch

/// Runs blocking file and database work on a private serial thread, off Swift's cooperative pool.
///
/// Waiting for an `flock` or an `fsync` must not pin one of the few cooperative threads; a
/// backend hops here for every call and resumes the caller when the work is done. Work on one
/// queue runs one item at a time, which also serialises a repository's in-process callers.
public final class SerialIOQueue: Sendable {
    private let queue: DispatchQueue

    /// Creates a queue; `label` shows in debuggers.
    public init(label: String) {
        queue = DispatchQueue(label: label)
    }

    /// Runs `work` on the queue and returns its result, rethrowing its error.
    public func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { try work() })
            }
        }
    }
}
