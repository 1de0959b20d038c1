import AccountBackendKit
import AccountCore
import AccountTestSupport
import BackendTestSupport
import Foundation
import StandardBackends
import Testing

/// Eight `accounts` processes at once on one store: 60 sign-ups each, half of them racing the
/// other processes for the same emails, mixed with logins, logouts and withdrawals of their own
/// users. Afterwards the store holds exactly the users and sessions the outcomes imply.
@Suite("Stress")
struct StressTests {
    static let workers = 8
    /// Each sign-up, login, logout and withdrawal is a process of its own with a password hash,
    /// 624 of them per backend (at 100 sign-ups before, CI took 46 min); the whole suite's run
    /// waits for these. Not many more: with 300 (and 500) per worker and the three embedded
    /// backends at once on 2 cores, JSON writers waited past the default 5 s for the lock (9 and
    /// 44 operations), as every JSON write rewrites the whole file (about 450 KB at 1,100 users).
    static let signUpsPerWorker = 60

    @Test(
        "8 processes, colliding sign-ups, logins, logouts and withdrawals: exact result",
        arguments: BackendRegistry.embedded.descriptors)
    func stress(_ backend: any BackendDescriptor) async throws {
        let cli = try CLIRunner("stress-\(backend.name)")
        let store = cli.root + "/" + backend.defaultStoreName
        try await run(
            backend, cli: cli, store: store,
            configuration: BackendConfiguration(location: store, values: backend.defaultValues))
    }

    @Test(
        "8 processes on one PostgreSQL schema, colliding sign-ups, logins, logouts and withdrawals: exact result",
        .enabled(if: PostgresTestServer.isConfigured, Comment(rawValue: PostgresTestServer.skipReason)))
    func stressPostgres() async throws {
        var cli = try CLIRunner("stress-postgres")
        let schema = PostgresTestServer.uniqueSchema("stress")
        cli.extraEnvironment = PostgresTestServer.cliEnvironment(schema: schema)
        try await PostgresTestServer.run(
            {
                try await run(
                    Backends.postgres, cli: cli, store: schema,
                    configuration: BackendConfiguration(location: schema, values: PostgresTestServer.values))
            }, thenCleanUp: { await PostgresTestServer.drop(schema: schema) })
    }

    private func run(
        _ backend: any BackendDescriptor, cli: borrowing CLIRunner, store: String, configuration: BackendConfiguration
    ) async throws {
        // Created up front so the workers race on sign-ups (creation races have their own test).
        try await BackendRegistry.standard.open(backend, configuration).close()
        var processes: [ChildProcess] = []
        for worker in 0..<Self.workers {
            processes.append(
                try ChildProcess(
                    "/bin/sh", ["-c", Self.script(worker: worker)],
                    environment: cli.environment.merging([
                        "PW": "Tangerine-Kayak-42", "ACCOUNTS": CLIRunner.executable, "ACCOUNTS_BACKEND": backend.name,
                        "ACCOUNTS_\(backend.name.uppercased())_\(backend.storeKey.uppercased())": store,
                        "ACCOUNTS_SESSION_FILE": cli.root + "/session-\(worker)",
                    ]) { $1 }))
        }
        var outcomes: [(op: String, email: String, status: Int32)] = []
        for process in processes {
            let result = try await process.finish()
            #expect(result.status == 0, "a worker's shell failed: \(result.standardError)")
            for line in result.standardOutput.split(separator: "\n") {
                let parts = line.split(separator: " ")
                outcomes.append((String(parts[0]), String(parts[1]), Int32(parts[2]) ?? -1))
            }
        }
        #expect(outcomes.filter { $0.op == "signup" }.count == Self.workers * Self.signUpsPerWorker)
        // No process crashed: every status is a documented one, and store_busy (7) is the only
        // failure allowed besides the expected email_taken (4).
        for outcome in outcomes {
            #expect([0, 4, 7].contains(outcome.status), "\(outcome)")
        }
        let busy = outcomes.filter { $0.status == 7 }
        // A failed sign-up leaves the worker signed in as its user before, so a withdrawal the
        // script meant for the new user deletes that one: after a store_busy the checks below
        // can fail without anything lost (seen with 500 sign-ups per worker on JSON, whose every
        // write rewrites the file). The busy count is the finding then.
        if !busy.isEmpty {
            Issue.record("store_busy under the default timeout: \(busy.count) operations, first \(busy[0])")
        }

        var expected = Set<String>()
        for email in Set(outcomes.filter { $0.op == "signup" }.map(\.email)) {
            let wins = outcomes.filter { $0.op == "signup" && $0.email == email && $0.status == 0 }.count
            let attempts = outcomes.filter { $0.op == "signup" && $0.email == email }.count
            #expect(wins <= 1, "\(email) was created \(wins) times")
            if email.hasPrefix("shared") {
                #expect(attempts == Self.workers && (wins == 1 || !busy.isEmpty), "\(email): \(wins) wins")
            }
            let withdrawn = outcomes.contains { $0.op == "withdraw" && $0.email == email && $0.status == 0 }
            if wins == 1 && !withdrawn { expected.insert(email) }
        }
        let repository = try await backend.open(configuration)
        let users = try await repository.users(after: nil, limit: 100_000)
        #expect(Set(users.map(\.email)) == expected)
        #expect(users.count == expected.count)
        // Each worker keeps one session file, and every sign-in revokes the session it replaces:
        // at most one live session per worker, and none left behind for earlier users.
        var sessions = 0
        for user in users {
            let count = try await repository.sessions(userID: user.id).count
            #expect(count <= 1, "\(user.email) holds \(count) sessions")
            sessions += count
        }
        #expect(sessions <= Self.workers, "\(sessions) live sessions for \(Self.workers) session files")
        #expect(try await repository.integrityCheck() == ["ok"])
        try await repository.close()
    }

    /// Worker `w`: `signUpsPerWorker` sign-ups alternating between a shared email (raced by every
    /// worker) and one of its own; every 10th own user logs out and back in, every 10th (offset)
    /// withdraws.
    static func script(worker: Int) -> String {
        var lines: [String] = []
        func step(_ op: String, _ email: String, _ command: String, stdin: String) {
            lines.append(
                "printf '\(stdin)' \"$PW\" \"$PW\" | \"$ACCOUNTS\" \(command) >/dev/null 2>&1; echo \"\(op) \(email) $?\""
            )
        }
        for index in 0..<signUpsPerWorker {
            let shared = index.isMultiple(of: 2)
            let email = shared ? "shared\(index / 2)@example.com" : "own\(worker)x\(index)@example.com"
            step(
                "signup", email, "signup --email \(email) --nickname worker\(worker) --password-stdin",
                stdin: "%s\\n%s\\n")
            guard !shared else { continue }
            if index % 10 == 1 {
                step("logout", email, "logout", stdin: "")
                step("login", email, "login --email \(email) --password-stdin", stdin: "%s\\n")
            } else if index % 10 == 3 {
                step("withdraw", email, "withdraw --yes --password-stdin", stdin: "%s\\n")
            }
        }
        return lines.joined(separator: "\n")
    }
}
