import AccountBackendKit
import AccountCore
import AccountTestSupport
import BackendTestSupport
import Foundation
import StandardBackends
import Testing

/// Several `accounts` processes on one store at once lose nothing and corrupt nothing.
@Suite("Multi-process")
struct MultiProcessTests {
    static let workers = 4
    static let emailsPerWorker = 12
    /// Worker w signs up emails w*8 ..< w*8+12: each overlaps its neighbours by 4.
    static let stride = 8

    static func email(_ n: Int) -> String { "racer" + String(format: "%03d", n) + "@example.com" }

    @Test(
        "4 processes sign up overlapping emails: exactly the expected users, sound store",
        arguments: BackendRegistry.embedded.descriptors)
    func overlappingSignUps(_ backend: any BackendDescriptor) async throws {
        let cli = try CLIRunner("multi-\(backend.name)")
        let store = cli.root + "/" + backend.defaultStoreName
        // Create the store first so every worker races on sign-ups, not on creation.
        try await BackendRegistry.standard.open(
            backend, BackendConfiguration(location: store, values: backend.defaultValues)
        ).close()
        let password = "Tangerine-Kayak-42"
        var processes: [ChildProcess] = []
        for worker in 0..<Self.workers {
            let emails = (0..<Self.emailsPerWorker).map { Self.email(worker * Self.stride + $0) }
            let script = emails.map { email in
                """
                printf '%s\\n%s\\n' "$PW" "$PW" | "$ACCOUNTS" signup --email \(email) --nickname 'worker \(worker)' \
                  --password-stdin --backend \(backend.name) --store "$STORE" --session-file "$ROOT/session-\(worker)" \
                  >/dev/null 2>&1; echo "\(email) $?"
                """
            }.joined(separator: "\n")
            processes.append(
                try ChildProcess(
                    "/bin/sh", ["-c", script],
                    environment: cli.environment.merging([
                        "PW": password, "ACCOUNTS": CLIRunner.executable, "STORE": store, "ROOT": cli.root,
                    ]) { $1 }))
        }
        var outcomes: [String: [Int32]] = [:]
        for process in processes {
            let result = try await process.finish()
            #expect(result.status == 0, "a worker's shell failed: \(result.standardError)")
            for line in result.standardOutput.split(separator: "\n") {
                let parts = line.split(separator: " ")
                outcomes[String(parts[0]), default: []].append(Int32(parts[1]) ?? -1)
            }
        }
        let expected = Set((0..<(Self.workers - 1) * Self.stride + Self.emailsPerWorker).map(Self.email))
        #expect(Set(outcomes.keys) == expected)
        for (email, statuses) in outcomes {
            #expect(statuses.filter { $0 == 0 }.count == 1, "\(email): \(statuses) — exactly one sign-up wins")
            #expect(statuses.allSatisfy { $0 == 0 || $0 == 4 }, "\(email): \(statuses) — the rest are email_taken")
        }
        let repository = try await BackendRegistry.standard.open(
            backend, BackendConfiguration(location: store, values: backend.defaultValues))
        let users = try await repository.users(after: nil, limit: 1_000)
        #expect(Set(users.map(\.email)) == expected)
        #expect(users.count == expected.count)
        #expect(try await repository.integrityCheck() == ["ok"])
        try await repository.close()
    }
}
