import Synchronization

/// Races work against a time limit and returns as soon as either ends, without waiting for the
/// other. A task group cannot do that: it waits for every child, and work blocked on a thread of
/// its own (a child process's exit, a pipe's end) does not end when cancelled.
enum FirstToEnd {
    /// What ended first.
    enum Ending<T: Sendable>: Sendable {
        case finished(T)
        /// The limit passed with the work still running.
        case timedOut
        /// The calling task was cancelled with the work still running.
        case cancelled
    }

    /// `work`'s result, or why it was not waited for any longer. The work runs on in the
    /// background until it ends by itself.
    static func result<T: Sendable>(
        of work: @escaping @Sendable () async throws -> T, within limit: Duration
    ) async throws -> Ending<T> {
        let gate = Gate<Ending<T>>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                gate.wait(continuation)
                let timer = Task {
                    guard (try? await Task.sleep(for: limit)) != nil else { return }
                    gate.end(.success(.timedOut))
                }
                Task {
                    let result: Result<Ending<T>, any Error>
                    do { result = .success(.finished(try await work())) } catch { result = .failure(error) }
                    timer.cancel()
                    gate.end(result)
                }
            }
        } onCancel: {
            gate.end(.success(.cancelled))
        }
    }

    /// One continuation, resumed by whichever end comes first; an end that comes before the
    /// continuation (a task cancelled already) is kept for it.
    private final class Gate<Value: Sendable>: Sendable {
        private struct State {
            var continuation: CheckedContinuation<Value, any Error>?
            var outcome: Result<Value, any Error>?
        }
        private let state = Mutex(State())

        func wait(_ continuation: CheckedContinuation<Value, any Error>) {
            let ended = state.withLock { state in
                if state.outcome == nil { state.continuation = continuation }
                return state.outcome
            }
            if let ended { continuation.resume(with: ended) }
        }

        func end(_ outcome: Result<Value, any Error>) {
            let waiting = state.withLock { state -> CheckedContinuation<Value, any Error>? in
                guard state.outcome == nil else { return nil }
                state.outcome = outcome
                defer { state.continuation = nil }
                return state.continuation
            }
            waiting?.resume(with: outcome)
        }
    }
}
