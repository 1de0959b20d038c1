package import AccountBackendKit
import AccountConformance
import AccountCore
import Foundation
import PostgresBackend
import StandardBackendFixtures
import StandardBackends

/// The PostgreSQL server the PostgreSQL cases run against: the one `scripts/test.sh` starts
/// (`scripts/postgres-test-server.sh`), named by `TEST_POSTGRES_*`. Without it those cases are
/// skipped, and say why; they never pass without having run.
package enum PostgresTestServer {
    package static let environment = ProcessInfo.processInfo.environment

    /// Whether a server is configured, with every setting the script prints.
    package static var isConfigured: Bool { configurationProblem == nil }

    /// Why the PostgreSQL cases are skipped.
    package static var skipReason: String { configurationProblem ?? "" }

    /// The skip reason without a server named. `scripts/test.sh` fails a run that skips for it
    /// (or for `unusableSettings`), since it starts the server itself.
    package static let noServer =
        "no PostgreSQL server: TEST_POSTGRES_HOST, _PORT, _USER, _DATABASE and _PASSWORD are unset (scripts/test.sh starts a throwaway one)"

    /// How the skip reason for a missing or malformed setting begins; the problem follows.
    package static let unusableSettings = "the PostgreSQL server's settings are unusable: "

    /// What keeps the PostgreSQL cases from running: no server named, or a setting missing or
    /// malformed. A malformed one skips them, saying which, rather than reaching another server.
    private static let configurationProblem: String? = {
        guard environment["TEST_POSTGRES_HOST"].map({ !$0.isEmpty }) ?? false else { return noServer }
        do {
            _ = try values(from: environment)
            return nil
        } catch {
            return unusableSettings + "\(error)"
        }
    }()

    /// The folder holding the test server's Unix socket (`TEST_POSTGRES_SOCKET_FOLDER`), if it
    /// has one this process may use.
    package static var socketFolder: String? {
        environment["TEST_POSTGRES_SOCKET_FOLDER"].flatMap { $0.hasPrefix("/") ? $0 : nil }
    }

    /// Why the socket cases are skipped.
    package static let socketSkipReason =
        "no PostgreSQL socket: TEST_POSTGRES_SOCKET_FOLDER is unset, with the other TEST_POSTGRES_* (scripts/test.sh starts a throwaway server and sets it)"

    /// The `postgres` section's values for the test server. Without one configured they are
    /// `standIn`'s, so a case that forgot `.enabled(if: isConfigured)` fails to connect, naming
    /// why, instead of reaching whatever server listens on the default port.
    package static let values: [String: BackendOptionValue] = (try? values(from: environment)) ?? standIn

    /// The values used when no test server is configured: the defaults, with a host name under
    /// `.invalid`, which RFC 6761 reserves so that it never resolves.
    package static let standIn: [String: BackendOptionValue] = {
        var values = PostgresBackendDescriptor().defaultValues
        values["host"] = .word(standInHost)
        return values
    }()

    /// `standIn`'s host: an error that names it says the test server was missing.
    package static let standInHost = "no-postgres-test-server-configured.invalid"

    /// A `TEST_POSTGRES_*` setting that is missing, empty or not what the script prints.
    package struct SettingsProblem: Error, CustomStringConvertible {
        package let description: String
    }

    /// The `postgres` section's values for the server named by `settings`' `TEST_POSTGRES_*`, as
    /// `scripts/postgres-test-server.sh start` prints them; the password may be left out.
    package static func values(from settings: [String: String]) throws(SettingsProblem) -> [String: BackendOptionValue]
    {
        func required(_ name: String) throws(SettingsProblem) -> String {
            guard let value = settings["TEST_POSTGRES_" + name], !value.isEmpty else {
                throw SettingsProblem(description: "TEST_POSTGRES_\(name) is unset or empty")
            }
            return value
        }
        let port = try required("PORT")
        guard let number = Int(port), (1...65_535).contains(number) else {
            throw SettingsProblem(description: "TEST_POSTGRES_PORT is \"\(port.prefix(20))\", not a port number")
        }
        var values = PostgresBackendDescriptor().defaultValues
        values["host"] = .word(try required("HOST"))
        values["port"] = .integer(number)
        values["user"] = .word(try required("USER"))
        values["database"] = .word(try required("DATABASE"))
        values["password"] = settings["TEST_POSTGRES_PASSWORD"].map { .secret($0) }
        values["connect_timeout_ms"] = .integer(connectTimeoutMilliseconds)
        return values
    }

    /// `postgres.connect_timeout_ms` for every test, in process and through the binary. The
    /// deadline also covers waiting for a pooled connection: with 200 concurrent creates queued on
    /// 8 connections while the whole suite loads 2 cores, the default 10 s ran out in CI — in
    /// process first, then in `accounts verify --backend postgres`. An unreachable server still
    /// fails at once (connection refused), not after this.
    package static let connectTimeoutMilliseconds = 60_000

    /// The same settings as the `accounts` binary reads them, plus the schema.
    package static func cliEnvironment(schema: String) -> [String: String] {
        [
            "ACCOUNTS_POSTGRES_HOST": environment["TEST_POSTGRES_HOST"] ?? "",
            "ACCOUNTS_POSTGRES_PORT": environment["TEST_POSTGRES_PORT"] ?? "",
            "ACCOUNTS_POSTGRES_USER": environment["TEST_POSTGRES_USER"] ?? "",
            "ACCOUNTS_POSTGRES_DATABASE": environment["TEST_POSTGRES_DATABASE"] ?? "",
            "ACCOUNTS_POSTGRES_PASSWORD": environment["TEST_POSTGRES_PASSWORD"] ?? "",
            "ACCOUNTS_POSTGRES_SCHEMA": schema,
            "ACCOUNTS_POSTGRES_CONNECT_TIMEOUT_MS": String(connectTimeoutMilliseconds),
        ]
    }

    /// A schema name no other test uses.
    package static func uniqueSchema(_ label: String) -> String {
        let suffix = UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12)
        return "test_\(label)_\(suffix)".lowercased().map { $0.isLetter || $0.isNumber ? $0 : "_" }.reduce(into: "") {
            $0.append($1)
        }
    }

    /// A configuration of `backend` for a store called `name` in `folder`: a file there, or for
    /// PostgreSQL a scratch schema named after that path (removed by `cleanUp`).
    package static func configuration(_ backend: any BackendDescriptor, folder: String, name: String)
        -> BackendConfiguration
    {
        let path = folder + "/" + name
        let values = backend.storesInFiles ? backend.defaultValues : Self.values
        return BackendConfiguration(
            location: BackendFixtureSet.standard.scratchLocation(of: backend, for: path), values: values,
            recognizer: BackendRegistry.standard.recognizer)
    }

    /// Drops the scratch schemas made for stores in `folder`.
    package static func cleanUp(_ backend: any BackendDescriptor, folder: String) async {
        await BackendFixtureSet.standard.fixtures(for: backend.name)?.storeFixtures(values: values)?.cleanUp(folder)
    }

    /// Runs `body`, then `cleanUp` whether it threw or not (Swift has no async `defer`).
    package static func run<T>(_ body: () async throws -> T, thenCleanUp cleanUp: () async -> Void) async throws -> T {
        do {
            let result = try await body()
            await cleanUp()
            return result
        } catch {
            await cleanUp()
            throw error
        }
    }

    /// Every row of the schema's tables, as text.
    package static func snapshot(schema: String) async throws -> [String: [UInt8]] {
        let options = try PostgresBackendDescriptor.connectionOptions(
            BackendConfiguration(location: schema, values: values))
        return try await PostgresStoreFixtures.snapshot(schemasWithPrefix: schema, options)
    }

    /// Drops one schema (and any other whose name starts with it).
    package static func drop(schema: String) async {
        guard
            let options = try? PostgresBackendDescriptor.connectionOptions(
                BackendConfiguration(location: schema, values: values))
        else { return }
        try? await PostgresStoreFixtures.dropSchemas(withPrefix: schema, options)
    }
}
