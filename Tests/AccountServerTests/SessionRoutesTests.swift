import AccountBackendKit
import AccountCore
import AccountServer
import BackendTestSupport
import Foundation
import MemoryBackend
import NIOHTTP1
import StandardBackends
import Testing

/// Where a user is signed in, over HTTP: the native routes and Strapi v5's session routes, on
/// every embedded backend.
@Suite("Session routes")
struct SessionRoutesTests {
    static let backends: [any BackendDescriptor] = BackendRegistry.embedded.descriptors + [MemoryBackendDescriptor()]
    static let password = "Tangerine-Kayak-42"

    static func signUp(_ server: LiveServer, _ email: String = "leesoon7@example.com") async throws -> String {
        let reply = try await server.send(
            .POST, "/v1/signup", json: #"{"email":"\#(email)","password":"\#(password)","nickname":"이순신"}"#,
            headers: [("User-Agent", "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0")])
        return try #require(reply.token)
    }

    static func login(_ server: LiveServer, device: String) async throws -> String {
        let reply = try await server.send(
            .POST, "/v1/login",
            json: #"{"email":"leesoon7@example.com","password":"\#(password)","device":"\#(device)"}"#)
        return try #require(reply.token)
    }

    static func sessions(_ server: LiveServer, _ token: String) async throws -> [[String: Any]] {
        let reply = try await server.send(.GET, "/v1/sessions", token: token)
        #expect(reply.status == 200)
        return try #require(reply.json["sessions"] as? [[String: Any]])
    }

    @Test("GET /v1/sessions lists each device, DELETE /v1/sessions/{id} signs one out", arguments: backends)
    func listAndRevoke(_ backend: any BackendDescriptor) async throws {
        try await LiveServer.with(backend) { server in
            let laptop = try await Self.signUp(server)
            let phone = try await Self.login(server, device: "내 휴대폰")
            let listed = try await Self.sessions(server, laptop)
            #expect(Set(listed.compactMap { $0["device"] as? String }) == ["Firefox on Linux", "내 휴대폰"])
            #expect(
                listed.filter { $0["current"] as? Bool == true }.map { $0["device"] as? String } == [
                    "Firefox on Linux"
                ])
            let text = try await server.send(.GET, "/v1/sessions", token: laptop).text
            for secret in [laptop, phone] { #expect(!text.contains(secret)) }
            let phoneID = try #require(listed.first { $0["device"] as? String == "내 휴대폰" }?["id"] as? String)
            #expect(try await server.send(.DELETE, "/v1/sessions/\(phoneID)", token: laptop).status == 200)
            #expect(try await server.send(.GET, "/v1/me", token: phone).code == "not_signed_in")
            let again = try await server.send(.DELETE, "/v1/sessions/\(phoneID)", token: laptop)
            #expect(again.status == 404 && again.code == "session_not_found")
            #expect(try await server.send(.GET, "/v1/me", token: laptop).status == 200)
        }
    }

    @Test("another user's session id is not found, and stays signed in", arguments: backends)
    func noCrossUser(_ backend: any BackendDescriptor) async throws {
        try await LiveServer.with(backend) { server in
            let lee = try await Self.signUp(server)
            let kim = try await Self.signUp(server, "kimyuna5@example.com")
            let kimsID = try #require(try await Self.sessions(server, kim).first?["id"] as? String)
            let refused = try await server.send(.DELETE, "/v1/sessions/\(kimsID)", token: lee)
            #expect(refused.status == 404 && refused.code == "session_not_found")
            #expect(try await server.send(.GET, "/v1/me", token: kim).status == 200)
            let forged = (kim.first == "0" ? "1" : "0") + kim.dropFirst()
            #expect(try await server.send(.GET, "/v1/sessions", token: forged).status == 401)
        }
    }

    @Test("POST /v1/logout?scope=others keeps the asking session, scope=all ends every one", arguments: backends)
    func logoutScopes(_ backend: any BackendDescriptor) async throws {
        try await LiveServer.with(backend) { server in
            let here = try await Self.signUp(server)
            let other = try await Self.login(server, device: "tablet")
            let others = try await server.send(.POST, "/v1/logout?scope=others", token: here)
            #expect(others.status == 200 && others.json["revoked"] as? Int == 1)
            #expect(try await server.send(.GET, "/v1/me", token: other).status == 401)
            #expect(try await server.send(.GET, "/v1/me", token: here).status == 200)
            let unknown = try await server.send(.POST, "/v1/logout?scope=everyone", token: here)
            #expect(unknown.status == 400 && unknown.code == "invalid_request")
            #expect(try await server.send(.GET, "/v1/me", token: here).status == 200, "a refused scope changed nothing")
            let all = try await server.send(.POST, "/v1/logout?scope=all", token: here)
            #expect(all.status == 200 && all.json["revoked"] as? Int == 1)
            #expect(try await server.send(.GET, "/v1/me", token: here).status == 401)
        }
    }

    @Test("a device name that breaks the rule is refused by name, and no session is made", arguments: backends)
    func badDeviceName(_ backend: any BackendDescriptor) async throws {
        try await LiveServer.with(backend) { server in
            let token = try await Self.signUp(server)
            for name in ["", String(repeating: "a", count: 65), "tab\\there"] {
                let reply = try await server.send(
                    .POST, "/v1/login",
                    json: #"{"email":"leesoon7@example.com","password":"\#(Self.password)","device":"\#(name)"}"#)
                #expect(reply.status == 400 && reply.code == "invalid_device_name")
                #expect((reply.json["message"] as? String)?.contains(#""device""#) == true)
            }
            #expect(try await Self.sessions(server, token).count == 1)
        }
    }

    @Test(
        "Strapi v5: login keeps deviceId, refresh rotates the token, logout signs out a device or all",
        arguments: backends)
    func strapiSessions(_ backend: any BackendDescriptor) async throws {
        try await LiveServer.with(backend) { server in
            let register = try await server.send(
                .POST, "/api/auth/local/register",
                json: #"{"username":"sesac","email":"sesacuser1@example.com","password":"\#(Self.password)"}"#)
            let first = try #require(register.json["jwt"] as? String)
            #expect(register.json["refreshToken"] as? String == first)
            let login = try await server.send(
                .POST, "/api/auth/local",
                json: #"{"identifier":"sesacuser1@example.com","password":"\#(Self.password)","deviceId":"phone-1"}"#)
            let phone = try #require(login.json["refreshToken"] as? String)
            let refreshed = try await server.send(
                .POST, "/api/auth/refresh", json: #"{"refreshToken":"\#(phone)"}"#)
            let renewed = try #require(refreshed.json["jwt"] as? String)
            #expect(renewed != phone && refreshed.json["refreshToken"] as? String == renewed)
            #expect(try await server.send(.GET, "/api/users/me", token: phone).status == 401)
            let reused = try await server.send(.POST, "/api/auth/refresh", json: #"{"refreshToken":"\#(phone)"}"#)
            #expect(reused.status == 401)
            let byDevice = try await server.send(
                .POST, "/api/auth/logout", json: #"{"deviceId":"phone-1"}"#, token: first)
            #expect(byDevice.status == 200 && byDevice.json["ok"] as? Bool == true)
            #expect(try await server.send(.GET, "/api/users/me", token: renewed).status == 401)
            #expect(try await server.send(.GET, "/api/users/me", token: first).status == 200)
            let all = try await server.send(.POST, "/api/auth/logout", token: first)
            #expect(all.status == 200)
            #expect(try await server.send(.GET, "/api/users/me", token: first).status == 401)
            #expect(try await server.send(.POST, "/api/auth/logout", token: first).status == 401)
        }
    }
}
