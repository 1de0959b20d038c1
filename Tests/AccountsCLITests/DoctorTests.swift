import AccountBackendKit
import AccountCore
import AccountTestSupport
import BackendTestSupport
import CSQLite
import Foundation
import StandardBackends
import Testing

/// `accounts doctor` finds expired and orphaned sessions, purges only expired ones with
/// `--fix`, and exits 1 on damage.
@Suite("Doctor")
struct DoctorTests {
    let password = "Tangerine-Kayak-42"

    /// Signs up one account in the store `common` names.
    func signUp(_ cli: borrowing CLIRunner, _ common: [String]) async throws {
        try await cli.run(
            ["signup", "--email", "leesoon7@example.com", "--nickname", "이순신", "--password-stdin"] + common,
            stdin: [password, password])
    }

    @Test("expired sessions are reported, and purged only with --fix")
    func expired() async throws {
        let cli = try CLIRunner("doctor-expired")
        let store = cli.root + "/s.json"
        let common = ["--backend", "json", "--store", store]
        try await signUp(cli, common)
        // Another session file, so that both sessions stay (a login replacing a saved session
        // revokes it).
        try await cli.run(
            ["login", "--email", "leesoon7@example.com", "--password-stdin", "--session-file", cli.root + "/second"]
                + common, stdin: [password])
        // Age one session past its absolute expiry by editing the file, as time would.
        var text = try String(contentsOfFile: store, encoding: .utf8)
        let range = try #require(text.range(of: #""expires_at_ms" : \d+"#, options: .regularExpression))
        text.replaceSubrange(range, with: "\"expires_at_ms\" : 0")
        try text.write(toFile: store, atomically: true, encoding: .utf8)
        let report = try await cli.run(["doctor", "--json"] + common)
        #expect(report.status == 0, "expired sessions are not damage")
        #expect(try report.json()["expired_sessions"] as? Int == 1)
        let fixed = try await cli.run(["doctor", "--fix", "--json"] + common)
        #expect(try fixed.json()["purged_sessions"] as? Int == 1)
        #expect(try await cli.run(["doctor", "--json"] + common).json()["expired_sessions"] as? Int == 0)
        #expect(
            try await cli.run(["users", "show", "leesoon7@example.com"] + common).stdout.contains("Sessions:         1")
        )
    }

    @Test("--fix purges the expired one-time codes and keeps the live one")
    func expiredCodes() async throws {
        let cli = try CLIRunner("doctor-codes")
        let store = cli.root + "/s.json"
        let common = ["--backend", "json", "--store", store]
        try await signUp(cli, common)
        let configuration = BackendConfiguration(location: store, values: Backends.json.defaultValues)
        let repository = try await BackendRegistry.standard.open(Backends.json, configuration)
        let user = try #require(try await repository.user(email: "leesoon7@example.com"))
        let made = Timestamp(millisecondsSince1970: 1_000)
        let expired = OneTimeCode(
            codeHash: String(repeating: "a", count: 64), userID: user.id, purpose: .passwordReset, createdAt: made,
            expiresAt: made.adding(seconds: 60))
        let live = OneTimeCode(
            codeHash: String(repeating: "b", count: 64), userID: user.id, purpose: .emailVerification,
            createdAt: made, expiresAt: Timestamp(millisecondsSince1970: .max))
        #expect(try await repository.replaceCode(expired))
        #expect(try await repository.replaceCode(live))
        try await repository.close()
        #expect(try await cli.run(["doctor", "--json"] + common).json()["purged_flow_records"] as? Int == 0)
        let fixed = try await cli.run(["doctor", "--fix", "--json"] + common)
        #expect(try fixed.json()["purged_flow_records"] as? Int == 1)
        let reopened = try await BackendRegistry.standard.open(Backends.json, configuration)
        #expect(try await reopened.code(hash: expired.codeHash) == nil)
        #expect(try await reopened.code(hash: live.codeHash) == live)
        try await reopened.close()
    }

    @Test("a session whose user is gone is damage: exit 1 and named")
    func orphan() async throws {
        let cli = try CLIRunner("doctor-orphan")
        let store = cli.root + "/s.json"
        let common = ["--backend", "json", "--store", store]
        try await signUp(cli, common)
        var text = try String(contentsOfFile: store, encoding: .utf8)
        let range = try #require(text.range(of: #""user_id" : "[0-9a-f]{32}""#, options: .regularExpression))
        text.replaceSubrange(range, with: "\"user_id\" : \"\(String(repeating: "0", count: 32))\"")
        try text.write(toFile: store, atomically: true, encoding: .utf8)
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let report = try await cli.run(["doctor"] + common)
        #expect(report.status == 1)
        #expect(report.stdout.contains("DAMAGED") && report.stdout.contains("belong to no user"))
        #expect(
            try await cli.run(["doctor", "--fix"] + common).status == 1, "--fix repairs nothing but expired sessions")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
        let removed = try await cli.run(["doctor", "--remove-orphaned-sessions"] + common)
        #expect(removed.status == 0, "\(removed.stdout)")
        #expect(removed.stdout.contains("removed 1 session whose user was gone"), "\(removed.stdout)")
        #expect(try await cli.run(["doctor"] + common).status == 0, "sound after the removal")
    }

    @Test("on SQLite, a session whose user is gone is named as such, not as a broken foreign key")
    func sqliteOrphan() async throws {
        let cli = try CLIRunner("doctor-orphan-sqlite")
        let store = cli.root + "/s.sqlite"
        let common = ["--backend", "sqlite", "--store", store]
        try await signUp(cli, common)
        var db: OpaquePointer?
        #expect(sqlite3_open(store, &db) == SQLITE_OK)
        // foreign_keys is off by default on a new connection: plant what a bug or a hand edit would.
        #expect(
            sqlite3_exec(db, "UPDATE sessions SET user_id = '\(String(repeating: "0", count: 32))'", nil, nil, nil)
                == SQLITE_OK)
        sqlite3_close(db)
        let report = try await cli.run(["doctor"] + common)
        #expect(report.status == 1)
        #expect(report.stdout.contains("1 session belongs to no user (the user is gone)"), "\(report.stdout)")
        #expect(!report.stdout.contains("foreign key"), "\(report.stdout)")
        let removed = try await cli.run(["doctor", "--remove-orphaned-sessions", "--json"] + common)
        #expect(removed.status == 0 && removed.stdout.contains("\"removed_orphaned_sessions\":1"), "\(removed.stdout)")
    }
}
