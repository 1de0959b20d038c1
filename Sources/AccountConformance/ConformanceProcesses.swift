import ChildProcesses
import DurableFiles
import Foundation

/// How the suite reaches a store from other processes, for its multi-process checks: a way to
/// start one process that opens the store at a location (creating it when it is missing) and
/// signs up one user there. The suite cannot start a backend by itself in another process, so
/// the program running it says how — `accounts verify` runs itself, tests run their `accounts`.
public struct ConformanceProcesses: Sendable {
    /// Starts the process for user number `n` and waits for it; returns its exit status and what
    /// it printed.
    public let signUp: @Sendable (_ location: String, _ n: Int) async throws -> (status: Int32, output: String)

    /// Describes how to start the processes.
    public init(
        signUp: @escaping @Sendable (_ location: String, _ n: Int) async throws -> (status: Int32, output: String)
    ) {
        self.signUp = signUp
    }

    /// Runs `accounts signup` (the executable at `executable`) with `--backend backend --store
    /// LOCATION`; the backend's other settings come from `environment` and `arguments` (a
    /// `--config`). Argon2id runs at libsodium's minimum, as the check is not about hashing.
    public static func accounts(
        executable: String, backend: String, arguments: [String] = [], environment: [String: String],
        scratch: String
    ) -> ConformanceProcesses {
        ConformanceProcesses { location, n in
            let input = try FileHandle.closeOnExecPipe()
            let output = try FileHandle.closeOnExecPipe()
            let process = try SpawnedProcess(
                executable,
                [
                    "signup", "--backend", backend, "--store", location, "--email", "racer\(n)abc@example.com",
                    "--nickname", "racer \(n)", "--password-stdin", "--session-file", scratch + "/session-\(n)",
                ] + arguments,
                environment: environment.merging([
                    "ACCOUNTS_HASHING_OPS_LIMIT": "1", "ACCOUNTS_HASHING_MEM_LIMIT_KIB": "8",
                ]) { $1 },
                standardInput: .descriptor(input.read.fileDescriptor),
                standardOutput: .descriptor(output.write.fileDescriptor),
                standardError: .descriptor(output.write.fileDescriptor))
            // The child has its own copies now.
            try input.read.close()
            try output.write.close()
            // The waits block: on a thread of their own, not one of the few cooperative threads
            // the suite's other checks run on.
            return try await SerialIOQueue(label: "conformance sign-up \(n)").run {
                try input.write.writeToChildAndClose(Data("Tangerine-Kayak-42\nTangerine-Kayak-42\n".utf8))
                let printed = output.read.readDataToEndOfFile()
                process.waitUntilExit()
                return (process.terminationStatus, String(decoding: printed, as: UTF8.self))
            }
        }
    }
}
