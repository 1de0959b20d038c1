import AccountBackendKit
import AccountCore
import AccountTestSupport
import BackendTestSupport
import Foundation
import MemoryBackend
import NIOHTTP1
import StandardBackends
import Synchronization
import Testing

/// The third security review's attacks, replayed against a live server over raw sockets where
/// an HTTP library would not send what an attacker does: device tokens collected before the
/// owner signed up, a planted look-alike session cookie, a UTF-16 body, a cross-site form post
/// to the Strapi routes, an HTTP/1.0 client, and request ids that count the traffic.
@Suite("Attacks on a live server, third round")
struct ThirdRoundAttackTests {
    static let email = "leesoon7@example.com"
    static let password = "Tangerine-Kayak-42"

    @Test("device tokens collected by someone who signed the email up first prove nothing to the owner's account")
    func tokensFromBeforeTheOwner() async throws {
        try await LiveServer.with(Backends.sqlite) { server in
            // The attacker signs the owner's email up first (no proof of the email is needed),
            // collects device tokens, and withdraws.
            let squatted = try await server.send(
                .POST, "/v1/signup",
                json: #"{"email":"\#(Self.email)","password":"Walrus-Harbor-Lantern-7","nickname":"mallory"}"#)
            var tokens = [try #require(squatted.json["device_token"] as? String)]
            for _ in 1...4 {
                let login = try await server.send(
                    .POST, "/v1/login", json: AttackTests.login(Self.email, "Walrus-Harbor-Lantern-7"))
                tokens.append(try #require(login.json["device_token"] as? String))
            }
            let session = try #require(squatted.token)
            #expect(
                try await server.send(
                    .POST, "/v1/withdraw", json: #"{"password":"Walrus-Harbor-Lantern-7"}"#, token: session
                ).status == 200)
            // The owner signs up. The old tokens, each a "known device" for the email, are now
            // unknown devices: together they get the account's ceiling of guesses, no more.
            _ = try await server.send(.POST, "/v1/signup", json: AttackTests.signUp)
            let ceiling = LoginThrottlePolicy().accountCeiling
            var statuses: [Int] = []
            for (n, token) in tokens.enumerated() {
                for guess in 1...5 {
                    statuses.append(
                        try await LoopbackExchange.postJSON(
                            "/v1/login", AttackTests.login(Self.email, "Wrong-\(n)-\(guess)", deviceToken: token),
                            port: server.port, from: "127.0.0.\(2 + n)"
                        ).status)
                }
            }
            #expect(statuses.count { $0 == 401 } == ceiling, "guesses checked: \(statuses)")
            #expect(Set(statuses) == [401, 429], "\(statuses)")
        }
    }

    @Test(
        "a refresh token replayed after its grace signs out its whole line; twenty racing refreshes get one new token")
    func refreshReplay() async throws {
        try await LiveServer.with(Backends.sqlite) { server in
            let register = try await server.send(
                .POST, "/api/auth/local/register",
                json: #"{"username":"sesac","email":"\#(Self.email)","password":"\#(Self.password)"}"#)
            let stolen = try #require(register.json["refreshToken"] as? String)
            // The victim and the thief both hold `stolen`; twenty refreshes race with it.
            let port = server.port
            let statuses = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
                for _ in 1...20 {
                    group.addTask {
                        let answer = try await LoopbackExchange.postJSON(
                            "/api/auth/refresh", #"{"refreshToken":"\#(stolen)"}"#, port: port, from: "127.0.0.1")
                        let body = try? JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any]
                        return (answer.status, body?["refreshToken"] as? String)
                    }
                }
                return try await group.reduce(into: [(Int, String?)]()) { $0.append($1) }
            }
            #expect(statuses.map(\.0).sorted() == [200] + Array(repeating: 401, count: 19), "\(statuses.map(\.0))")
            let current = try #require(statuses.first { $0.0 == 200 }?.1)
            #expect(try await server.send(.GET, "/api/users/me", token: current).status == 200)
            // A minute later the old token comes back: its line of sessions ends, the new token too.
            server.clock.advance(seconds: 60)
            let replay = try await server.send(.POST, "/api/auth/refresh", json: #"{"refreshToken":"\#(stolen)"}"#)
            #expect(replay.status == 401)
            #expect(try await server.send(.GET, "/api/users/me", token: current).status == 401)
            let again = try await server.send(.POST, "/api/auth/refresh", json: #"{"refreshToken":"\#(current)"}"#)
            #expect(again.status == 401)
        }
    }

    @Test("a login that verified the old password before a change committed never opens a session that outlives it")
    func loginRacingAChange() async throws {
        for backend in [Backends.sqlite, Backends.lmdb, Backends.json] {
            try await LiveServer.with(backend) { server in
                let created = try await server.send(.POST, "/v1/signup", json: AttackTests.signUp)
                let owner = try #require(created.token)
                let newPassword = "Quokka-Lantern-77"
                let (_, logins) = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
                    for n in 0..<12 {
                        group.addTask {
                            let login = try await server.send(
                                .POST, "/v1/login", json: AttackTests.login(Self.email, Self.password))
                            return (n, login.token)
                        }
                    }
                    group.addTask {
                        let change = try await server.send(
                            .POST, "/v1/password",
                            json: #"{"current_password":"\#(Self.password)","new_password":"\#(newPassword)"}"#,
                            token: owner)
                        return (-1, change.status == 200 ? "changed" : nil)
                    }
                    return (
                        0,
                        try await group.reduce(into: [String]()) { all, outcome in
                            if outcome.0 >= 0, let token = outcome.1 { all.append(token) }
                        }
                    )
                }
                for token in logins {
                    let me = try await server.send(.GET, "/v1/me", token: token)
                    #expect(me.status == 401, "\(backend.name): an old-password session outlived the change")
                }
                #expect(try await server.send(.GET, "/v1/me", token: owner).status == 200, "the changing one stays")
            }
        }
    }

    @Test("a look-alike cookie (a Unicode space before __Host-) is another cookie; one name twice is refused")
    func plantedCookies() async throws {
        try await WebPagesTests.withPages(secureCookies: true) { server, victim in
            _ = try await WebPagesTests.signUp(victim)
            let session = try #require(victim.cookie("__Host-accounts_session"))
            let raw = { (cookie: String) async throws -> String in
                try await LoopbackExchange.exchange(
                    Array(
                        ("GET /welcome HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nAccept: text/html\r\n"
                            + "Cookie: \(cookie)\r\nConnection: close\r\n\r\n").utf8), port: server.port
                ).answer
            }
            let attacker = String(repeating: "ab", count: 32)
            // Planted before the real one, by a sibling subdomain: not this site's cookie.
            let lookAlike = try await raw(
                "\u{2000}__Host-accounts_session=\(attacker); __Host-accounts_session=\(session)")
            #expect(lookAlike.hasPrefix("HTTP/1.1 200"), "the victim's own session is used: \(lookAlike.prefix(80))")
            // The same name twice: neither is believed, and nothing is done with either.
            let twice = try await raw("__Host-accounts_session=\(attacker); __Host-accounts_session=\(session)")
            #expect(twice.hasPrefix("HTTP/1.1 400"), "\(twice.prefix(80))")
            #expect(twice.contains("twice"), "the page says why")
        }
    }

    @Test("a wrong password for a registered email writes nothing to the store, as an unknown email writes nothing")
    func failedLoginWritesNothing() async throws {
        let calls = Mutex<[String]>([])
        let store = ObservedRepository(MemoryUserRepository()) { call in calls.withLock { $0.append(call) } }
        try await LiveServer.run(repository: store) { client in
            _ = try await client.send(.POST, "/v1/signup", json: AttackTests.signUp)
            let before = calls.withLock { $0.count }
            for email in [Self.email, "nobody77@example.com"] {
                let wrong = try await client.send(.POST, "/v1/login", json: AttackTests.login(email, "Wrong-Kayak-42"))
                #expect(wrong.status == 401)
            }
            let reads = ["user(", "signedIn(", "session(", "sessions("]
            let writes = calls.withLock { Array($0.dropFirst(before)) }.filter { call in
                !reads.contains { call.hasPrefix($0) }
            }
            #expect(writes.isEmpty, "the failure paths wrote: \(writes)")
        }
    }

    @Test("a JSON body in UTF-16 (with its byte order mark) is 415, never read past the repeated-key check")
    func utf16Body() async throws {
        try await LiveServer.with(Backends.sqlite) { server in
            _ = try await server.send(.POST, "/v1/signup", json: AttackTests.signUp)
            // Two "password" keys: the repeated-key check reading UTF-8 would see none, and a
            // decoder reading UTF-16 would take the first.
            let json = #"{"email":"leesoon7@example.com","password":"Tangerine-Kayak-42","password":"x"}"#
            var body: [UInt8] = [0xFF, 0xFE]
            for unit in json.utf16 { body += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
            let head =
                "POST /v1/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
            let answer = try await LoopbackExchange.exchange(Array(head.utf8) + body, port: server.port).answer
            #expect(answer.hasPrefix("HTTP/1.1 415"), "\(answer.prefix(80))")
            #expect(answer.contains("unsupported_media_type"))
            let declared = try await server.send(
                .POST, "/v1/login", json: #"{"email":"leesoon7@example.com","password":"x"}"#,
                contentType: "application/json; charset=utf-16")
            #expect(declared.status == 415, "\(declared.text)")
            let bom = try await server.send(
                .POST, "/v1/login", json: "\u{FEFF}" + #"{"email":"leesoon7@example.com","password":"x"}"#)
            #expect(bom.status == 415, "a byte order mark: \(bom.text)")
        }
    }

    @Test("a form another site's page posts to the Strapi routes is refused before it is read")
    func crossSiteStrapiForm() async throws {
        try await LiveServer.with(Backends.sqlite) { server in
            let form = "username=mallory&email=leesoon7%40example.com&password=Tangerine-Kayak-42"
            let refused = try await server.send(
                .POST, "/api/auth/local/register", json: form,
                headers: [("Sec-Fetch-Site", "cross-site")], contentType: "application/x-www-form-urlencoded")
            #expect(refused.status == 403, "\(refused.text)")
            #expect(try await server.repository.userCount() == 0, "nobody was signed up")
            let foreignOrigin = try await server.send(
                .POST, "/api/auth/local/register", json: form, headers: [("Origin", "https://evil.example")],
                contentType: "application/x-www-form-urlencoded")
            #expect(foreignOrigin.status == 403)
            // A native app's form (no browser headers) and the same site's page are served.
            let app = try await server.send(
                .POST, "/api/auth/local/register", json: form, contentType: "application/x-www-form-urlencoded")
            #expect(app.status == 200, "\(app.text)")
        }
    }

    @Test("an HTTP/1.0 request without keep-alive gets its answer, then the connection closes")
    func http10Closes() async throws {
        try await LiveServer.with(Backends.sqlite) { server in
            let exchange = try await LoopbackExchange.exchange(
                Array("GET /healthz HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".utf8), port: server.port)
            #expect(exchange.answer.contains(" 200 "), "\(exchange.answer.prefix(80))")
            #expect(exchange.closedByServer, "the server held the connection open after an HTTP/1.0 answer")
        }
    }

    @Test("request ids are random: no prefix shared by consecutive requests, no counter to read traffic from")
    func randomRequestIDs() async throws {
        try await LiveServer.with(Backends.sqlite) { server in
            var ids: [String] = []
            for _ in 0..<4 {
                let reply = try await server.send(.GET, "/healthz")
                ids.append(try #require(reply.headers.first(name: "X-Request-Id")))
            }
            #expect(Set(ids).count == ids.count)
            #expect(ids.allSatisfy { $0.count == 32 && $0.allSatisfy(\.isHexDigit) }, "\(ids)")
            let shared = zip(ids[0], ids[1]).prefix { $0 == $1 }.count
            #expect(shared < 8, "consecutive ids share a prefix of \(shared): \(ids)")
        }
    }
}
