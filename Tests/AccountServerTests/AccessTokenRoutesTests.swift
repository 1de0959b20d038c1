import AccountBackendKit
import AccountCore
import AccountTestSupport
import AccountTokens
import BackendTestSupport
import Foundation
import NIOHTTP1
import StandardBackends
import Testing

/// `session.access_tokens: jwt` through the routes, on every embedded backend: each session
/// comes with a signed access token and a refresh token; this server refuses an access token
/// as soon as its session ends, where a service holding only the key set waits for its expiry.
@Suite("Signed access tokens over HTTP")
struct AccessTokenRoutesTests {
    static let email = AttackTests.email
    static let password = AttackTests.password

    @Test(
        "login → JWT bearer → refresh → logout ends the access and refresh tokens at once",
        arguments: BackendRegistry.embedded.descriptors)
    func nativeFlow(_ backend: any BackendDescriptor) async throws {
        try await LiveServer.with(backend, accessTokens: true) { server in
            let signedUp = try await server.send(.POST, "/v1/signup", json: AttackTests.signUp)
            #expect(signedUp.status == 201)
            let access = try #require(signedUp.token)
            let refresh = try #require(signedUp.json["refresh_token"] as? String)
            #expect(access.split(separator: ".").count == 3 && refresh.count == 64)
            #expect(
                signedUp.json["access_expires_at_ms"] as? Int64
                    == (server.clock.now().millisecondsSince1970 / 1000 + SessionPolicy().accessTokenLifetimeSeconds)
                    * 1000)
            let claims = try #require(await server.accessTokens?.claims(of: access))
            #expect(claims.number == 1 && claims.methods == ["pwd"])
            #expect(try await server.send(.GET, "/v1/me", token: access).status == 200)
            #expect(
                try await server.send(.GET, "/v1/me", token: refresh).status == 200,
                "the session's own token still works")
            let keys = try await server.send(.GET, "/.well-known/jwks.json")
            #expect(keys.status == 200 && keys.headers["Cache-Control"].first == "public, max-age=60")
            #expect((keys.json["keys"] as? [[String: Any]])?.count == 1)

            let renewed = try await server.send(.POST, "/v1/refresh", json: #"{"refresh_token":"\#(refresh)"}"#)
            #expect(renewed.status == 200, "\(renewed.text)")
            let newAccess = try #require(renewed.token)
            let newRefresh = try #require(renewed.json["refresh_token"] as? String)
            #expect(newRefresh != refresh && newAccess != access)
            #expect(try await server.send(.GET, "/v1/me", token: access).status == 200, "one login: the older JWT too")
            let withAccess = try await server.send(.POST, "/v1/refresh", json: #"{"refresh_token":"\#(newAccess)"}"#)
            #expect(withAccess.status == 401, "an access token refreshes nothing")

            #expect(try await server.send(.POST, "/v1/logout", token: newAccess).status == 200)
            #expect(try await server.send(.GET, "/v1/me", token: newAccess).status == 401)
            #expect(try await server.send(.GET, "/v1/me", token: access).status == 401)
            let after = try await server.send(.POST, "/v1/refresh", json: #"{"refresh_token":"\#(newRefresh)"}"#)
            #expect(after.status == 401, "the logout ended the refresh token too")
        }
    }

    @Test("an access token expires by the server's clock; a password change ends the other sessions' tokens")
    func expiryAndPasswordChange() async throws {
        try await LiveServer.with(Backends.sqlite, accessTokens: true) { server in
            let first = try #require(try await server.send(.POST, "/v1/signup", json: AttackTests.signUp).token)
            let second = try #require(
                try await server.send(.POST, "/v1/login", json: AttackTests.login(Self.email, Self.password)).token)
            let change = try await server.send(
                .POST, "/v1/password",
                json: #"{"current_password":"\#(Self.password)","new_password":"Quokka-Lantern-77"}"#,
                token: first)
            #expect(change.status == 200, "\(change.text)")
            #expect(try await server.send(.GET, "/v1/me", token: second).status == 401)
            #expect(try await server.send(.GET, "/v1/me", token: first).status == 200)
            server.clock.advance(seconds: SessionPolicy().accessTokenLifetimeSeconds)
            let expired = try await server.send(.GET, "/v1/me", token: first)
            #expect(expired.status == 401 && expired.code == "session_expired")
        }
    }

    @Test("Strapi: jwt is the access token, refreshToken the session's; /api/auth/refresh gives a new pair")
    func strapiShapes() async throws {
        try await LiveServer.with(Backends.sqlite, accessTokens: true) { server in
            let registered = try await server.send(
                .POST, "/api/auth/local/register",
                json: #"{"username":"sesac","email":"sesac7@example.com","password":"\#(Self.password)"}"#)
            let jwt = try #require(registered.json["jwt"] as? String)
            let refresh = try #require(registered.json["refreshToken"] as? String)
            #expect(jwt.split(separator: ".").count == 3 && refresh.count == 64)
            #expect(try await server.send(.GET, "/api/users/me", token: jwt).json["username"] as? String == "sesac")
            let renewed = try await server.send(.POST, "/api/auth/refresh", json: #"{"refreshToken":"\#(refresh)"}"#)
            #expect(renewed.status == 200)
            #expect((renewed.json["jwt"] as? String)?.split(separator: ".").count == 3)
            let replayed = try await server.send(.POST, "/api/auth/refresh", json: #"{"refreshToken":"\#(jwt)"}"#)
            #expect(replayed.status == 401, "a JWT is no refresh token")
        }
    }

    @Test("with opaque tokens there is no key set and no refresh_token field")
    func opaqueMode() async throws {
        try await LiveServer.with(Backends.sqlite) { server in
            let signedUp = try await server.send(.POST, "/v1/signup", json: AttackTests.signUp)
            #expect(signedUp.json["refresh_token"] == nil && signedUp.token?.count == 64)
            #expect(try await server.send(.GET, "/.well-known/jwks.json").status == 404)
            let renewed = try await server.send(
                .POST, "/v1/refresh", json: #"{"refresh_token":"\#(try #require(signedUp.token))"}"#)
            #expect(renewed.status == 200 && renewed.token?.count == 64)
        }
    }
}
