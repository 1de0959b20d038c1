import AccountBackendKit
import AccountCore
import AccountServer
import AccountTestSupport
import BackendTestSupport
import Foundation
import NIOHTTP1
import StandardBackends
import Testing

/// Limits, the bounded hashing queue, hostile input and shutdown with a request in flight.
@Suite("Abuse resistance")
struct AbuseTests {
    static let password = "Tangerine-Kayak-42"
    static let signUp = #"{"email":"leesoon7@example.com","password":"Tangerine-Kayak-42","nickname":"이순신"}"#
    static let unknownLogin = #"{"email":"nobody77@example.com","password":"Tangerine-Kayak-42"}"#

    @Test("a client over its login limit gets 429 until its bucket refills, with no window edge to use twice")
    func loginLimit() async throws {
        let limits = ClientLimits(signUpsPerMinute: 10, loginsPerMinute: 3, passwordChecksPerMinute: 10)
        try await LiveServer.with(Backends.sqlite, limits: limits) { server throws in
            // The tries at the end of a clock minute: a per-minute window would start afresh
            // a second later.
            server.clock.advance(seconds: 59)
            for _ in 1...3 {
                #expect(try await server.send(.POST, "/v1/login", json: Self.unknownLogin).status == 401)
            }
            let limited = try await server.send(.POST, "/v1/login", json: Self.unknownLogin)
            #expect(limited.status == 429)
            #expect(limited.code == "too_many_attempts")
            #expect(limited.headers.first(name: "Retry-After") == "20", "3 a minute: one try every 20 s")
            #expect(
                limited.json["message"] as? String
                    == "Too many login attempts from your address; try again in 20 seconds.")
            // X-Forwarded-For from a peer that is not a trusted proxy changes nothing.
            let spoofed = try await server.send(
                .POST, "/v1/login", json: Self.unknownLogin, headers: [("X-Forwarded-For", "203.0.113.9")])
            #expect(spoofed.status == 429)
            server.clock.advance(seconds: 1)
            #expect(
                try await server.send(.POST, "/v1/login", json: Self.unknownLogin).status == 429,
                "a new clock minute is no new allowance")
            server.clock.advance(seconds: 19)
            #expect(try await server.send(.POST, "/v1/login", json: Self.unknownLogin).status == 401)
            #expect(try await server.send(.POST, "/v1/login", json: Self.unknownLogin).status == 429)
        }
    }

    @Test("each limit's message names its own cause: sign-ups are not failed attempts")
    func signUpLimitMessage() async throws {
        let limits = ClientLimits(signUpsPerMinute: 2, loginsPerMinute: 30, passwordChecksPerMinute: 10)
        try await LiveServer.with(Backends.sqlite, limits: limits) { server throws in
            for (index, name) in ["leesoon1", "leesoon2", "leesoon3"].enumerated() {
                let body = #"{"email":"\#(name)@example.com","password":"\#(Self.password)","nickname":"이순신"}"#
                let answer = try await server.send(.POST, "/v1/signup", json: body)
                if index < 2 {
                    #expect(answer.status == 201, "\(answer.json)")
                } else {
                    #expect(answer.status == 429)
                    let message = try #require(answer.json["message"] as? String)
                    #expect(message.hasPrefix("Too many sign-ups from your address; try again in"), "\(message)")
                    #expect(!message.contains("failed"), "\(message)")
                }
            }
        }
    }

    @Test("an IPv6 client is its /64: another address of it shares the limit, another /64 does not")
    func ipv6Network() async throws {
        let limits = ClientLimits(signUpsPerMinute: 10, loginsPerMinute: 2, passwordChecksPerMinute: 10)
        try await LiveServer.with(Backends.sqlite, limits: limits, trustedProxies: ["127.0.0.1"]) { server throws in
            for (client, expected) in [
                ("2001:db8:0:7::1", 401), ("2001:db8:0:7::2", 401), ("2001:db8:0:7:ffff::3", 429),
                ("2001:db8:0:8::1", 401),
            ] {
                let status = try await server.send(
                    .POST, "/v1/login", json: Self.unknownLogin, headers: [("X-Forwarded-For", client)]
                ).status
                #expect(status == expected, "\(client)")
            }
        }
    }

    @Test("one client's failures on an account answer 429 with its wait, the right password included")
    func accountThrottle() async throws {
        try await LiveServer.with(Backends.sqlite) { server in
            _ = try await server.send(.POST, "/v1/signup", json: Self.signUp)
            let wrong = #"{"email":"leesoon7@example.com","password":"Wrong-Kayak-42"}"#
            for _ in 1...5 {
                #expect(try await server.send(.POST, "/v1/login", json: wrong).status == 401)
            }
            let throttled = try await server.send(
                .POST, "/v1/login", json: #"{"email":"leesoon7@example.com","password":"\#(Self.password)"}"#)
            #expect(throttled.status == 429)
            #expect(throttled.code == "too_many_attempts")
            #expect(throttled.headers.first(name: "Retry-After") == "1")
            server.clock.advance(seconds: 1)
            let allowed = try await server.send(
                .POST, "/v1/login", json: #"{"email":"leesoon7@example.com","password":"\#(Self.password)"}"#)
            #expect(allowed.status == 200)
        }
    }

    @Test("behind a trusted proxy each forwarded client has its own limit")
    func trustedProxy() async throws {
        let limits = ClientLimits(signUpsPerMinute: 10, loginsPerMinute: 2, passwordChecksPerMinute: 10)
        try await LiveServer.with(Backends.sqlite, limits: limits, trustedProxies: ["127.0.0.1"]) { server throws in
            let first = [("X-Forwarded-For", "198.51.100.1, 203.0.113.7")]
            for _ in 1...2 {
                #expect(
                    try await server.send(.POST, "/v1/login", json: Self.unknownLogin, headers: first).status == 401)
            }
            #expect(try await server.send(.POST, "/v1/login", json: Self.unknownLogin, headers: first).status == 429)
            // The address the proxy saw (the last one) counts, not what the client claimed before it.
            let claimed = [("X-Forwarded-For", "198.51.100.2, 203.0.113.7")]
            #expect(try await server.send(.POST, "/v1/login", json: Self.unknownLogin, headers: claimed).status == 429)
            let other = [("X-Forwarded-For", "203.0.113.8")]
            #expect(try await server.send(.POST, "/v1/login", json: Self.unknownLogin, headers: other).status == 401)
        }
    }

    @Test("a forwarded entry that is not an address is never the client: the proxy itself is")
    func forwardedGarbage() async throws {
        let limits = ClientLimits(signUpsPerMinute: 10, loginsPerMinute: 2, passwordChecksPerMinute: 10)
        try await LiveServer.with(Backends.sqlite, limits: limits, trustedProxies: ["127.0.0.1"]) { server throws in
            // Each a different string: counted per string, none would reach the limit of 2.
            for (garbage, expected) in [("garbage", 401), ("203.0.113.9:4444", 401), ("evil.example", 429)] {
                let status = try await server.send(
                    .POST, "/v1/login", json: Self.unknownLogin, headers: [("X-Forwarded-For", garbage)]
                ).status
                #expect(status == expected, "\(garbage)")
            }
            #expect(server.log.text.contains("client=127.0.0.1"), "the peer is logged as the client")
            #expect(!server.log.text.contains("client=garbage"), "\(server.log.text)")
        }
    }

    @Test("every answer, JSON errors and the metrics included, says nosniff")
    func noSniff() async throws {
        try await LiveServer.with(Backends.sqlite) { server in
            for (method, path) in [(HTTPMethod.GET, "/v1/me"), (.GET, "/healthz"), (.GET, "/nope"), (.GET, "/metrics")]
            {
                let answer = try await server.send(method, path)
                #expect(answer.headers.first(name: "X-Content-Type-Options") == "nosniff", "\(path)")
                #expect(answer.headers.first(name: "Strict-Transport-Security") == nil, "no HSTS over plain HTTP")
            }
            let login = try await server.send(.POST, "/v1/login", json: Self.unknownLogin)
            #expect(login.headers.first(name: "X-Content-Type-Options") == "nosniff")
        }
    }

    @Test("CORS: only the configured origins, on preflights and on every answer, errors included")
    func cors() async throws {
        try await LiveServer.with(Backends.sqlite, corsOrigins: ["https://app.example.com"]) { server in
            let preflight = try await server.send(
                .OPTIONS, "/v1/login",
                headers: [("Origin", "https://app.example.com"), ("Access-Control-Request-Method", "POST")])
            #expect(preflight.status == 204)
            #expect(preflight.headers.first(name: "Access-Control-Allow-Origin") == "https://app.example.com")
            #expect(preflight.headers.first(name: "Access-Control-Allow-Headers")?.contains("Authorization") == true)
            let denied = try await server.send(
                .OPTIONS, "/v1/login",
                headers: [("Origin", "https://evil.example.net"), ("Access-Control-Request-Method", "POST")])
            #expect(denied.headers.first(name: "Access-Control-Allow-Origin") == nil)
            let error = try await server.send(.GET, "/v1/me", headers: [("Origin", "https://app.example.com")])
            #expect(error.status == 401)
            #expect(error.headers.first(name: "Access-Control-Allow-Origin") == "https://app.example.com")
            // A page can read only the headers exposed to it: Retry-After and the request id too.
            let exposed = Set(
                (error.headers.first(name: "Access-Control-Expose-Headers") ?? "").split(separator: ",").map {
                    $0.trimmingCharacters(in: .whitespaces).lowercased()
                })
            #expect(exposed.isSuperset(of: ["retry-after", "x-request-id", "www-authenticate"]))
            #expect(error.headers.first(name: "Vary") == "Origin")
            let other = try await server.send(.GET, "/v1/me", headers: [("Origin", "https://evil.example.net")])
            #expect(other.headers.first(name: "Access-Control-Allow-Origin") == nil)
            #expect(other.headers.first(name: "Access-Control-Expose-Headers") == nil)
            // The same answer without CORS headers to anyone else, so no cache may hand it on.
            let plain = try await server.send(.GET, "/openapi.json")
            #expect(plain.status == 200)
            #expect(plain.headers.first(name: "Vary") == "Origin")
            #expect(other.headers.first(name: "Vary") == "Origin")
        }
    }

    @Test("an unknown email and a wrong password get the same status and body")
    func indistinguishable() async throws {
        try await LiveServer.with(Backends.sqlite) { server in
            _ = try await server.send(.POST, "/v1/signup", json: Self.signUp)
            let unknown = try await server.send(.POST, "/v1/login", json: Self.unknownLogin)
            let wrong = try await server.send(
                .POST, "/v1/login", json: #"{"email":"leesoon7@example.com","password":"Wrong-Kayak-42"}"#)
            #expect(unknown.status == wrong.status)
            #expect(unknown.text == wrong.text)
        }
    }

    @Test("a full hashing queue answers 503 with Retry-After at once, writes nothing, and /metrics counts it")
    func hashingQueueFull() async throws {
        let hasher = HeldHasher()
        try await LiveServer.with(
            Backends.sqlite, gate: HashingGate(concurrency: 1, queueLimit: 0), hasher: hasher
        ) { server in
            async let held = server.send(.POST, "/v1/signup", json: Self.signUp)
            await hasher.waitUntilHashing()
            let refused = try await server.send(
                .POST, "/v1/signup",
                json: #"{"email":"admiral7@example.com","password":"\#(Self.password)","nickname":"장군"}"#)
            #expect(refused.status == 503)
            #expect(refused.code == "server_busy")
            #expect(refused.headers.first(name: "Retry-After") != nil)
            hasher.release()
            #expect(try await held.status == 201)
            #expect(try await server.repository.userCount() == 1)
            #expect(try await server.repository.user(email: "admiral7@example.com") == nil)
            let metrics = try await server.send(.GET, "/metrics")
            #expect(metrics.headers.first(name: "Content-Type")?.hasPrefix("text/plain") == true)
            #expect(metrics.text.contains("accounts_hashing_rejections_total 1"))
            #expect(metrics.text.contains("accounts_hashing_queue_depth 0"))
            #expect(
                metrics.text.contains(#"accounts_http_requests_total{route="/v1/signup",method="POST",status="503"} 1"#)
            )
            #expect(
                metrics.text.contains(#"accounts_http_requests_total{route="/v1/signup",method="POST",status="201"} 1"#)
            )
            #expect(
                metrics.text.contains(
                    #"accounts_http_request_duration_seconds_count{route="/v1/signup",method="POST"} 2"#))
        }
    }

    @Test("past its deadline a request gets 503 request_timeout at once; its sign-up still completes")
    func requestTimeout() async throws {
        let hasher = HeldHasher()
        // The deadline passes as soon as the sign-up is inside Argon2id (and held there).
        try await LiveServer.with(
            Backends.sqlite, hasher: hasher, deadline: RequestDeadline { await hasher.waitUntilHashing() }
        ) { server in
            let reply = try await server.send(.POST, "/v1/signup", json: Self.signUp)
            #expect(reply.status == 503)
            #expect(reply.code == "request_timeout")
            #expect(reply.text.contains("may still take effect"))
            hasher.release()
            // The work was not cut off: the account appears once the held hash returns.
            var stored = false
            for _ in 0..<1_000 where !stored {
                stored = try await server.repository.user(email: "leesoon7@example.com") != nil
                if !stored { try await Task.sleep(for: .milliseconds(5)) }
            }
            #expect(stored)
        }
    }

    @Test("a graceful stop finishes the request in flight, and its sign-up is stored")
    func gracefulStop() async throws {
        let hasher = HeldHasher()
        try await LiveServer.with(Backends.sqlite, hasher: hasher) { server in
            async let held = server.send(.POST, "/v1/signup", json: Self.signUp)
            await hasher.waitUntilHashing()
            await server.stop()
            hasher.release()
            let reply = try await held
            #expect(reply.status == 201)
            #expect(try await server.repository.user(email: "leesoon7@example.com") != nil)
        }
    }

    @Test("oversized, malformed and mistyped bodies and missing or forged tokens: a clear error, nothing written")
    func hostileInput() async throws {
        try await LiveServer.with(Backends.sqlite, maxBodyBytes: 2_048) { server in
            let token = try #require(try await server.send(.POST, "/v1/signup", json: Self.signUp).token)
            let cases: [(String, ServerClient.Reply, Int, String)] = [
                (
                    "oversized", try await server.send(.POST, "/v1/login", json: String(repeating: " ", count: 4_096)),
                    413, "payload_too_large"
                ),
                ("not JSON", try await server.send(.POST, "/v1/login", json: "{\"email\":"), 400, "invalid_request"),
                ("a JSON array", try await server.send(.POST, "/v1/login", json: "[1,2]"), 400, "invalid_request"),
                (
                    "a missing field", try await server.send(.POST, "/v1/login", json: #"{"email":"a@b.cd"}"#), 400,
                    "invalid_request"
                ),
                (
                    "form-encoded",
                    try await server.send(
                        .POST, "/v1/login", json: "email=a&password=b", contentType: "application/x-www-form-urlencoded"
                    ),
                    415, "unsupported_media_type"
                ),
                ("no token", try await server.send(.GET, "/v1/me"), 401, "not_signed_in"),
                (
                    "a forged token", try await server.send(.GET, "/v1/me", token: String(repeating: "ab", count: 32)),
                    401, "not_signed_in"
                ),
                (
                    "a malformed token", try await server.send(.GET, "/v1/me", token: "x' OR 1=1 --"), 401,
                    "not_signed_in"
                ),
                (
                    "Basic instead of Bearer",
                    try await server.send(.GET, "/v1/me", headers: [("Authorization", "Basic \(token)")]), 401,
                    "not_signed_in"
                ),
                (
                    "withdraw without a token",
                    try await server.send(.POST, "/v1/withdraw", json: #"{"password":"x"}"#),
                    401, "not_signed_in"
                ),
            ]
            for (label, reply, status, code) in cases {
                #expect(reply.status == status, "\(label)")
                #expect(reply.code == code, "\(label): \(reply.text)")
            }
            #expect(cases[5].1.headers.first(name: "WWW-Authenticate") == "Bearer")
            let wrongMethod = try await server.send(.DELETE, "/v1/me", token: token)
            #expect(wrongMethod.status == 405)
            #expect(wrongMethod.code == "method_not_allowed")
            #expect(wrongMethod.headers.first(name: "Allow") == "GET, HEAD")
            #expect(try await server.send(.GET, "/v1/nothing-here").status == 404)
            #expect(try await server.repository.userCount() == 1)
            #expect(try await server.send(.GET, "/v1/me", token: token).status == 200, "the real session is intact")
        }
    }
}
