import AccountBackendKit
import AccountConformance
import AccountCore
import AccountTestSupport
import BackendTestSupport
import MemoryBackend
import PostgresBackend
import StandardBackends
import Testing

/// Every conformance check against every backend; each pair shows by name. The pairs whose
/// capabilities a backend does not declare are listed, with what is missing, in one skipped
/// test (Swift Testing reports a cancelled test case as passed, so they are never run as cases).
/// PostgreSQL runs when a test server is configured (scripts/test.sh starts one) and is
/// shown skipped otherwise.
@Suite("Conformance")
struct ConformanceTests {
    /// The embedded standard backends and the in-memory reference backend.
    static let backends: [any BackendDescriptor] = BackendRegistry.embedded.descriptors + [MemoryBackendDescriptor()]

    /// Every (backend, check) pair the backend declares the capabilities for.
    static let runnable: [(any BackendDescriptor, ConformanceCheck)] = backends.flatMap { backend in
        ConformanceSuite.checks.filter { $0.requires.isSubset(of: backend.capabilities) }.map { (backend, $0) }
    }

    /// The other pairs, each with what the backend lacks: shown as one skipped test naming them.
    static let skipped: [String] = backends.flatMap { backend in
        ConformanceSuite.checks.filter { !$0.requires.isSubset(of: backend.capabilities) }.map {
            "\(backend.name) / '\($0.name)': needs \($0.requires.subtracting(backend.capabilities))"
        }
    }

    @Test("backend passes check", arguments: runnable)
    func backendPassesCheck(_ backend: any BackendDescriptor, _ check: ConformanceCheck) async throws {
        let scratch = try ScratchFolder("conformance-processes")
        try await ConformanceSuite.run(
            check,
            on: ConformanceSubject(
                backend, registry: .standard,
                processes: .accounts(
                    executable: CLIRunner.executable, backend: backend.name,
                    environment: ["HOME": scratch.path, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"],
                    scratch: scratch.path)))
    }

    @Test(
        "checks a backend does not declare the capabilities for",
        .disabled(
            if: !skipped.isEmpty,
            Comment(rawValue: "skipped, naming the missing capability: " + skipped.joined(separator: "; "))))
    func skippedChecks() {
        #expect(Self.skipped.isEmpty)
    }

    @Test(
        "postgres passes check",
        .enabled(if: PostgresTestServer.isConfigured, Comment(rawValue: PostgresTestServer.skipReason)),
        // One check at a time: each opens pools (and one starts eight processes) on one server
        // that the stress and scenario suites load at the same time; run together on two cores,
        // a pooled connection waited past its deadline.
        .serialized,
        arguments: ConformanceSuite.checks)
    func postgresPassesCheck(_ check: ConformanceCheck) async throws {
        let scratch = try ScratchFolder("conformance-processes-postgres")
        let subject = ConformanceSubject(
            PostgresBackendDescriptor(), values: PostgresTestServer.values, registry: .standard,
            processes: .accounts(
                executable: CLIRunner.executable, backend: "postgres",
                // One pooled connection per process: eight of them run beside every other check's
                // pools, and the server's connection limit is shared by all.
                environment: PostgresTestServer.cliEnvironment(schema: "unused").merging([
                    "HOME": scratch.path, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
                    "ACCOUNTS_POSTGRES_POOL_SIZE": "1",
                ]) { $1 }, scratch: scratch.path))
        try #require(subject.missingCapabilities(for: check).isEmpty, "postgres declares every capability")
        try await ConformanceSuite.run(check, on: subject)
    }

    @Test("the suite has the checks the contract needs")
    func suiteCoversTheContract() {
        let names = ConformanceSuite.checks.map(\.name)
        #expect(names.count >= 15)
        #expect(Set(names).count == names.count, "check names must be unique")
    }

    @Test("the standard backends declare every capability; the memory backend declares what it cannot promise")
    func capabilities() {
        for backend in BackendRegistry.standard.descriptors {
            #expect(backend.capabilities == .all, "\(backend.name) declares only \(backend.capabilities)")
        }
        let memory = MemoryBackendDescriptor().capabilities
        #expect(!memory.contains(.durable) && !memory.contains(.multiProcess))
        #expect(!memory.contains(.selfDescribingStores))
    }

    @Test("a check the backend lacks a capability for is skipped by the suite, naming the capability")
    func skippedNamesCapability() async throws {
        let outcomes = await ConformanceSuite.runAll(
            on: ConformanceSubject(MemoryBackendDescriptor(), registry: .standard))
        let skipped = outcomes.filter { $0.skippedFor != nil }
        let memory = MemoryBackendDescriptor().capabilities
        #expect(skipped.count == ConformanceSuite.checks.filter { !$0.requires.isSubset(of: memory) }.count)
        #expect(skipped.allSatisfy { !($0.skippedFor ?? []).isEmpty && ($0.skippedFor ?? []).isDisjoint(with: memory) })
        #expect(outcomes.allSatisfy { $0.failure == nil }, "\(outcomes.compactMap(\.failure))")
        #expect(outcomes.count - skipped.count >= 15, "the memory backend runs the rest")
    }

    @Test("a backend that declares a capability it lacks fails the check instead of skipping it")
    func overclaimingFails() async throws {
        let outcomes = await ConformanceSuite.runAll(
            on: ConformanceSubject(OverclaimingMemoryBackend(), registry: .standard))
        #expect(outcomes.allSatisfy { $0.skippedFor == nil })
        let failed = outcomes.filter { $0.failure != nil }.map(\.check)
        #expect(!failed.isEmpty, "declaring capabilities it lacks must fail")
    }
}

/// The memory backend claiming every capability, though it keeps neither self-describing stores
/// nor a store several processes can share.
private struct OverclaimingMemoryBackend: BackendDescriptor {
    let base = MemoryBackendDescriptor()
    var name: String { "overclaiming" }
    var summary: String { base.summary }
    var storeLocation: StoreLocation { base.storeLocation }
    var options: [BackendOption] { [] }
    var formatVersion: Int { base.formatVersion }
    var capabilities: BackendCapabilities { .all }
    func open(_ configuration: BackendConfiguration) async throws -> any UserRepository {
        try await base.open(configuration)
    }
    func plantStore(_ configuration: BackendConfiguration, formatVersion: Int) async throws {
        try await base.plantStore(configuration, formatVersion: formatVersion)
    }
}
