import AccountBackendKit
import AccountCore
import AccountCrypto
import AccountTestSupport
import BackendTestSupport
import Foundation
import MemoryBackend
import NIOHTTP1
import StandardBackends
import Testing

/// Blocked accounts and temporary passwords over the wire: what a guesser learns (nothing the
/// store's state decides, until the right password), what a session of a blocked account still
/// opens (nothing), and that `new_password` on a login replaces only a temporary password, on the
/// native API, the Strapi routes and the web pages.
@Suite("Attacks on blocked accounts and temporary passwords")
struct AccountStateAttackTests {
    static let email = "imported@example.com"
    static let temporary = "Welcome-Tangerine-1"
    static let chosen = "Kettle-Orchid-Basalt-27"

    /// An account moved in with a temporary password (and one with a password of its own).
    static func plantTemporary(_ server: LiveServer) async throws -> UserRecord {
        let user = UserRecord(
            id: .random(using: SodiumRandomSource()), email: email, nickname: "Imported",
            passwordHash: try Argon2idPasswordHasher.fastForTests.hash(temporary),
            createdAt: Timestamp(millisecondsSince1970: 1_700_000_000_000), mustChangePassword: true)
        try await server.repository.createUser(user, initialSession: nil)
        return user
    }

    @Test("a blocked account answers a wrong password as an unknown email does, and only the right one learns why")
    func blockedAccount() async throws {
        try await LiveServer.with(Backends.sqlite) { server in
            let created = try await server.send(.POST, "/v1/signup", json: AttackTests.signUp)
            let token = try #require(created.token)
            let user = try #require(try await server.repository.user(email: "leesoon7@example.com"))
            #expect(try await server.repository.setBlocked(userID: user.id, true))
            #expect(try await server.send(.GET, "/v1/me", token: token).status == 401, "its session ended")
            let unknown = try await server.send(
                .POST, "/v1/login", json: AttackTests.login("nobody77@example.com", "Wrong-Kayak-42"))
            let wrong = try await server.send(
                .POST, "/v1/login", json: AttackTests.login("leesoon7@example.com", "Wrong-Kayak-42"))
            #expect(unknown.status == 401 && wrong.status == 401)
            #expect(unknown.json["code"] as? String == wrong.json["code"] as? String)
            let right = try await server.send(
                .POST, "/v1/login", json: AttackTests.login("leesoon7@example.com", "Tangerine-Kayak-42"))
            #expect(right.status == 403 && right.json["code"] as? String == "account_blocked", "\(right.text)")
            #expect(right.token == nil && right.json["device_token"] == nil, "nothing was signed in")
            let strapi = try await server.send(
                .POST, "/api/auth/local",
                json: #"{"identifier":"leesoon7@example.com","password":"Tangerine-Kayak-42"}"#)
            let details = (strapi.json["error"] as? [String: Any])?["details"] as? [String: Any]
            #expect(strapi.status == 400 && details?["code"] as? String == "account_blocked", "\(strapi.text)")
            #expect(try await server.repository.sessions(userID: user.id).isEmpty)
        }
    }

    @Test("a temporary password opens nothing without new_password; a guess with one changes nothing")
    func temporaryPasswordOverTheAPI() async throws {
        try await LiveServer.with(Backends.sqlite) { server in
            let user = try await Self.plantTemporary(server)
            let bare = try await server.send(.POST, "/v1/login", json: AttackTests.login(Self.email, Self.temporary))
            #expect(bare.status == 403 && bare.json["code"] as? String == "password_change_required", "\(bare.text)")
            #expect(bare.token == nil)
            // A guesser who sends a new password with a wrong one replaces nothing.
            let guess = try await server.send(
                .POST, "/v1/login",
                json: #"{"email":"\#(Self.email)","password":"Wrong-Kayak-42","new_password":"Mallory-Owns-It-99"}"#)
            #expect(guess.status == 401 && guess.json["code"] as? String == "invalid_credentials")
            #expect(try await server.repository.user(id: user.id)?.passwordHash == user.passwordHash)
            // The rules of every new password, every broken one named under its field.
            let weak = try await server.send(
                .POST, "/v1/login",
                json:
                    #"{"email":"\#(Self.email)","password":"\#(Self.temporary)","new_password":"abc","confirmation":"abd"}"#
            )
            #expect(weak.status == 400, "\(weak.text)")
            let problems = (weak.json["problems"] as? [[String: Any]] ?? []).compactMap { $0["field"] as? String }
            #expect(Set(problems) == ["new_password", "confirmation"], "\(weak.text)")
            #expect(try await server.repository.user(id: user.id)?.mustChangePassword == true)
            let replaced = try await server.send(
                .POST, "/v1/login",
                json: #"{"email":"\#(Self.email)","password":"\#(Self.temporary)","new_password":"\#(Self.chosen)"}"#)
            #expect(replaced.status == 200 && replaced.token != nil, "\(replaced.text)")
            #expect(try await server.repository.user(id: user.id)?.mustChangePassword == false)
            let old = try await server.send(.POST, "/v1/login", json: AttackTests.login(Self.email, Self.temporary))
            #expect(old.status == 401, "the temporary password is gone")
            // On an account whose password is its own, new_password replaces nothing.
            let again = try await server.send(
                .POST, "/v1/login",
                json: #"{"email":"\#(Self.email)","password":"\#(Self.chosen)","new_password":"Another-Orchid-99"}"#)
            #expect(again.status == 200)
            #expect(
                try await server.send(.POST, "/v1/login", json: AttackTests.login(Self.email, Self.chosen)).status
                    == 200)
        }
    }

    @Test("the web login asks for a new password on the same form, never echoing a password back")
    func temporaryPasswordOnTheWebPages() async throws {
        try await WebPagesTests.withPages(Backends.sqlite) { server, browser in
            _ = try await Self.plantTemporary(server)
            _ = try await browser.get("/login")
            let asked = try await browser.post("/login", [("email", Self.email), ("password", Self.temporary)])
            #expect(asked.status == 403, "\(asked.html)")
            #expect(asked.html.contains(#"name="new_password""#) && asked.html.contains(#"name="confirmation""#))
            #expect(!asked.html.contains(Self.temporary), "the password typed is not in the page")
            let weak = try await browser.post(
                "/login",
                [
                    ("email", Self.email), ("password", Self.temporary), ("new_password", "abc"),
                    ("confirmation", "abc"),
                ])
            #expect(weak.status == 400 && weak.html.contains(#"name="new_password""#))
            let done = try await browser.post(
                "/login",
                [
                    ("email", Self.email), ("password", Self.temporary), ("new_password", Self.chosen),
                    ("confirmation", Self.chosen),
                ])
            #expect(done.status == 303 && done.location == "/welcome", "\(done.html)")
        }
    }
}
