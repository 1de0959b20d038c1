import AccountBackendKit
import AccountCore
import AccountTestSupport
import BackendTestSupport
import NIOHTTP1
import StandardBackends
import Testing

/// The community app's flow against Strapi's users-permissions routes, as its client sends it.
@Suite("Strapi-compatible auth routes")
struct StrapiAPITests {
    static let password = "Tangerine-Kayak-42"
    static let newPassword = "Quokka-Lantern-77"
    /// From `password` to `newPassword`, as a Strapi client posts it.
    static let changePasswordBody = #"""
        {"currentPassword":"\#(password)","password":"\#(newPassword)","passwordConfirmation":"\#(newPassword)"}
        """#

    @Test(
        "register → login → me → change password → old token refused → login with the new password",
        arguments: BackendRegistry.embedded.descriptors)
    func communityAppFlow(_ backend: any BackendDescriptor) async throws {
        try await LiveServer.with(backend) { server in
            let registered = try await server.send(
                .POST, "/api/auth/local/register",
                json: #"{"username":"이순신","email":"leesoon7@example.com","password":"\#(Self.password)"}"#)
            #expect(registered.status == 200)
            let registeredJWT = try #require(registered.json["jwt"] as? String)
            let user = try #require(registered.json["user"] as? [String: Any])
            #expect(user["username"] as? String == "이순신")
            #expect(user["email"] as? String == "leesoon7@example.com")
            #expect(user["provider"] as? String == "local")
            #expect(user["password"] == nil && user["passwordHash"] == nil)

            let login = try await server.send(
                .POST, "/api/auth/local", json: #"{"identifier":"leesoon7@example.com","password":"\#(Self.password)"}"#
            )
            #expect(login.status == 200)
            let jwt = try #require(login.json["jwt"] as? String)

            let me = try await server.send(.GET, "/api/users/me", token: jwt)
            #expect(me.status == 200)
            #expect(me.json["username"] as? String == "이순신")

            let changed = try await server.send(
                .POST, "/api/auth/change-password", json: Self.changePasswordBody, token: jwt)
            #expect(changed.status == 200)
            #expect(changed.json["jwt"] as? String == jwt, "the session used for the change stays valid")

            let old = try await server.send(.GET, "/api/users/me", token: registeredJWT)
            #expect(old.status == 401)
            let error = try #require(old.json["error"] as? [String: Any])
            #expect(error["name"] as? String == "UnauthorizedError")
            #expect(error["status"] as? Int == 401)
            #expect(old.json.keys.contains("data"))

            let refused = try await server.send(
                .POST, "/api/auth/local", json: #"{"identifier":"leesoon7@example.com","password":"\#(Self.password)"}"#
            )
            #expect(refused.status == 400, "Strapi answers wrong credentials with 400")
            #expect((refused.json["error"] as? [String: Any])?["name"] as? String == "ValidationError")
            let relogin = try await server.send(
                .POST, "/api/auth/local",
                json: #"{"identifier":"leesoon7@example.com","password":"\#(Self.newPassword)"}"#)
            #expect(relogin.status == 200)
        }
    }

    @Test("Strapi errors: AccountStore's rules as ValidationError, a taken email as ApplicationError")
    func errors() async throws {
        try await LiveServer.with(Backends.sqlite) { server in
            let weak = try await server.send(
                .POST, "/api/auth/local/register",
                json: #"{"username":"이순신","email":"leesoon7@example.com","password":"password1"}"#,
                headers: [("Accept-Language", "ko")])
            #expect(weak.status == 400)
            let weakError = try #require(weak.json["error"] as? [String: Any])
            #expect(weakError["name"] as? String == "ValidationError")
            #expect((weakError["details"] as? [String: Any])?["code"] as? String == "weak_password")
            #expect((weakError["message"] as? String)?.contains("비밀번호") == true, "Korean by Accept-Language")

            let body = #"{"username":"이순신","email":"leesoon7@example.com","password":"\#(Self.password)"}"#
            #expect(try await server.send(.POST, "/api/auth/local/register", json: body).status == 200)
            let taken = try await server.send(.POST, "/api/auth/local/register", json: body)
            #expect(taken.status == 400)
            #expect((taken.json["error"] as? [String: Any])?["name"] as? String == "ApplicationError")
            #expect(try await server.repository.userCount() == 1)
        }
    }

    @Test("updatedAt moves when the password changes; publishedAt is the creation, as Strapi v5 has it")
    func updatedAt() async throws {
        try await LiveServer.with(Backends.sqlite) { server in
            let registered = try await server.send(
                .POST, "/api/auth/local/register",
                json: #"{"username":"이순신","email":"leesoon7@example.com","password":"\#(Self.password)"}"#)
            let user = try #require(registered.json["user"] as? [String: Any])
            let created = try #require(user["createdAt"] as? String)
            #expect(user["updatedAt"] as? String == created)
            #expect(user["publishedAt"] as? String == created)
            let jwt = try #require(registered.json["jwt"] as? String)

            server.clock.advance(seconds: 90)
            let changed = try await server.send(
                .POST, "/api/auth/change-password", json: Self.changePasswordBody, token: jwt)
            #expect(changed.status == 200)
            let me = try await server.send(.GET, "/api/users/me", token: jwt)
            let updated = try #require(me.json["updatedAt"] as? String)
            #expect(me.json["createdAt"] as? String == created, "the creation stays")
            #expect(updated > created, "ISO 8601 in UTC sorts as time does")
            #expect(updated == server.clock.now().iso8601, "the change's time")
            #expect((changed.json["user"] as? [String: Any])?["updatedAt"] as? String == updated)
        }
    }

    @Test("confirmed is false until the email is proven when sign-up requires proof, true for all otherwise")
    func confirmedFollowsProof() async throws {
        let register = #"{"username":"sesac","email":"sesac7@example.com","password":"\#(Self.password)"}"#
        try await LiveServer.with(Backends.sqlite, requireVerifiedEmail: true) { server in
            let registered = try await server.send(.POST, "/api/auth/local/register", json: register)
            let user = try #require(registered.json["user"] as? [String: Any])
            #expect(user["confirmed"] as? Bool == false)
            let code = try await RecoveryAttackTests.mailedCode(server)
            let confirmed = try await server.send(.GET, "/api/auth/email-confirmation?confirmation=\(code)")
            #expect(confirmed.status == 200 && confirmed.json["confirmed"] as? Bool == true, "\(confirmed.text)")
            let me = try await server.send(
                .GET, "/api/users/me", token: try #require(registered.json["jwt"] as? String))
            #expect(me.json["confirmed"] as? Bool == true)
        }
        try await LiveServer.with(Backends.sqlite) { server in
            let registered = try await server.send(.POST, "/api/auth/local/register", json: register)
            #expect((registered.json["user"] as? [String: Any])?["confirmed"] as? Bool == true)
        }
    }
}
