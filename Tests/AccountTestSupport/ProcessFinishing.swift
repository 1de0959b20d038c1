package import ChildProcesses
import Foundation

extension SpawnedProcess {
    /// `wait`'s result — a wait for this process's end, its output or both — for at most `limit`.
    ///
    /// A wait that cannot end would hang the whole test run: Swift Testing's time limit cancels a
    /// test's task, and a thread blocked in `waitUntilExit` ignores that. So this stops waiting
    /// after `limit`, or when its task is cancelled, kills the process if it still runs, and
    /// throws `Overran`. The wait it gave up on stays blocked on its own thread until the
    /// process's pipes close.
    package func finishing<T: Sendable>(
        within limit: Duration, _ wait: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let reason: Overran.Reason
        switch try await FirstToEnd.result(of: wait, within: limit) {
        case .finished(let result): return result
        case .timedOut: reason = .limitPassed
        case .cancelled: reason = .cancelled
        }
        let exited = !isRunning
        // Sent only while the process is not reaped, so never to another that took its pid.
        if !exited { signal(SIGKILL) }
        let name = ([URL(fileURLWithPath: command[0]).lastPathComponent] + command.dropFirst()).joined(separator: " ")
        throw Overran(
            command: String(name.prefix(200)), pid: processIdentifier, reason: reason, exited: exited,
            waited: "\(limit)")
    }

    /// The process had not ended when `finishing` stopped waiting for it.
    package struct Overran: Error, CustomStringConvertible {
        /// Why `finishing` stopped waiting.
        package enum Reason: Sendable, Equatable {
            /// The limit passed; `waited` says how long it was.
            case limitPassed
            /// The test's task was cancelled (by Swift Testing's time limit, say).
            case cancelled
        }
        package let command: String
        package let pid: Int32
        package let reason: Reason
        /// Whether the process itself had exited: then something it started still holds a pipe
        /// it inherited, and the end of its output cannot be seen.
        package let exited: Bool
        package let waited: String
        package var description: String {
            let stopped = reason == .cancelled ? "when the wait was cancelled" : "after \(waited)"
            return exited
                ? "\(command) (pid \(pid)) exited, but \(stopped) its output or its exit was still not seen: "
                    + "a process it started holds a descriptor it inherited (close them in the child, as "
                    + "scripts/postgres-test-server.sh does for the server it starts)"
                : "\(command) (pid \(pid)) was still running \(stopped), and was killed"
        }
    }
}
