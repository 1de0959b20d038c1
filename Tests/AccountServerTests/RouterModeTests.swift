import AccountCore
import AccountCrypto
import AccountServer
import AccountServerSettings
import AccountTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MemoryBackend
import NIOCore
import Testing

/// The routes in Hummingbird's router test mode: requests go straight to the router, with no
/// socket, so the routes' answers are checked on their own, apart from the server around them
/// (the live-socket suites: limits per peer, parsers, TLS, SIGTERM). Over the memory backend.
@Suite("Routes in the router test mode")
struct RouterModeTests {
    static let password = "Tangerine-Kayak-42"

    /// An application with the routes over a fresh memory store, as an embedding app mounts them.
    static func application() -> some ApplicationProtocol {
        let service = AccountService(
            repository: MemoryUserRepository(), hasher: Argon2idPasswordHasher.fastForTests,
            strength: ZxcvbnStrengthEstimator(), digester: SHA256TokenDigester(), random: SodiumRandomSource(),
            clock: ManualClock())
        let router = Router(context: AccountRequestContext.self)
        AccountAPI(service: service, backendName: "memory").addRoutes(to: router)
        return Application(router: router)
    }

    static func json(_ response: TestResponse) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any]) ?? [:]
    }

    static func post(_ client: some TestClientProtocol, _ path: String, _ body: String, token: String? = nil)
        async throws -> TestResponse
    {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let token { headers[.authorization] = "Bearer \(token)" }
        return try await client.execute(uri: path, method: .post, headers: headers, body: ByteBuffer(string: body))
    }

    @Test("sign-up, who is signed in, logout and a wrong password, as the native API answers them")
    func nativeFlow() async throws {
        try await Self.application().test(.router) { client in
            let created = try await Self.post(
                client, "/v1/signup",
                #"{"email":"leesoon7@example.com","password":"\#(Self.password)","nickname":"이순신"}"#)
            #expect(created.status == .created)
            let token = try #require(Self.json(created)["token"] as? String)
            let me = try await client.execute(
                uri: "/v1/me", method: .get, headers: [.authorization: "Bearer \(token)", .acceptLanguage: "ko"])
            #expect(me.status == .ok)
            #expect(Self.json(me)["welcome"] as? String == "이순신 님 환영합니다.")
            #expect(me.headers[.cacheControl] == "no-store")
            #expect(try await Self.post(client, "/v1/logout", "", token: token).status == .ok)
            let gone = try await client.execute(
                uri: "/v1/me", method: .get, headers: [.authorization: "Bearer \(token)"])
            #expect(gone.status == .unauthorized)
            #expect(Self.json(gone)["code"] as? String == "not_signed_in")
            let wrong = try await Self.post(
                client, "/v1/login", #"{"email":"leesoon7@example.com","password":"Wrong-Kayak-42"}"#)
            #expect(wrong.status == .unauthorized)
            #expect(Self.json(wrong)["code"] as? String == "invalid_credentials")
        }
    }

    @Test("a form that breaks several rules gets every one of them in one answer")
    func everyRuleAtOnce() async throws {
        try await Self.application().test(.router) { client in
            let refused = try await Self.post(
                client, "/v1/signup", #"{"email":"Lee_soon@x","password":"short","nickname":"이"}"#)
            #expect(refused.status == .badRequest)
            let problems = Self.json(refused)["problems"] as? [[String: Any]] ?? []
            #expect(Set(problems.compactMap { $0["field"] as? String }) == ["email", "nickname", "password"])
        }
    }

    @Test("Strapi's register and users/me answer in Strapi's shapes")
    func strapiShapes() async throws {
        try await Self.application().test(.router) { client in
            let registered = try await Self.post(
                client, "/api/auth/local/register",
                #"{"username":"이순신","email":"leesoon7@example.com","password":"\#(Self.password)"}"#)
            #expect(registered.status == .ok)
            let body = Self.json(registered)
            let jwt = try #require(body["jwt"] as? String)
            #expect((body["user"] as? [String: Any])?["id"] as? Int == 1)
            let me = try await client.execute(
                uri: "/api/users/me", method: .get, headers: [.authorization: "Bearer \(jwt)"])
            #expect(Self.json(me)["username"] as? String == "이순신")
            let wrong = try await Self.post(
                client, "/api/auth/local", #"{"identifier":"leesoon7@example.com","password":"nope-nope-nope"}"#)
            #expect(wrong.status == .badRequest)
            #expect((Self.json(wrong)["error"] as? [String: Any])?["name"] as? String == "ValidationError")
        }
    }

    @Test("an unknown path under /v1 is 404 not_found; a known one with another method is 405 with Allow")
    func unknownPathsAndMethods() async throws {
        try await Self.application().test(.router) { client in
            let missing = try await client.execute(uri: "/v1/nothing-here", method: .get)
            #expect(missing.status == .notFound)
            #expect(Self.json(missing)["code"] as? String == "not_found")
            let method = try await client.execute(uri: "/v1/signup", method: .get)
            #expect(method.status == .methodNotAllowed)
            #expect(method.headers[.allow]?.contains("POST") == true)
        }
    }
}
