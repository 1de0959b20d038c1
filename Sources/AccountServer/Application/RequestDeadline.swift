import NIOCore
import NIOPosix
import Synchronization

/// How long a request that checks or sets a password may take, waiting for a hashing slot
/// included: past it the client gets 503 `request_timeout` at once, while the work goes on to
/// its end (a store write is never cut in half), so the answer says it may still take effect.
public struct RequestDeadline: Sendable {
    /// Starts the clock for one request: calls `expire` once the deadline passes, unless the
    /// returned function (the work finished first) is called before.
    let arm: @Sendable (_ expire: @escaping @Sendable () -> Void) -> @Sendable () -> Void

    /// A deadline `seconds` after each request starts.
    ///
    /// The timer is a task scheduled on one of SwiftNIO's event loops, which cancelling removes
    /// at once. `Task.sleep` would not do: cancelling it resumes the sleeper, but leaves a task
    /// queued in Dispatch until the time asked for — about 1.4 KB of the heap per request, held
    /// for the whole deadline, which under 500 concurrent logins (15,000 answers a second, most
    /// of them 503) grew the server from 140 to 525 MiB in a minute.
    public static func seconds(_ seconds: Int) -> RequestDeadline {
        RequestDeadline { expire in
            let scheduled = MultiThreadedEventLoopGroup.singleton.any().scheduleTask(in: .seconds(Int64(seconds))) {
                expire()
            }
            return { scheduled.cancel() }
        }
    }

    /// A deadline that passes when `expiry` returns (tests pass one they control).
    public init(expiry: @escaping @Sendable () async throws -> Void) {
        arm = { expire in
            let timer = Task {
                do { try await expiry() } catch { return }
                expire()
            }
            return { timer.cancel() }
        }
    }

    private init(arm: @escaping @Sendable (_ expire: @escaping @Sendable () -> Void) -> @Sendable () -> Void) {
        self.arm = arm
    }

    /// Runs `body` to its end in a task of its own; answers with its result, or with
    /// ``RequestTimedOut`` when the deadline passes first.
    func run<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let answer = FirstAnswer(continuation)
            let disarm = arm { answer.resume(with: .failure(RequestTimedOut())) }
            // Not a child of the request's task: a client that goes away must not cut a store
            // write in half.
            Task {
                let result: Result<T, any Error>
                do { result = .success(try await body()) } catch { result = .failure(error) }
                disarm()
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
