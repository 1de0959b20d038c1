import DurableFiles
import Foundation

/// Runs the real `accounts` binary in a sandbox: its own HOME and XDG folders, fast Argon2id
/// parameters, English messages, and nothing inherited from the developer's environment.
package struct CLIRunner: ~Copyable {
    package struct Result {
        package let status: Int32
        package let stdout: String
        package let stderr: String
        /// Standard output parsed as the one JSON object `--json` promises.
        package func json() throws -> [String: Any] {
            let trimmed = stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.contains("\n") else { throw CLIError("stdout has more than one line: \(stdout)") }
            guard let object = try JSONSerialization.jsonObject(with: Data(trimmed.utf8)) as? [String: Any] else {
                throw CLIError("stdout is not one JSON object: \(stdout)")
            }
            return object
        }
        package var errorCode: String? { ((try? json())?["error"] as? [String: Any])?["code"] as? String }
    }

    package struct CLIError: Error, CustomStringConvertible {
        package let description: String
        package init(_ description: String) { self.description = description }
    }

    package let scratch: ScratchFolder
    package var root: String { scratch.path }
    package var extraEnvironment: [String: String] = [:]

    package init(_ label: String) throws {
        ChildProcess.ignoreBrokenPipes()
        scratch = try ScratchFolder("cli-" + label)
    }

    /// The built `accounts` beside the test bundle.
    package static let executable: String = {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
                "accounts"
            ).path,
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("accounts").path,
            Bundle.main.bundleURL.appendingPathComponent("accounts").path,
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[0]
    }()

    package var environment: [String: String] {
        [
            "HOME": root + "/home", "XDG_DATA_HOME": root + "/data", "XDG_STATE_HOME": root + "/state",
            "XDG_CONFIG_HOME": root + "/config", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
            "ACCOUNTS_HASHING_OPS_LIMIT": "1", "ACCOUNTS_HASHING_MEM_LIMIT_KIB": "8",
        ].merging(extraEnvironment) { $1 }
    }

    /// The default store and session file of this sandbox.
    package var storePath: String { root + "/data/accounts/accounts.sqlite" }
    package var sessionPath: String { root + "/state/accounts/session" }

    /// The tokens in the sandbox's session file: every store's, or the one line of a file of the
    /// earlier format.
    package func savedTokens() throws -> [String] {
        let data = try Data(contentsOf: URL(fileURLWithPath: sessionPath))
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            return [String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)]
        }
        return (object["sessions"] as? [[String: Any]] ?? []).compactMap { $0["token"] as? String }
    }

    /// Runs `accounts` (or `executable`) with `arguments` and waits for it to exit, reading its
    /// output as `ChildProcess` does, for at most `limit` (then it is killed and `run` throws
    /// `Process.Overran`).
    @discardableResult
    package func run(
        _ arguments: [String], stdin lines: [String] = [], stdinBytes: [UInt8]? = nil,
        environment extra: [String: String] = [:], executable: String = CLIRunner.executable,
        within limit: Duration = .seconds(600)
    ) async throws -> Result {
        var command = [executable] + arguments
        // A new session has no controlling terminal, so a prompt can never block the test run
        // on a developer's terminal: it fails the way it does in CI.
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/setsid") {
            command = ["/usr/bin/setsid", "--wait"] + command
        }
        // An ignored signal stays ignored across exec, and this process ignores SIGPIPE (see
        // `ChildProcess.ignoreBrokenPipes`; SwiftNIO does too once a test opens a socket): the
        // child gets it back at its default, as when a shell starts it.
        let outcome = try await ChildProcess(
            "/usr/bin/env", ["--default-signal=PIPE"] + command, environment: environment.merging(extra) { $1 },
            directory: root, input: stdinBytes.map { Data($0) } ?? Data(lines.map { $0 + "\n" }.joined().utf8)
        ).finish(within: limit)
        return Result(status: outcome.status, stdout: outcome.standardOutput, stderr: outcome.standardError)
    }
}
