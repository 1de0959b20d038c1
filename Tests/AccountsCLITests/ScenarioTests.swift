import AccountBackendKit
import AccountTestSupport
import BackendTestSupport
import Foundation
import StandardBackends
import Testing

/// Every scenario under `Scenarios/` runs through the real `accounts` binary against every
/// backend; each backend's normalized output must equal the file's and each other's.
/// `ACCOUNTS_RECORD_SCENARIOS=1` writes what the first backend printed into the files (review
/// the diff before committing it).
@Suite("Scenarios")
struct ScenarioTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Scenarios")
    static let names: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
        .filter { $0.hasSuffix(".scenario") }.sorted()

    @Test("the scenario files exist")
    func present() {
        #expect(Self.names.count >= 8, "found \(Self.names)")
    }

    @Test("scenario gives the same output on every backend", arguments: names)
    func scenario(_ name: String) async throws {
        let path = Self.folder.appendingPathComponent(name).path
        let expected = try Scenario(name: name, text: String(contentsOfFile: path, encoding: .utf8))
        var transcripts: [(String, Scenario)] = []
        for backend in BackendRegistry.embedded.descriptors {
            await transcripts.append((backend.name, try run(expected, backend: backend.name)))
        }
        if ProcessInfo.processInfo.environment["ACCOUNTS_RECORD_SCENARIOS"] == "1", let first = transcripts.first {
            try first.1.rendered().write(toFile: path, atomically: true, encoding: .utf8)
            return
        }
        for (backend, actual) in transcripts {
            #expect(actual.rendered() == expected.rendered(), "\(name) on \(backend) differs:\n\(actual.rendered())")
        }
        for (backend, actual) in transcripts.dropFirst() {
            #expect(actual.items == transcripts[0].1.items, "\(name): \(backend) differs from \(transcripts[0].0)")
        }
    }

    /// The scenarios marked `@embedded-only`, with their reasons.
    static let embeddedOnly: [(name: String, reason: String)] = names.compactMap { name in
        let path = folder.appendingPathComponent(name).path
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
            let reason = (try? Scenario(name: name, text: text))?.embeddedOnlyReason
        else { return nil }
        return (name, reason)
    }

    @Test(
        "scenario gives the same output on postgres as on the embedded backends",
        .enabled(if: PostgresTestServer.isConfigured, Comment(rawValue: PostgresTestServer.skipReason)),
        arguments: names.filter { name in !embeddedOnly.contains { $0.name == name } })
    func scenarioOnPostgres(_ name: String) async throws {
        let path = Self.folder.appendingPathComponent(name).path
        let expected = try Scenario(name: name, text: String(contentsOfFile: path, encoding: .utf8))
        let schema = PostgresTestServer.uniqueSchema("scenario")
        let (actual, stored) = try await PostgresTestServer.run(
            {
                let actual = try await run(
                    expected, backend: "postgres", extra: PostgresTestServer.cliEnvironment(schema: schema))
                return (actual, try await PostgresTestServer.snapshot(schema: schema))
            }, thenCleanUp: { await PostgresTestServer.drop(schema: schema) })
        // Whatever went in on standard input (the passwords) is nowhere in the stored rows.
        let secrets = expected.items.flatMap { item -> [String] in
            if case .command(let command) = item { return command.stdin.filter { $0.count >= 8 } }
            return []
        }
        for (table, rows) in stored {
            let text = String(decoding: rows, as: UTF8.self)
            for secret in Set(secrets) { #expect(!text.contains(secret), "\(table) holds a password in clear") }
        }
        #expect(actual.rendered() == expected.rendered(), "\(name) on postgres differs:\n\(actual.rendered())")
    }

    @Test(
        "embedded-only scenarios are not run on postgres",
        .disabled(
            if: !embeddedOnly.isEmpty,
            Comment(rawValue: embeddedOnly.map { "\($0.name): \($0.reason)" }.joined(separator: "; "))))
    func embeddedOnlyScenariosAreSkipped() {
        #expect(Self.embeddedOnly.isEmpty)
    }

    /// Runs the scenario's commands in a fresh sandbox; returns the same scenario with the
    /// output the commands really gave.
    func run(_ scenario: Scenario, backend: String, extra: [String: String] = [:]) async throws -> Scenario {
        var cli = try CLIRunner("scenario-\(backend)")
        cli.extraEnvironment = extra
        cli.extraEnvironment["ACCOUNTS_BACKEND"] = backend
        var result = scenario
        result.items = []
        for item in scenario.items {
            switch item {
            case .comment, .embeddedOnly:
                result.items.append(item)
            case .env(let key, let value):
                cli.extraEnvironment[key] = value
                result.items.append(item)
            case .file(let name, let text):
                try text.write(toFile: cli.root + "/" + name, atomically: true, encoding: .utf8)
                result.items.append(item)
            case .command(let command):
                let arguments = Scenario.split(command.arguments).map {
                    $0.replacingOccurrences(of: "$ROOT", with: cli.root)
                }
                let output = try await cli.run(arguments, stdin: command.stdin)
                func lines(_ text: String) -> [String] {
                    text.split(separator: "\n", omittingEmptySubsequences: false).dropLast(text.hasSuffix("\n") ? 1 : 0)
                        .map { ScenarioNormalizer.normalize(String($0), root: cli.root) }
                }
                var actual = command
                actual.stdout = text(output.stdout).isEmpty ? [] : lines(output.stdout)
                actual.stderr = text(output.stderr).isEmpty ? [] : lines(output.stderr)
                actual.status = output.status
                result.items.append(.command(actual))
            }
        }
        return result
    }

    private func text(_ value: String) -> String { value }
}
