import AccountConformance
import BackendRegistry
import Testing

/// Every conformance check against every registered backend; each pair shows by name.
@Suite("Conformance")
struct ConformanceTests {
    @Test("backend passes check", arguments: BackendRegistry.standard.descriptors, ConformanceSuite.checks)
    func backendPassesCheck(_ backend: BackendDescriptor, _ check: ConformanceCheck) async throws {
        try await ConformanceSuite.run(check, on: backend.conformanceSubject)
    }

    @Test("the suite has the checks the contract needs")
    func suiteCoversTheContract() {
        let names = ConformanceSuite.checks.map(\.name)
        #expect(names.count >= 15)
        #expect(Set(names).count == names.count, "check names must be unique")
    }
}
