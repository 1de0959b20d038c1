import AccountBackendKit
import AccountConformance
import AccountCore
import AccountTestSupport
import BackendTestSupport
import MemoryBackend
import PostgresBackend
import StandardBackendFixtures
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

    /// Every (backend, check) pair the backend can run: it declares the capabilities, and keeps
    /// its stores in files when the check is about files.
    static let runnable: [(any BackendDescriptor, ConformanceCheck)] = backends.flatMap { backend in
        ConformanceSuite.checks.filter { skip(backend, $0) == nil }.map { (backend, $0) }
    }

    /// The other pairs (PostgreSQL's too), each with why: shown as one skipped test naming them.
    static let skipped: [String] = (backends + [PostgresBackendDescriptor()]).flatMap { backend in
        ConformanceSuite.checks.compactMap { check in
            skip(backend, check).map { "\(backend.name) / '\(check.name)': \($0)" }
        }
    }

    static func skip(_ backend: any BackendDescriptor, _ check: ConformanceCheck) -> ConformanceSkipped? {
        ConformanceSubject(backend, fixtures: .standard, registry: .standard).skip(for: check)
    }

    /// The checks PostgreSQL runs: every one but those about store files (its stores are schemas).
    static let postgresChecks = ConformanceSuite.checks.filter { skip(PostgresBackendDescriptor(), $0) == nil }

    @Test("backend passes check", arguments: runnable)
    func backendPassesCheck(_ backend: any BackendDescriptor, _ check: ConformanceCheck) async throws {
        let scratch = try ScratchFolder("conformance-processes")
        try await ConformanceSuite.run(
            check,
            on: ConformanceSubject(
                backend, fixtures: .standard, registry: .standard,
                processes: .accounts(
                    executable: CLIRunner.executable, backend: backend.name,
                    environment: ["HOME": scratch.path, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"],
                    scratch: scratch.path)))
    }

    @Test(
        "checks a backend cannot run: a capability it does not declare, store files it does not keep, or a cut-off its fixtures cannot make",
        .disabled(
            if: !skipped.isEmpty,
            Comment(rawValue: "the pairs not run: " + skipped.joined(separator: "; "))))
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
        arguments: postgresChecks)
    func postgresPassesCheck(_ check: ConformanceCheck) async throws {
        let scratch = try ScratchFolder("conformance-processes-postgres")
        let subject = ConformanceSubject(
            PostgresBackendDescriptor(), fixtures: .standard, values: PostgresTestServer.values, registry: .standard,
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

    @Test(
        "a check the backend lacks a capability for, about files its stores are not, or cutting off a store its fixtures cannot, is skipped, saying why"
    )
    func skippedNamesCapability() async throws {
        let outcomes = await ConformanceSuite.runAll(
            on: ConformanceSubject(MemoryBackendDescriptor(), fixtures: .standard, registry: .standard))
        let skipped = outcomes.filter { $0.skippedFor != nil }
        let memory = MemoryBackendDescriptor().capabilities
        let lacking = ConformanceSuite.checks.filter { !$0.requires.isSubset(of: memory) }
        let aboutFiles = ConformanceSuite.checks.filter { $0.needsStoreFiles && $0.requires.isSubset(of: memory) }
        let cuttingOff = ConformanceSuite.checks.filter {
            $0.needsCutOff && !$0.needsStoreFiles && $0.requires.isSubset(of: memory)
        }
        #expect(!aboutFiles.isEmpty, "a check about store files that the memory backend has the capabilities for")
        #expect(!cuttingOff.isEmpty, "a check that cuts a store off, which the memory backend's fixtures cannot")
        #expect(skipped.count == lacking.count + aboutFiles.count + cuttingOff.count)
        #expect(
            skipped.allSatisfy {
                let missing = $0.skippedFor ?? []
                return missing.isDisjoint(with: memory)
                    && (!missing.isEmpty || $0.skipped?.storesNotInFiles == true || $0.skipped?.cannotCutOff == true)
            })
        #expect(
            skipped.filter { $0.skipped?.storesNotInFiles == true }.map(\.check).sorted()
                == aboutFiles.map(\.name).sorted(), "the memory backend's stores are not files")
        #expect(
            skipped.filter { $0.skipped?.cannotCutOff == true }.map(\.check).sorted()
                == cuttingOff.map(\.name).sorted(), "the memory backend's fixtures cannot cut a store off")
        #expect(
            skipped.compactMap(\.skipped).filter(\.cannotCutOff).allSatisfy {
                "\($0)".contains("no way to cut a store off")
            })
        #expect(outcomes.allSatisfy { $0.failure == nil }, "\(outcomes.compactMap(\.failure))")
        #expect(outcomes.count - skipped.count >= 15, "the memory backend runs the rest")
    }

    @Test(
        "the cut-off check fails a store whose write goes through: reported as done, or as failed though it is there",
        arguments: [false, true])
    func cutOffCheckFailsOpenStores(reportsFailure: Bool) async throws {
        let check = try #require(
            ConformanceSuite.check(
                named: "a store that becomes unreachable mid-operation fails closed and changes nothing"))
        let subject = ConformanceSubject(
            BackendRegistry.standard.descriptors.first { $0.name == "sqlite" }!,
            fixtures: BackendFixtureSet.standard.adding(FailingOpenSQLiteFixtures(reportsFailure: reportsFailure)),
            registry: .standard)
        #expect(subject.skip(for: check) == nil, "fixtures with a cut-off run the check")
        let failure = await #expect(throws: ConformanceFailure.self) {
            try await ConformanceSuite.run(check, on: subject)
        }
        let expected =
            reportsFailure
            ? "createUser, cut off mid-write: the store changed" : "createUser, cut off mid-write: it reported success"
        #expect(failure.map { "\($0)" }?.contains(expected) == true, "\(String(describing: failure))")
    }

    @Test("a backend that declares a capability it lacks fails the check instead of skipping it")
    func overclaimingFails() async throws {
        let outcomes = await ConformanceSuite.runAll(
            on: ConformanceSubject(OverclaimingMemoryBackend(), fixtures: .standard, registry: .standard))
        // Nothing skipped for a capability; only the checks about store files, as its stores are not files.
        #expect(outcomes.allSatisfy { ($0.skippedFor ?? []).isEmpty })
        let failed = outcomes.filter { $0.failure != nil }.map(\.check)
        #expect(!failed.isEmpty, "declaring capabilities it lacks must fail")
        // The set has no fixtures of it, so the check that plants a newer store says that.
        let noFixtures = outcomes.compactMap(\.failure).filter {
            $0.contains("was given no fixtures of the overclaiming")
        }
        #expect(!noFixtures.isEmpty, "the store-format check names the missing fixtures")
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
}

/// SQLite's fixtures, but claiming to cut a store off mid-write while letting the write through,
/// and then reporting that it succeeded or that it failed: what a store that fails open looks like
/// to the check "a store that becomes unreachable mid-operation fails closed and changes nothing".
private struct FailingOpenSQLiteFixtures: BackendFixtures {
    let base = SQLiteFixtures()
    /// Whether the write, which went through, is reported as failed.
    let reportsFailure: Bool
    var backendName: String { base.backendName }
    func plantStore(_ configuration: BackendConfiguration, formatVersion: Int) async throws {
        try await base.plantStore(configuration, formatVersion: formatVersion)
    }
    func storeFixtures(values: [String: BackendOptionValue]) -> StoreFixtures? {
        let files = StoreFixtures.files(samples: [])
        return StoreFixtures(
            plantForeign: files.plantForeign, plantDamaged: files.plantDamaged, snapshot: files.snapshot,
            cleanUp: files.cleanUp,
            cutOff: StoreCutOff { [reportsFailure] _, operation in
                try await operation()
                return reportsFailure ? .failure(AccountError.storeIO(detail: "cut off, it says")) : .success(())
            })
    }
}
