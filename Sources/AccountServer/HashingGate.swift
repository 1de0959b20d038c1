import Dispatch
import Foundation
import Synchronization

/// Runs the requests that hash a password (Argon2id, 19 MiB and tens of milliseconds each) with
/// bounded concurrency, on threads of their own: at most `concurrency` at once, at most
/// `queueLimit` waiting, and any further one refused at once with ``ServerBusy`` instead of
/// growing memory. Reads never wait here, and the threads that serve them are never blocked by
/// a hash.
public final class HashingGate: Sendable {
    private struct State {
        var running = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
        var rejected = 0
    }

    /// Computations at once.
    public let concurrency: Int
    /// Requests that may wait for a slot.
    public let queueLimit: Int
    private let state = Mutex(State())
    private let executor = HashingExecutor()

    /// - Parameters:
    ///   - concurrency: computations at once (0: one per core).
    ///   - queueLimit: requests that may wait for a slot.
    public init(concurrency: Int, queueLimit: Int) {
        self.concurrency = concurrency > 0 ? concurrency : max(1, ProcessInfo.processInfo.activeProcessorCount)
        self.queueLimit = queueLimit
    }

    /// Requests waiting for a slot now.
    public var queueDepth: Int { state.withLock { $0.waiting.count } }
    /// Requests holding a slot now.
    public var inProgress: Int { state.withLock { $0.running } }
    /// Requests refused because the queue was full, since start.
    public var rejections: Int { state.withLock { $0.rejected } }

    /// Runs `body` once a slot is free, on the hashing threads.
    /// - Throws: ``ServerBusy`` when every slot is taken and the queue is full; else what
    ///   `body` throws.
    public func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await acquire()
        defer { release() }
        return try await withTaskExecutorPreference(executor) { try await body() }
    }

    private func acquire() async throws(ServerBusy) {
        enum Decision { case run, wait, refuse }
        let decision = state.withLock { state -> Decision in
            if state.running < concurrency {
                state.running += 1
                return .run
            }
            if state.waiting.count < queueLimit { return .wait }
            state.rejected += 1
            return .refuse
        }
        switch decision {
        case .run: return
        case .refuse: throw ServerBusy(retryAfterSeconds: 1)
        case .wait:
            await withCheckedContinuation { continuation in
                let runNow = state.withLock { state -> Bool in
                    // A slot may have been freed since the decision above.
                    if state.running < concurrency {
                        state.running += 1
                        return true
                    }
                    state.waiting.append(continuation)
                    return false
                }
                if runNow { continuation.resume() }
            }
        }
    }

    private func release() {
        // A waiter takes the slot over, so `running` stays as it is.
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiting.isEmpty {
                state.running -= 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}

/// The hashing requests' threads: a Dispatch queue of its own, so the cooperative pool and the
/// event loops that serve every other request stay free while Argon2id runs.
final class HashingExecutor: TaskExecutor {
    private let queue = DispatchQueue(label: "accounts.hashing", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}

/// Every hashing slot is taken and the queue is full: 503 with `Retry-After`.
public struct ServerBusy: Error, Sendable {
    /// When to try again.
    public let retryAfterSeconds: Int64
}
