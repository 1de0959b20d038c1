import AccountTestSupport
import ChildProcesses
import DurableFiles
import Foundation
import Testing

/// A real `accounts serve` process on a free loopback port, in a CLIRunner's sandbox.
final class ServeProcess: Sendable {
    let port: Int
    /// `http` or `https`, as the server announced.
    let scheme: String
    private let process: SpawnedProcess
    /// The read end of the server's standard output.
    private let output: FileHandle
    /// Kills the server if this test process ends without `stop()` (a crash runs no `deinit`).
    private let watchdog: ChildWatchdog

    /// The line the server announced itself with.
    let announcement: String

    /// Starts the server (`accounts serve --port 0` and `arguments`) and waits for its
    /// "Listening on http://127.0.0.1:PORT" line (with `--json`, the object naming the URL). Its
    /// log (standard error) goes to `logPath` when given, else nowhere.
    init(environment: [String: String], folder: String, arguments: [String] = [], logPath: String? = nil)
        async throws
    {
        // Started first: the server is under watch from the moment it exists (`ChildWatchdog`).
        let watchdog = try ChildWatchdog()
        let output = try FileHandle.closeOnExecPipe()
        var log: FileHandle?
        if let logPath {
            try #require(FileManager.default.createFile(atPath: logPath, contents: nil))
            log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        }
        let process = try SpawnedProcess(
            CLIRunner.executable, ["serve", "--port", "0"] + arguments,
            environment: environment.merging(watchdog.environment) { $1 }, directory: folder,
            standardInput: .nullDevice, standardOutput: .descriptor(output.write.fileDescriptor),
            standardError: log.map { .descriptor($0.fileDescriptor) } ?? .nullDevice)
        // The server has its own copies now.
        try output.write.close()
        try log?.close()
        self.watchdog = watchdog
        self.process = process
        self.output = output.read
        let line = await Self.readLine(output.read)
        let announced =
            line.hasPrefix("Listening on ")
            ? String(line.dropFirst("Listening on ".count))
            : (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["listening"] as? String
        guard let url = announced.flatMap({ URLComponents(string: $0) }), let port = url.port, let scheme = url.scheme
        else {
            process.terminate()
            throw ServeFailure(description: "accounts serve did not start: \(line)")
        }
        self.port = port
        self.scheme = scheme
        announcement = line
    }

    /// The server's process id.
    var processIdentifier: Int32 { process.processIdentifier }

    // A test that throws between starting the server and `stop()` drops it here: without
    // this the server would outlive the test run, holding its port and store. (The watchdog,
    // dropped with it, would kill it too, but without the chance of a graceful exit.)
    deinit {
        if process.isRunning { process.terminate() }
    }

    /// Sends SIGTERM and waits for the exit; returns the status and the rest of standard output.
    /// A server still running after two minutes (a shutdown that hangs) is killed and recorded as
    /// an issue, with status -1, rather than holding the test run until CI's own limit.
    func stop() async -> (status: Int32, output: String) {
        do {
            return try await stop(within: .seconds(120))
        } catch {
            Issue.record("accounts serve did not stop on SIGTERM: \(error)")
            return (-1, "")
        }
    }

    /// `stop()`, throwing `SpawnedProcess.Overran` for a server still running after `limit`, killed.
    func stop(within limit: Duration) async throws -> (status: Int32, output: String) {
        process.terminate()
        // Disarmed only once the server has its SIGTERM: a test process that died in between
        // would leave a server that nothing stops. Were the watchdog to fire after the SIGTERM,
        // its SIGKILL would cut a shutdown that was already under way, no worse.
        try? await watchdog.disarm()
        return try await process.finishing(within: limit) { [process, output] in
            let rest = await output.readToEndOfFile()
            return (await process.exitStatus(), String(decoding: rest, as: UTF8.self))
        }
    }

    /// Reads one line off a pipe (off the cooperative pool: the read blocks).
    private static func readLine(_ handle: FileHandle) async -> String {
        await SerialIOQueue(label: "serve output").run {
            var bytes: [UInt8] = []
            while let byte = try? handle.read(upToCount: 1)?.first, byte != UInt8(ascii: "\n") {
                bytes.append(byte)
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}

struct ServeFailure: Error, CustomStringConvertible {
    let description: String
}
