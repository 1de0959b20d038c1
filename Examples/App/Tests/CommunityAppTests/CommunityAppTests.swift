import AccountCore
import AccountCrypto
import CommunityApp
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

/// The app as its users meet it: a real server on a free loopback port, over a SQLite store in
/// a scratch folder of the test's own.
@Suite struct CommunityAppTests {
    /// Runs `body` against the app on a fresh store, then closes the store and removes the folder.
    private func withApp(_ body: @escaping @Sendable (CommunityApp, any TestClientProtocol) async throws -> Void)
        async throws
    {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("community-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // The cheapest Argon2id libsodium allows: the test is about the routes, not the cost.
        let app = try await CommunityApp(
            storePath: folder.appendingPathComponent("community.sqlite").path, hasher: .fastForTests)
        do {
            try await app.application(port: 0, logger: Logger(label: "test")).test(.live) { client in
                try await body(app, client)
            }
        } catch {
            try await app.close()
            throw error
        }
        try await app.close()
    }

    /// POSTs `json` to `path` and returns the status and the JSON object answered.
    private static func post(_ json: String, to path: String, with client: any TestClientProtocol) async throws
        -> (HTTPResponse.Status, [String: Any])
    {
        try await client.execute(
            uri: path, method: .post, headers: [.contentType: "application/json"], body: ByteBuffer(string: json)
        ) { response in
            let object = try JSONSerialization.jsonObject(with: Data(String(buffer: response.body).utf8))
            return (response.status, try #require(object as? [String: Any]))
        }
    }

    @Test("a member who signed up through the API is greeted by the app's own route, in Korean when asked")
    func signUpThenWelcome() async throws {
        try await withApp { _, client in
            let form = #"{"email":"leesoon7@example.com","password":"Tangerine-Kayak-42","nickname":"이순신"}"#
            let (status, answer) = try await Self.post(form, to: "/v1/signup", with: client)
            #expect(status == .created)
            let token = try #require(answer["token"] as? String)
            try await client.execute(
                uri: "/community/welcome", method: .get,
                headers: [.authorization: "Bearer \(token)", .acceptLanguage: "ko"]
            ) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == "이순신 님 환영합니다.")
            }
            try await client.execute(uri: "/v1/logout", method: .post, headers: [.authorization: "Bearer \(token)"]) {
                #expect($0.status == .ok)
            }
            try await client.execute(
                uri: "/community/welcome", method: .get, headers: [.authorization: "Bearer \(token)"]
            ) { response in
                #expect(response.status == .unauthorized)
            }
        }
    }

    @Test("the app's code and the API share one store: a member the service signs up logs in over HTTP")
    func serviceAndAPIShareTheStore() async throws {
        try await withApp { app, client in
            let password = "Tangerine-Kayak-42"
            // snippet.signup
            let signedIn = try await app.service.signUp(
                email: "leesoon7@example.com", password: password, confirmation: password, nickname: "이순신")
            // The apps go straight to the welcome screen: "이순신 님 환영합니다."
            // snippet.end
            #expect(signedIn.profile.welcome(.korean) == "이순신 님 환영합니다.")
            let login = #"{"email":"leesoon7@example.com","password":"Tangerine-Kayak-42"}"#
            let (status, answer) = try await Self.post(login, to: "/v1/login", with: client)
            #expect(status == .ok)
            let user = answer["user"] as? [String: Any]
            #expect(user?["id"] as? String == signedIn.profile.id.rawValue)
            try await client.execute(uri: "/community/welcome", method: .get) { response in
                #expect(response.status == .unauthorized)
            }
        }
    }

    @Test("the web pages are mounted too: the start page shows a guest the way to sign up")
    func startPage() async throws {
        try await withApp { _, client in
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains("href=\"/signup\""))
            }
        }
    }

    @Test("the Getting started program runs as the article shows it: every rule at once, then the whole life")
    func gettingStartedRuns() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("started-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let token = folder.appendingPathComponent("token").path
        let shown = try await gettingStarted(
            storePath: folder.appendingPathComponent("app.sqlite").path, tokenPath: token, hasher: .fastForTests)
        let fields = shown.compactMap { $0.split(separator: ":").first.map(String.init) }
        #expect(Set(fields).isSuperset(of: ["email", "nickname", "password", "confirmation"]), "\(shown)")
        #expect(shown.suffix(4) == ["이순신 님 환영합니다.", "Welcome, 이순신.", "Signed in on 1 device(s).", "withdrawn"])
        let mode = try FileManager.default.attributesOfItem(atPath: token)[.posixPermissions] as? Int
        #expect(mode == 0o600, "the saved token is the user's alone")
    }
}
