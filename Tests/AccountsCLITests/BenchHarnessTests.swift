import AccountBackendKit
import AccountTestSupport
import BackendTestSupport
import Foundation
import PostgresNIO
import StandardBackends
import Testing

@testable import PostgresBackend

/// `accounts-bench` itself, on a small N: every phase runs through the backend (a missed lookup,
/// an accepted duplicate or a missed withdrawal fails the run), the figures are well-formed, and
/// the scratch stores are gone afterwards. No time is asserted.
@Suite("Benchmark harness")
struct BenchHarnessTests {
    static let n = 200

    static var executable: String {
        (CLIRunner.executable as NSString).deletingLastPathComponent + "/accounts-bench"
    }

    /// The phases and their operation counts for `n` users.
    static func expectedOps(_ backend: String, phases: String?) -> [String: Int] {
        var ops = ["A_signup": n, "B_lookup": n, "C_duplicate": n / 10, "D_withdraw": n / 2, "E_bulk_import": n]
        if phases?.contains("T") == true { ops["A_signup_at_N"] = min(100, n / 10) }
        return ops
    }

    /// Runs the workload and checks its report; returns the scratch folder it was given.
    static func runWorkload(
        _ backend: String, phases letters: String? = nil, environment: [String: String] = [:]
    ) async throws -> String {
        let runner = try CLIRunner("bench-" + backend)
        let temporary = runner.root + "/tmp"
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        let result = try await runner.run(
            ["workload", "--backend", backend, "-n", String(n), "--json"] + (letters.map { ["--phases", $0] } ?? []),
            environment: environment.merging(["TMPDIR": temporary]) { $1 }, executable: executable)
        #expect(result.status == 0, "accounts-bench failed: \(result.stderr)")
        let report = try result.json()
        let phases = try #require(report["results"] as? [[String: Any]])
        var ops: [String: Int] = [:]
        for phase in phases {
            let name = try #require(phase["phase"] as? String)
            ops[name] = phase["ops"] as? Int
            #expect(phase["backend"] as? String == backend, "\(name)")
            let seconds = try #require(phase["seconds"] as? Double)
            let p50 = try #require(phase["p50_us"] as? Double)
            let p99 = try #require(phase["p99_us"] as? Double)
            #expect(seconds > 0 && p50 > 0 && p50 <= p99, "\(name): \(phase)")
            #expect((phase["peak_rss_kib"] as? Int ?? 0) > 1_024, "\(name): \(phase)")
        }
        #expect(ops == expectedOps(backend, phases: letters))
        let left = try FileManager.default.contentsOfDirectory(atPath: temporary)
        #expect(left.isEmpty, "the bench leaves its scratch folder behind: \(left)")
        return temporary
    }

    @Test("the workload runs every phase and cleans up", arguments: BackendRegistry.embedded.descriptors)
    func workload(_ backend: any BackendDescriptor) async throws {
        _ = try await Self.runWorkload(backend.name)
    }

    @Test("phase T reports the tail of the sign-ups on its own, on any backend", arguments: ["json", "sqlite"])
    func tailPhase(_ backend: String) async throws {
        _ = try await Self.runWorkload(backend, phases: "ABCDET")
    }

    @Test(
        "the workload runs on PostgreSQL in scratch schemas and drops them",
        .enabled(if: PostgresTestServer.isConfigured, Comment(rawValue: PostgresTestServer.skipReason)))
    func postgresWorkload() async throws {
        // The configured schema must never be touched: point it at one that must stay absent.
        let configured = PostgresTestServer.uniqueSchema("bench_untouched")
        // The bench's stores are scratch schemas named …_a_accounts and …_e_accounts; any left
        // by an earlier, interrupted run are not this run's.
        // Names from the catalog only: reading other tests' scratch tables would race their drops.
        func benchTables() async throws -> Set<String> {
            let options = try PostgresBackendDescriptor.connectionOptions(
                BackendConfiguration(location: "scratch_", values: PostgresTestServer.values))
            return try await PostgresConnector(options).withConnection { connection in
                Set(
                    try await connection.rows(
                        "SELECT nspname::text FROM pg_namespace WHERE nspname LIKE 'scratch%accounts'"
                    ).map { try $0.decode(String.self) }.filter {
                        $0.hasSuffix("_a_accounts") || $0.hasSuffix("_e_accounts")
                    })
            }
        }
        let before = try await benchTables()
        _ = try await Self.runWorkload("postgres", environment: PostgresTestServer.cliEnvironment(schema: configured))
        let left = try await benchTables().subtracting(before)
        #expect(left.isEmpty, "scratch schemas left behind: \(left.sorted())")
        #expect(try await PostgresTestServer.snapshot(schema: configured).isEmpty, "the configured schema was used")
    }

    @Test("--phases hash times Argon2id at the configured parameters")
    func hash() async throws {
        let runner = try CLIRunner("bench-hash")
        // CLIRunner configures t=1, 8 KiB through ACCOUNTS_HASHING_*; the report must say so.
        let result = try await runner.run(
            ["workload", "--phases", "hash", "--iterations", "3", "--json"], executable: Self.executable)
        #expect(result.status == 0, "accounts-bench failed: \(result.stderr)")
        let phases = try #require(try result.json()["results"] as? [[String: Any]])
        #expect(phases.count == 1)
        #expect(phases.first?["phase"] as? String == "hash")
        #expect(phases.first?["mode"] as? String == "t=1,m=8KiB")
        #expect(phases.first?["ops"] as? Int == 3)
    }
}

extension BenchHarnessTests {
    static let mistakes: [(String, [String], String)] = [
        ("a count that is not a number", ["workload", "-n", "10k"], "-n needs a positive whole number"),
        ("an unknown phase", ["workload", "--phases", "ABX"], "takes letters of ABCDET"),
        ("a mode the backend lacks", ["workload", "--backend", "sqlite", "--mode", "fulll"], "no mode 'fulll'"),
        ("a mode for a backend without modes", ["workload", "--backend", "json", "--mode", "full"], "has none"),
        ("an unknown command", ["benchmark"], "usage:"),
    ]

    @Test("argument mistakes are refused with a reason, before any store is made", arguments: mistakes)
    func refusesMistakes(_ name: String, _ arguments: [String], _ reason: String) async throws {
        let runner = try CLIRunner("bench-usage")
        let temporary = runner.root + "/tmp"
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        let result = try await runner.run(arguments, environment: ["TMPDIR": temporary], executable: Self.executable)
        #expect(result.status == 2, "\(name)")
        #expect(result.stderr.contains(reason), "\(name): \(result.stderr)")
        #expect(result.stdout.isEmpty, "\(name)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary).isEmpty, "\(name): folder left")
    }

    @Test("--help prints the usage and exits 0; result lines come under a header")
    func helpAndHeader() async throws {
        let runner = try CLIRunner("bench-help")
        for arguments in [["--help"], ["workload", "--help"], ["-h"]] {
            let result = try await runner.run(arguments, executable: BenchHarnessTests.executable)
            #expect(result.status == 0, "\(arguments)")
            #expect(result.stdout.hasPrefix("usage: accounts-bench"), "\(arguments): \(result.stdout)")
        }
        let temporary = runner.root + "/tmp"
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        let text = try await runner.run(
            ["workload", "--backend", "sqlite", "-n", "20", "--phases", "A"], environment: ["TMPDIR": temporary],
            executable: BenchHarnessTests.executable)
        let lines = text.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("# RESULT\tphase\tbackend") == true, "\(text.stdout)")
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("RESULT\t") }, "\(text.stdout)")
    }
}
