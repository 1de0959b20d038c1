import AccountTestSupport
import Foundation
import Testing

/// `accounts sessions`: where the signed-in user is signed in, and signing a device out.
@Suite("Sessions command")
struct SessionsCommandTests {
    let password = "Tangerine-Kayak-42"
    let email = "leesoon7@example.com"

    @Test(
        "lists this machine's sessions by id and device, revokes one by id, then every other",
        arguments: ["sqlite", "lmdb", "json"])
    func listAndRevoke(_ backend: String) async throws {
        let cli = try CLIRunner("sessions-\(backend)")
        let elsewhere = try CLIRunner("sessions-elsewhere-\(backend)")
        let store = ["--backend", backend, "--store", cli.root + "/accounts." + backend]
        try await cli.run(
            ["signup", "--email", email, "--nickname", "이순신", "--password-stdin"] + store, stdin: [password, password])
        try await elsewhere.run(["login", "--email", email, "--password-stdin"] + store, stdin: [password])

        let listed = try #require(
            try await cli.run(["sessions", "--json"] + store).json()["sessions"] as? [[String: Any]])
        #expect(listed.count == 2)
        #expect(listed.allSatisfy { ($0["device"] as? String)?.hasPrefix("accounts on ") == true })
        #expect(listed.filter { $0["current"] as? Bool == true }.count == 1)
        let text = try await cli.run(["sessions"] + store)
        #expect(text.status == 0 && text.stdout.contains("(this session)"), "\(text.stdout)")
        let otherID = try #require(listed.first { $0["current"] as? Bool == false }?["id"] as? String)
        #expect(text.stdout.contains(otherID))

        let revoked = try await cli.run(["sessions", "revoke", otherID] + store)
        #expect(revoked.status == 0 && revoked.stdout.contains("Signed out 1 session."), "\(revoked.stderr)")
        #expect(try await elsewhere.run(["whoami"] + store).status == 6, "the revoked device is signed out")
        #expect(try await cli.run(["whoami"] + store).status == 0, "this session stays")
        let again = try await cli.run(["sessions", "revoke", otherID, "--json"] + store)
        #expect(again.status == 9 && again.errorCode == "session_not_found")

        #expect(try await cli.run(["sessions", "revoke"] + store).status == 2, "neither an id nor --others")
        try await elsewhere.run(["login", "--email", email, "--password-stdin"] + store, stdin: [password])
        let others = try await cli.run(["sessions", "revoke", "--others", "--json"] + store).json()
        #expect(others["revoked"] as? Int == 1)
        #expect(try await elsewhere.run(["whoami"] + store).status == 6)
        #expect(
            try await cli.run(["sessions", "--json"] + store).json()["sessions"].map { ($0 as? [Any])?.count } == 1)
    }

    @Test("--device names a sign-up's and a login's session, so two of one machine tell apart; a bad name is refused")
    func deviceNames() async throws {
        let cli = try CLIRunner("sessions-device")
        let elsewhere = try CLIRunner("sessions-device-elsewhere")
        let store = ["--store", cli.root + "/accounts.sqlite"]
        let signedUp = try await cli.run(
            ["signup", "--email", email, "--nickname", "이순신", "--password-stdin", "--device", "work laptop"] + store,
            stdin: [password, password])
        #expect(signedUp.status == 0, "\(signedUp.stderr)")
        let loggedIn = try await elsewhere.run(
            ["login", "--email", email, "--password-stdin", "--device", "집 데스크톱"] + store, stdin: [password])
        #expect(loggedIn.status == 0, "\(loggedIn.stderr)")
        let listed = try #require(
            try await cli.run(["sessions", "--json"] + store).json()["sessions"] as? [[String: Any]])
        #expect(Set(listed.compactMap { $0["device"] as? String }) == ["work laptop", "집 데스크톱"])
        let bad = try await elsewhere.run(
            ["login", "--email", email, "--password-stdin", "--device", "tab\there", "--json"] + store,
            stdin: [password])
        #expect(bad.errorCode == "invalid_device_name", "\(bad.stdout)")
    }

    @Test("a sign-up the rules refuse creates no store: the whole form is checked before the store is opened")
    func refusedSignUpCreatesNoStore() async throws {
        let cli = try CLIRunner("signup-refused-no-store")
        let refused = try await cli.run(
            ["signup", "--email", email, "--nickname", "이순신", "--password-stdin", "--json"], stdin: ["x", "x"])
        #expect(refused.status == 3 && refused.errorCode == "invalid_password", "\(refused.stdout)")
        #expect(!FileManager.default.fileExists(atPath: cli.storePath), "the default store was created")
        #expect(!FileManager.default.fileExists(atPath: cli.root + "/data/accounts"), "its folder was created")
    }
}
