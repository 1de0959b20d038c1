import AccountBackendKit
import AccountCore
import AccountServer
import BackendTestSupport
import MemoryBackend
import NIOHTTP1
import StandardBackends
import Testing

/// Every native route over HTTP, on every backend: the same statuses and codes on all.
@Suite("Native API")
struct NativeAPITests {
    static let backends: [any BackendDescriptor] = BackendRegistry.embedded.descriptors + [MemoryBackendDescriptor()]
    static let password = "Tangerine-Kayak-42"
    static let newPassword = "Quokka-Lantern-77"

    /// The whole life of an account through the API; returns (step, status, code) for each call
    /// so every backend's transcript can be compared with the expected one.
    static func accountLife(_ server: LiveServer) async throws -> [String] {
        var transcript: [String] = []
        func note(_ step: String, _ reply: ServerClient.Reply) {
            transcript.append("\(step) \(reply.status) \(reply.code ?? "-")")
        }
        let signUp = """
            {"email":"leesoon7@example.com","password":"\(password)","nickname":"이순신"}
            """
        let created = try await server.send(.POST, "/v1/signup", json: signUp)
        note("signup", created)
        let first = try #require(created.token)
        #expect((created.json["user"] as? [String: Any])?["nickname"] as? String == "이순신")
        note("signup again", try await server.send(.POST, "/v1/signup", json: signUp))
        note(
            "signup with a bad ID",
            try await server.send(
                .POST, "/v1/signup", json: #"{"email":"Abc@x","password":"\#(password)","nickname":"이순신"}"#))
        let me = try await server.send(.GET, "/v1/me", token: first, headers: [("Accept-Language", "ko-KR,ko;q=0.9")])
        note("me", me)
        #expect(me.json["welcome"] as? String == "이순신 님 환영합니다.")
        let login = try await server.send(
            .POST, "/v1/login", json: #"{"email":"leesoon7@example.com","password":"\#(password)","remember":true}"#)
        note("login", login)
        let second = try #require(login.token)
        note(
            "login with a wrong password",
            try await server.send(
                .POST, "/v1/login", json: #"{"email":"leesoon7@example.com","password":"Wrong-Kayak-42"}"#))
        note(
            "password with a wrong current one",
            try await server.send(
                .POST, "/v1/password", json: #"{"current_password":"Wrong-Kayak-42","new_password":"\#(newPassword)"}"#,
                token: second))
        note(
            "password",
            try await server.send(
                .POST, "/v1/password", json: #"{"current_password":"\#(password)","new_password":"\#(newPassword)"}"#,
                token: second))
        note("me with the other session", try await server.send(.GET, "/v1/me", token: first))
        note("me with the session used", try await server.send(.GET, "/v1/me", token: second))
        note("logout", try await server.send(.POST, "/v1/logout", token: second))
        note("me after logout", try await server.send(.GET, "/v1/me", token: second))
        let third = try #require(
            try await server.send(
                .POST, "/v1/login", json: #"{"email":"leesoon7@example.com","password":"\#(newPassword)"}"#
            ).token)
        note(
            "withdraw with a wrong password",
            try await server.send(.POST, "/v1/withdraw", json: #"{"password":"x"}"#, token: third))
        note(
            "withdraw",
            try await server.send(.POST, "/v1/withdraw", json: #"{"password":"\#(newPassword)"}"#, token: third))
        note("me after withdrawal", try await server.send(.GET, "/v1/me", token: third))
        note("healthz", try await server.send(.GET, "/healthz"))
        return transcript
    }

    static let expected = [
        "signup 201 -", "signup again 409 email_taken", "signup with a bad ID 400 invalid_email", "me 200 -",
        "login 200 -", "login with a wrong password 401 invalid_credentials",
        "password with a wrong current one 403 wrong_password", "password 200 -",
        "me with the other session 401 not_signed_in", "me with the session used 200 -", "logout 200 -",
        "me after logout 401 not_signed_in", "withdraw with a wrong password 403 wrong_password",
        "withdraw 200 -", "me after withdrawal 401 not_signed_in", "healthz 200 -",
    ]

    @Test("an account's whole life over HTTP gives the same answers on every backend", arguments: backends)
    func accountLife(_ backend: any BackendDescriptor) async throws {
        try await LiveServer.with(backend) { server throws in
            #expect(try await Self.accountLife(server) == Self.expected)
            #expect(try await server.repository.userCount() == 0, "the withdrawal deleted the user")
        }
    }

    @Test(
        "an account's whole life over HTTP on PostgreSQL",
        .enabled(if: PostgresTestServer.isConfigured, Comment(rawValue: PostgresTestServer.skipReason)))
    func accountLifePostgres() async throws {
        try await LiveServer.with(Backends.postgres) { server throws in
            #expect(try await Self.accountLife(server) == Self.expected)
        }
    }

    @Test("tokens are stored only as SHA-256, and no password or token reaches the request log")
    func secrets() async throws {
        try await LiveServer.with(Backends.sqlite) { server in
            let created = try await server.send(
                .POST, "/v1/signup",
                json: #"{"email":"leesoon7@example.com","password":"\#(Self.password)","nickname":"이순신"}"#)
            let token = try #require(created.token)
            _ = try await server.send(.GET, "/v1/me?token=\(token)", token: token)
            #expect(try await server.repository.session(tokenHash: token) == nil)
            let log = server.log.text
            #expect(log.contains("path=/v1/signup"), "one line per request")
            #expect(log.contains("status=201"))
            #expect(!log.contains(Self.password))
            #expect(!log.contains(token))
            #expect(!log.lowercased().contains("bearer"))
        }
    }
}
