import AccountBackendKit
import AccountTestSupport
import BackendTestSupport
import Foundation
import StandardBackends
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The community app's client as the app is written: `URLSession` posting form bodies
/// (`username=…&email=…&password=…`, built with `URLComponents`) to Strapi's routes and decoding
/// `Codable` models whose `id` is an `Int`, against the real server on a loopback port.
@Suite("A Strapi app's own client: URLSession, form bodies, Codable models with Int ids")
struct StrapiAppClientTests {
    /// The app's user model, field for field as it decodes Strapi's.
    struct User: Codable, Equatable {
        let id: Int
        let documentId: String
        let username: String
        let email: String
        let provider: String
        let confirmed: Bool
        let blocked: Bool
        let createdAt: String
        let updatedAt: String
        let publishedAt: String
    }

    /// The app's answer to a sign-up or a login.
    struct Auth: Codable {
        let jwt: String
        let user: User
    }

    static let password = "Marmot-Velvet-Quarry-81"
    static let newPassword = "Kettle-Orchid-Basalt-27"

    @Test(
        "sign-up, login, me and a password change decode into the app's models",
        arguments: BackendRegistry.embedded.descriptors)
    func appClient(_ backend: any BackendDescriptor) async throws {
        try await LiveServer.with(backend) { server in
            let app = AppClient(base: "http://127.0.0.1:\(server.port)")
            let first = try await app.post(
                "/api/auth/local/register",
                [("username", "sesac"), ("email", "sesacuser1@example.com"), ("password", Self.password)], as: Auth.self
            )
            let second = try await app.post(
                "/api/auth/local/register",
                [("username", "second"), ("email", "seconduser1@example.com"), ("password", Self.password)],
                as: Auth.self)
            #expect(first.user.id == 1 && second.user.id == 2, "ids \(first.user.id), \(second.user.id)")
            #expect(first.user.documentId.count == 32 && first.user.documentId != second.user.documentId)
            #expect(first.user.username == "sesac" && first.user.provider == "local" && first.user.confirmed)

            let login = try await app.post(
                "/api/auth/local", [("identifier", "sesacuser1@example.com"), ("password", Self.password)],
                as: Auth.self)
            #expect(login.user == first.user)
            let me = try await app.get("/api/users/me", token: login.jwt, as: User.self)
            #expect(me == first.user)
            #expect(me.updatedAt == me.createdAt)

            server.clock.advance(seconds: 90)
            let changed = try await app.post(
                "/api/auth/change-password",
                [
                    ("currentPassword", Self.password), ("password", Self.newPassword),
                    ("passwordConfirmation", Self.newPassword),
                ], token: login.jwt, as: Auth.self)
            #expect(changed.user.id == 1)
            let after = try await app.get("/api/users/me", token: login.jwt, as: User.self)
            #expect(
                after.updatedAt > me.updatedAt && after.createdAt == me.createdAt,
                "\(me.updatedAt) → \(after.updatedAt)")
        }
    }
}

/// The app's networking, as written for Strapi: form bodies built with `URLComponents`, JSON
/// answers decoded with `JSONDecoder`, anything but 2xx an error.
struct AppClient: Sendable {
    let base: String

    struct Refused: Error, CustomStringConvertible {
        let status: Int
        let body: String
        var description: String { "HTTP \(status): \(body)" }
    }

    func post<T: Decodable>(_ path: String, _ fields: [(String, String)], token: String? = nil, as type: T.Type)
        async throws -> T
    {
        var components = URLComponents()
        components.queryItems = fields.map { URLQueryItem(name: $0.0, value: $0.1) }
        var request = try self.request(path, token: token)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data((components.percentEncodedQuery ?? "").utf8)
        return try await send(request, as: type)
    }

    func get<T: Decodable>(_ path: String, token: String?, as type: T.Type) async throws -> T {
        try await send(try request(path, token: token), as: type)
    }

    private func request(_ path: String, token: String?) throws -> URLRequest {
        var request = URLRequest(url: try #require(URL(string: base + path)))
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        return request
    }

    private func send<T: Decodable>(_ request: URLRequest, as type: T.Type) async throws -> T {
        let (data, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard (200..<300).contains(status) else {
            throw Refused(status: status, body: String(decoding: data, as: UTF8.self))
        }
        return try JSONDecoder().decode(type, from: data)
    }
}
