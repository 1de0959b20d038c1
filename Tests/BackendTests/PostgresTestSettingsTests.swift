import AccountBackendKit
import BackendTestSupport
import PostgresBackend
import Testing

/// The `TEST_POSTGRES_*` settings that name the test server: a missing or malformed one is
/// reported by name, never replaced by a default that would reach another server.
@Suite("PostgreSQL test server settings")
struct PostgresTestSettingsTests {
    let printed = [
        "TEST_POSTGRES_HOST": "127.0.0.1", "TEST_POSTGRES_PORT": "41234", "TEST_POSTGRES_USER": "accounts",
        "TEST_POSTGRES_DATABASE": "accounts_test", "TEST_POSTGRES_PASSWORD": "unprinted",
    ]

    @Test("the settings the script prints become the postgres section's values")
    func printedSettings() throws {
        let values = try PostgresTestServer.values(from: printed)
        #expect(values["host"] == .word("127.0.0.1"))
        #expect(values["port"] == .integer(41_234))
        #expect(values["user"] == .word("accounts"))
        #expect(values["database"] == .word("accounts_test"))
        #expect(values["password"] == .secret("unprinted"))
    }

    @Test(
        "a missing, empty or malformed setting is named",
        arguments: [
            ("TEST_POSTGRES_PORT", "5432x", "TEST_POSTGRES_PORT is \"5432x\", not a port number"),
            ("TEST_POSTGRES_PORT", "70000", "TEST_POSTGRES_PORT is \"70000\", not a port number"),
            ("TEST_POSTGRES_PORT", nil, "TEST_POSTGRES_PORT is unset or empty"),
            ("TEST_POSTGRES_HOST", "", "TEST_POSTGRES_HOST is unset or empty"),
            ("TEST_POSTGRES_USER", nil, "TEST_POSTGRES_USER is unset or empty"),
            ("TEST_POSTGRES_DATABASE", nil, "TEST_POSTGRES_DATABASE is unset or empty"),
        ] as [(String, String?, String)])
    func unusable(name: String, value: String?, problem: String) {
        var settings = printed
        settings[name] = value
        let error = #expect(throws: PostgresTestServer.SettingsProblem.self) {
            try PostgresTestServer.values(from: settings)
        }
        #expect(error?.description == problem)
    }

    @Test("without a server, a case that connects anyway fails naming the stand-in, not reaching the default port")
    func standInReachesNoServer() async throws {
        #expect(PostgresTestServer.standIn["host"] == .word(PostgresTestServer.standInHost))
        let options = try PostgresBackendDescriptor.connectionOptions(
            BackendConfiguration(location: "public", values: PostgresTestServer.standIn))
        let error = await #expect(throws: (any Error).self) {
            let store = try await PostgresRepository.open(options)
            try? await store.close()
        }
        #expect("\(error.map { String(describing: $0) } ?? "")".contains(PostgresTestServer.standInHost))
    }
}
