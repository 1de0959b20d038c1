import AccountBackendKit
import AccountTestSupport
import BackendTestSupport
import Foundation
import StandardBackends
import Testing

/// A saved session belongs to the store that issued it: commands on another store never read,
/// replace or remove it, and one can be signed in to several stores at once.
@Suite("Session per store")
struct SessionPerStoreTests {
    let password = "Tangerine-Kayak-42"
    let email = "leesoon7@example.com"

    /// The default store's session count of `email`, and whether `whoami` there still works.
    func firstStore(_ cli: borrowing CLIRunner) async throws -> (sessions: Int, signedIn: Bool) {
        let shown = try await cli.run(["users", "show", email, "--json"]).json()
        let sessions = try #require(shown["sessions"] as? Int)
        return (sessions, try await cli.run(["whoami"]).status == 0)
    }

    /// The newcomer's transcript against a second store of `other` (`--backend`, `--store`, and
    /// any environment it needs): a look, a logout, a sign-up and a login there, then a logout
    /// there. The first store's session stays usable throughout and is never orphaned.
    func replay(_ cli: borrowing CLIRunner, other: [String], environment: [String: String]) async throws {
        try await cli.run(
            ["signup", "--email", email, "--nickname", "이순신", "--password-stdin"], stdin: [password, password])
        #expect(try await firstStore(cli) == (1, true))

        let look = try await cli.run(["start"] + other, environment: environment)
        #expect(look.status == 0 || look.status == 7, "\(look.stderr)")
        #expect(try await firstStore(cli) == (1, true), "a look at another store keeps the first one's session")

        try await cli.run(
            ["signup", "--email", email, "--nickname", "홍길동", "--password-stdin"] + other, stdin: [password, password],
            environment: environment)
        let logoutBefore = try await cli.run(["logout", "--json"] + other, environment: environment)
        #expect(logoutBefore.status == 0, "signed in to the second store too: \(logoutBefore.stdout)")
        #expect(try await firstStore(cli) == (1, true), "a logout of the second store keeps the first one's")

        let notHere = try await cli.run(["logout", "--json"] + other, environment: environment)
        #expect(notHere.status == 6)
        #expect(notHere.errorCode == "not_signed_in")
        let message = try #require((try notHere.json()["error"] as? [String: Any])?["message"] as? String)
        #expect(message.contains("--store " + cli.storePath), "says where the saved session is: \(message)")
        #expect(try await firstStore(cli) == (1, true))

        let login = try await cli.run(
            ["login", "--email", email, "--password-stdin"] + other, stdin: [password], environment: environment)
        #expect(login.status == 0, "\(login.stderr)")
        #expect(try await firstStore(cli) == (1, true), "a login elsewhere does not overwrite the first store's")
        let there = try await cli.run(["whoami", "--json"] + other, environment: environment).json()
        #expect((there["user"] as? [String: Any])?["nickname"] as? String == "홍길동", "both sessions work")
        let shownThere = try await cli.run(["users", "show", email, "--json"] + other, environment: environment).json()
        #expect(shownThere["sessions"] as? Int == 1, "no orphaned session in the second store")

        #expect(try await cli.run(["logout"]).status == 0)
        #expect(try await firstStore(cli) == (0, false), "the first store's own logout revoked its session")
        #expect(
            try await cli.run(["whoami"] + other, environment: environment).status == 0,
            "the second store's session outlives the first one's logout")
    }

    @Test(
        "another store's start, logout and login leave the saved session usable", arguments: ["sqlite", "lmdb", "json"])
    func embedded(_ backend: String) async throws {
        let cli = try CLIRunner("session-per-store-\(backend)")
        let other = ["--backend", backend, "--store", cli.root + "/other." + backend]
        try await replay(cli, other: other, environment: [:])
    }

    @Test(
        "a PostgreSQL store's start, logout and login leave the saved SQLite session usable",
        .enabled(if: PostgresTestServer.isConfigured, Comment(rawValue: PostgresTestServer.skipReason)))
    func postgres() async throws {
        let cli = try CLIRunner("session-per-store-postgres")
        let schema = PostgresTestServer.uniqueSchema("session_per_store")
        try await PostgresTestServer.run {
            try await replay(
                cli, other: ["--backend", "postgres"], environment: PostgresTestServer.cliEnvironment(schema: schema))
        } thenCleanUp: {
            await PostgresTestServer.drop(schema: schema)
        }
    }

    @Test("a session file of the earlier format is used by the store that knows its token, and kept by others")
    func earlierFormat() async throws {
        let cli = try CLIRunner("session-earlier-format")
        try await cli.run(
            ["signup", "--email", email, "--nickname", "이순신", "--password-stdin"], stdin: [password, password])
        let token = try #require(try cli.savedTokens().first)
        try (token + "\n").write(toFile: cli.sessionPath, atomically: true, encoding: .utf8)
        let other = ["--backend", "json", "--store", cli.root + "/other.json"]
        try await cli.run(
            ["signup", "--email", "hong1234@example.com", "--nickname", "홍길동", "--password-stdin"] + other,
            stdin: [password, password])
        #expect(try cli.savedTokens().contains(token), "another store's sign-up kept the earlier token")
        #expect(try await cli.run(["whoami"]).status == 0, "the store that issued it still accepts it")
        #expect(try await cli.run(["logout"]).status == 0)
        #expect(try !cli.savedTokens().contains(token), "its logout removed the claimed token")
        #expect(try await cli.run(["whoami"] + other).status == 0)
    }

    @Test("a file that is no session file is reported and left as it is")
    func notASessionFile() async throws {
        let cli = try CLIRunner("session-not-a-session-file")
        try FileManager.default.createDirectory(
            atPath: (cli.sessionPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let text = "my notes, not a token\n"
        try text.write(toFile: cli.sessionPath, atomically: true, encoding: .utf8)
        let result = try await cli.run(
            ["signup", "--email", email, "--nickname", "이순신", "--password-stdin", "--json"],
            stdin: [password, password])
        #expect(result.status == 8, "\(result.stdout)")
        #expect(result.errorCode == "config_invalid")
        #expect(try String(contentsOfFile: cli.sessionPath, encoding: .utf8) == text)
    }
}
