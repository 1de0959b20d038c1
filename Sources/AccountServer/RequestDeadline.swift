import Synchronization

/// How long a request that checks or sets a password may take, waiting for a hashing slot
/// included: past it the client gets 503 `request_timeout` at once, while the work goes on to
/// its end (a store write is never cut in half), so the answer says it may still take effect.
public struct RequestDeadline: Sendable {
    /// Returns when the deadline has passed (or throws when cancelled).
    let expiry: @Sendable () async throws -> Void

    /// A deadline `seconds` after each request starts.
    public static func seconds(_ seconds: Int) -> RequestDeadline {
        RequestDeadline { try await Task.sleep(for: .seconds(seconds)) }
    }

    /// A deadline that passes when `expiry` returns (tests pass one they control).
    public init(expiry: @escaping @Sendable () async throws -> Void) {
        self.expiry = expiry
    }

    /// Runs `body` to its end in a task of its own; answers with its result, or with
    /// ``RequestTimedOut`` when the deadline passes first.
    func run<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let work = Task { try await body() }
        let expiry = expiry
        return try await withCheckedThrowingContinuation { continuation in
            let answer = FirstAnswer(continuation)
            let timer = Task {
                do { try await expiry() } catch { return }
                answer.resume(with: .failure(RequestTimedOut()))
            }
            Task {
                let result = await work.result
                timer.cancel()
                answer.resume(with: result)
            }
        }
    }
}

/// The request outlived its deadline; its work may still complete.
public struct RequestTimedOut: Error, Sendable {}

/// A continuation resumed by whichever of the work and the timer comes first; the other's
/// resume does nothing.
private final class FirstAnswer<T: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<T, any Error>?>

    init(_ continuation: CheckedContinuation<T, any Error>) {
        self.continuation = Mutex(continuation)
    }

    func resume(with result: Result<T, any Error>) {
        continuation.withLock { $0.take() }?.resume(with: result)
    }
}
