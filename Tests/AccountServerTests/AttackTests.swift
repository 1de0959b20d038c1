import AccountCore
import AccountTestSupport
import AccountWeb
import BackendTestSupport
import Foundation
import NIOHTTP1
import StandardBackends
import Testing

/// The attacks of the security review, replayed against a live server: a stranger who tries
/// to lock an account's owner out, one who tells registered emails from unknown ones by the
/// throttle's answers, and one who forges the pages' form token with a cookie of their own.
@Suite("Attacks on a live server")
struct AttackTests {
    static let email = "leesoon7@example.com"
    static let password = "Tangerine-Kayak-42"
    static let signUp = #"{"email":"leesoon7@example.com","password":"Tangerine-Kayak-42","nickname":"이순신"}"#

    static func login(_ email: String, _ password: String, deviceToken: String? = nil) -> String {
        let device = deviceToken.map { #","device_token":"\#($0)""# } ?? ""
        return #"{"email":"\#(email)","password":"\#(password)"\#(device)}"#
    }

    @Test("strangers on three addresses never lock out the owner's device; a new device waits only the drain")
    func lockout() async throws {
        try await LiveServer.with(Backends.sqlite) { server in
            let created = try await server.send(.POST, "/v1/signup", json: Self.signUp)
            let deviceToken = try #require(created.json["device_token"] as? String)
            let policy = LoginThrottlePolicy()
            // The attacker's own account gives them a device token, for their own email only.
            let own = try await server.send(
                .POST, "/v1/signup",
                json: #"{"email":"mallory@example.com","password":"Walrus-Harbor-Lantern-7","nickname":"mallory"}"#)
            let attackerToken = try #require(own.json["device_token"] as? String)
            let statuses = try await withThrowingTaskGroup(of: [Int].self) { group in
                for source in ["127.0.0.2", "127.0.0.3", "127.0.0.4"] {
                    group.addTask {
                        var seen: [Int] = []
                        for attempt in 1...12 {
                            let token = attempt.isMultiple(of: 2) ? attackerToken : nil
                            seen.append(
                                try await LoopbackExchange.postJSON(
                                    "/v1/login", Self.login(Self.email, "Wrong-Kayak-\(attempt)", deviceToken: token),
                                    port: server.port, from: source
                                ).status)
                        }
                        return seen
                    }
                }
                // While they try, the owner signs in from the device that signed up.
                for round in 1...6 {
                    let owner = try await server.send(
                        .POST, "/v1/login", json: Self.login(Self.email, Self.password, deviceToken: deviceToken))
                    #expect(owner.status == 200, "round \(round): \(owner.text)")
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            #expect(Set(statuses).isSubset(of: [401, 429]), "\(statuses)")
            #expect(statuses.count { $0 == 401 } == policy.accountCeiling, "the ceiling bounds them: \(statuses)")
            // Once they stop, the known device still signs in at once.
            let known = try await server.send(
                .POST, "/v1/login", json: Self.login(Self.email, Self.password, deviceToken: deviceToken))
            #expect(known.status == 200)
            // A new device waits for one failure to drain, then signs in.
            let fresh = try await LoopbackExchange.postJSON(
                "/v1/login", Self.login(Self.email, Self.password), port: server.port, from: "127.0.0.5")
            #expect(fresh.status == 429, "\(fresh.body)")
            let wait = try await server.send(.POST, "/v1/login", json: Self.login(Self.email, Self.password))
            let seconds = try #require(wait.headers.first(name: "Retry-After").flatMap { Int64($0) })
            #expect(seconds > 0 && seconds <= policy.ceilingDrainSeconds)
            server.clock.advance(seconds: seconds)
            let after = try await LoopbackExchange.postJSON(
                "/v1/login", Self.login(Self.email, Self.password), port: server.port, from: "127.0.0.5")
            #expect(after.status == 200, "\(after.body)")
            #expect(after.body.contains(#""device_token":""#), "the new device is known from now on")
        }
    }

    @Test(
        "a registered email and an unknown one get the same statuses at every step",
        arguments: ["/v1/login", "/api/auth/local"])
    func enumeration(_ path: String) async throws {
        try await LiveServer.with(Backends.sqlite) { server in
            _ = try await server.send(.POST, "/v1/signup", json: Self.signUp)
            func statuses(_ email: String, from source: String) async throws -> [Int] {
                var seen: [Int] = []
                for step in 1...14 {
                    let body =
                        path == "/v1/login"
                        ? Self.login(email, "Wrong-Kayak-42")
                        : #"{"identifier":"\#(email)","password":"Wrong-Kayak-42"}"#
                    seen.append(try await LoopbackExchange.postJSON(path, body, port: server.port, from: source).status)
                    if step.isMultiple(of: 3) { server.clock.advance(seconds: 2) }
                }
                return seen
            }
            let registered = try await statuses(Self.email, from: "127.0.0.2")
            let unknown = try await statuses("nobody77@example.com", from: "127.0.0.3")
            #expect(registered == unknown)
            #expect(registered.contains(429), "the sequence reaches the throttle: \(registered)")
        }
    }

    @Test("a form token planted as a cookie signs nobody up and logs nobody out")
    func plantedFormCookie() async throws {
        try await WebPagesTests.withPages { server, victim in
            let fields = [
                ("email", "minsu01@example.com"), ("password", Self.password), ("confirmation", Self.password),
                ("nickname", "Minsu"),
            ]
            // The old double submit: any value in the cookie, the same in the form.
            let planted = String(repeating: "a", count: 64)
            victim.setCookie("accounts_form", planted)
            let forged = try await victim.post("/signup", fields, token: .some(planted))
            #expect(forged.status == 403)
            #expect(try await server.repository.userCount() == 0)
            // The attacker's own visit gives a real nonce and its field, bound to no session;
            // planted on a signed-in victim, they log nobody out.
            _ = try await WebPagesTests.signUp(victim)
            _ = try await victim.get("/welcome")
            let attacker = PageClient(port: server.port)
            defer { Task { try? await attacker.shutdown() } }
            _ = try await attacker.get("/signup")
            let nonce = try #require(attacker.cookie("accounts_form"))
            let field = try #require(attacker.formToken)
            #expect(field != nonce, "the form carries a signature, not the cookie's value")
            victim.setCookie("accounts_form", nonce)
            #expect(try await victim.post("/logout", [], token: .some(field)).status == 403)
            #expect(try await victim.get("/welcome").status == 200, "still signed in")
        }
    }
}
