package import ChildProcesses
import DurableFiles
package import Foundation

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
        package let reason: SpawnedProcess.TerminationReason
        package let standardOutput: String
        package let standardError: String
    }

    /// The running child, for its `processIdentifier` or a signal.
    package let process: SpawnedProcess
    /// The write end of the child's input, when it has input.
    private let input: FileHandle?
    private let inputBytes: Data
    /// The read ends of its output and its errors.
    private let output: FileHandle
    private let errors: FileHandle

    /// Starts `executable` with `arguments`, in `directory` when given. `environment`, when given,
    /// replaces this process's. `input` is written to the child's standard input when it is
    /// finished; without it, the child reads the null device, so it can never wait for a terminal.
    package init(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, directory: String? = nil,
        input: Data? = nil
    ) throws {
        Self.ignoreBrokenPipes()
        let inputPipe = try input.map { _ in try FileHandle.closeOnExecPipe() }
        let outputPipe = try FileHandle.closeOnExecPipe()
        let errorPipe = try FileHandle.closeOnExecPipe()
        process = try SpawnedProcess(
            executable, arguments, environment: environment, directory: directory,
            standardInput: inputPipe.map { .descriptor($0.read.fileDescriptor) } ?? .nullDevice,
            standardOutput: .descriptor(outputPipe.write.fileDescriptor),
            standardError: .descriptor(errorPipe.write.fileDescriptor))
        // The child has its own copies now: the ends left here are what ends its reads and writes.
        try inputPipe?.read.close()
        try outputPipe.write.close()
        try errorPipe.write.close()
        self.input = inputPipe?.write
        inputBytes = input ?? Data()
        output = outputPipe.read
        errors = errorPipe.read
    }

    /// Makes this process ignore SIGPIPE, once. Input written to a child that has already exited
    /// must fail the write with EPIPE (which `writeToChildAndClose` expects), not kill the whole
    /// test process. Whether SwiftNIO had already set this depended on which tests ran first.
    package static func ignoreBrokenPipes() { _ = brokenPipesIgnored }
    private static let brokenPipesIgnored: Void = { signal(SIGPIPE, SIG_IGN) }()

    /// Writes the input, reads both outputs to their end and waits for the child to exit, for at
    /// most `limit` (`SpawnedProcess.finishing(within:_:)` says why there is one).
    package func finish(within limit: Duration = .seconds(600)) async throws -> Outcome {
        try await process.finishing(within: limit) { try await self.collect() }
    }

    /// What `finish` waits for, without a bound.
    private func collect() async throws -> Outcome {
        async let printed = output.readToEndOfFile()
        async let complained = errors.readToEndOfFile()
        if let input {
            // Written off the pool too: a child that does not read its input blocks the write.
            try await SerialIOQueue(label: "stdin of pid \(process.processIdentifier)").run { [inputBytes] in
                try input.writeToChildAndClose(inputBytes)
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
