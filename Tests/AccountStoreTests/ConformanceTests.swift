import AccountConformance
import BackendRegistry
import Testing

/// Every conformance check against every backend; each pair shows by name. PostgreSQL runs when
/// a test server is configured (scripts/test.sh starts one) and is shown skipped otherwise.
@Suite("Conformance")
struct ConformanceTests {
    @Test("backend passes check", arguments: BackendRegistry.embedded.descriptors, ConformanceSuite.checks)
    func backendPassesCheck(_ backend: BackendDescriptor, _ check: ConformanceCheck) async throws {
        try await ConformanceSuite.run(check, on: backend.conformanceSubject)
    }

    @Test(
        "postgres passes check", .enabled(if: PostgresTestServer.isConfigured, PostgresTestServer.skipReason),
        arguments: ConformanceSuite.checks)
    func postgresPassesCheck(_ check: ConformanceCheck) async throws {
        try await ConformanceSuite.run(
            check, on: BackendDescriptor.postgres.conformanceSubject(values: PostgresTestServer.values))
    }

    @Test("the suite has the checks the contract needs")
    func suiteCoversTheContract() {
        let names = ConformanceSuite.checks.map(\.name)
        #expect(names.count >= 15)
        #expect(Set(names).count == names.count, "check names must be unique")
    }
}
