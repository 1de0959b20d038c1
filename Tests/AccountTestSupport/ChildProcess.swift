import ChildProcessSupport
package import Foundation
import StoreSupport

/// A child process whose standard output and error the test captures: started, then finished —
/// its input written, both outputs read to their end side by side, its exit waited for — off
/// Swift's cooperative pool (`ChildProcessWaits.swift` says why).
///
/// Reading the two pipes side by side is what keeps a child that fills one of them while the
/// other is read from hanging the test. Several children may be started before any is finished.
package struct ChildProcess: Sendable {
    /// How the child ended and what it printed.
    package struct Outcome: Sendable {
        /// The exit status, or the signal's number when `reason` is `.uncaughtSignal`.
        package let status: Int32
        package let reason: Process.TerminationReason
        package let standardOutput: String
        package let standardError: String
    }

    /// The running child, for its `processIdentifier` or a signal.
    package let process: Process
    private let input: Pipe?
    private let inputBytes: Data
    private let output = Pipe()
    private let errors = Pipe()

    /// Starts `executable` with `arguments`, in `directory` when given. `environment`, when given,
    /// replaces this process's. `input` is written to the child's standard input when it is
    /// finished; without it, the child reads the null device, so it can never wait for a terminal.
    package init(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, directory: String? = nil,
        input: Data? = nil
    ) throws {
        Self.ignoreBrokenPipes()
        process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        self.input = input.map { _ in Pipe() }
        inputBytes = input ?? Data()
        process.standardInput = self.input ?? FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = errors
        try process.run()
    }

    /// Makes this process ignore SIGPIPE, once. Input written to a child that has already exited
    /// must fail the write with EPIPE (which `writeToChildAndClose` expects), not kill the whole
    /// test process. Whether SwiftNIO had already set this depended on which tests ran first.
    package static func ignoreBrokenPipes() { _ = brokenPipesIgnored }
    private static let brokenPipesIgnored: Void = { signal(SIGPIPE, SIG_IGN) }()

    /// Writes the input, reads both outputs to their end and waits for the child to exit, for at
    /// most `limit` (`Process.finishing(within:_:)` says why there is one).
    package func finish(within limit: Duration = .seconds(600)) async throws -> Outcome {
        try await process.finishing(within: limit) { try await self.collect() }
    }

    /// What `finish` waits for, without a bound.
    private func collect() async throws -> Outcome {
        async let printed = output.fileHandleForReading.readToEndOfFile()
        async let complained = errors.fileHandleForReading.readToEndOfFile()
        if let input {
            // Written off the pool too: a child that does not read its input blocks the write.
            try await SerialIOQueue(label: "stdin of pid \(process.processIdentifier)").run { [inputBytes] in
                try input.fileHandleForWriting.writeToChildAndClose(inputBytes)
            }
        }
        let (out, err) = await (printed, complained)
        let status = await process.exitStatus()
        return Outcome(
            status: status, reason: process.terminationReason, standardOutput: String(decoding: out, as: UTF8.self),
            standardError: String(decoding: err, as: UTF8.self))
    }

    /// Starts the child and finishes it.
    package static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, directory: String? = nil,
        input: Data? = nil
    ) async throws -> Outcome {
        try await ChildProcess(executable, arguments, environment: environment, directory: directory, input: input)
            .finish()
    }
}
