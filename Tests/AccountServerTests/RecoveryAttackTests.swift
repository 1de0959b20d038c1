import AccountCore
import AccountCrypto
import AccountTestSupport
import BackendTestSupport
import Foundation
import NIOHTTP1
import StandardBackends
import Testing

/// The recovery and verification routes, as an attacker would try them over raw sockets and
/// HTTP: telling registered addresses apart, guessing or reshaping codes, using one code for
/// another purpose or twice at once, smuggling headers through an address, and posting from
/// another site.
@Suite("Attacks on recovery and verification")
struct RecoveryAttackTests {
    static let email = "leesoon7@example.com"
    static let newPassword = "Violet-Harbor-Compass-19"

    /// The code of the first mail due that an account gets, composed as the sender composes it
    /// (the mails it passes, to addresses no account holds, are dropped as the sender drops them).
    static func mailedCode(_ server: LiveServer) async throws -> String {
        for mail in try await server.repository.dueMail(at: Timestamp(millisecondsSince1970: .max), limit: 100) {
            _ = try await server.repository.deleteMail(id: mail.id)
            if let prepared = try await server.recovery.prepare(mail) { return prepared.code }
        }
        Issue.record("no mail to an account is queued")
        return ""
    }

    @Test("a registered and an unknown address get the same bytes over a raw socket, and the same store write")
    func noEnumeration() async throws {
        try await LiveServer.with(Backends.sqlite) { server in
            _ = try await server.send(.POST, "/v1/signup", json: AttackTests.signUp)
            var answers: [String] = []
            for email in [Self.email, "nobody7@example.com"] {
                let raw = try await LoopbackExchange.postJSON(
                    "/v1/password/forgot", #"{"email":"\#(email)"}"#, port: server.port, from: "127.0.0.1")
                #expect(raw.status == 200)
                answers.append(raw.body)
            }
            #expect(answers[0] == answers[1] && answers[0] == #"{"ok":true}"#)
            let queued = try await server.repository.dueMail(at: Timestamp(millisecondsSince1970: .max), limit: 10)
            #expect(queued.count == 2 && queued.allSatisfy { $0.payload.isEmpty }, "one record each, nothing secret")
            // Strapi's route too.
            for email in [Self.email, "nobody7@example.com"] {
                let reply = try await server.send(.POST, "/api/auth/forgot-password", json: #"{"email":"\#(email)"}"#)
                #expect(reply.status == 200 && reply.text == #"{"ok":true}"#)
            }
        }
    }

    @Test("guessed, reshaped and cross-purpose codes are refused; a code works once even when raced")
    func codes() async throws {
        try await LiveServer.with(Backends.sqlite) { server in
            _ = try await server.send(.POST, "/v1/signup", json: AttackTests.signUp)
            _ = try await server.send(.POST, "/v1/password/forgot", json: #"{"email":"\#(Self.email)"}"#)
            let code = try await Self.mailedCode(server)
            func reset(_ code: String) -> String {
                #"{"code":"\#(code)","password":"\#(Self.newPassword)","confirmation":"\#(Self.newPassword)"}"#
            }
            for guess in [String(repeating: "0", count: 64), code.uppercased(), String(code.dropLast()), code + "0"] {
                let reply = try await server.send(.POST, "/v1/password/reset", json: reset(guess))
                #expect(reply.status == 400 && reply.code == "invalid_code", "\(guess.prefix(8)): \(reply.text)")
            }
            // A reset code proves no email.
            let crossed = try await server.send(.POST, "/v1/email/verify", json: #"{"code":"\#(code)"}"#)
            #expect(crossed.code == "invalid_code")
            // Eight resets race with the one code: one signs in.
            let port = server.port
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 1...8 {
                    group.addTask {
                        try await LoopbackExchange.postJSON(
                            "/v1/password/reset", reset(code), port: port, from: "127.0.0.1"
                        )
                        .status
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.sorted() == [200] + Array(repeating: 400, count: 7), "\(statuses)")
        }
    }

    @Test("guessing codes from one client meets its limit of password checks")
    func guessingIsLimited() async throws {
        try await LiveServer.with(
            Backends.sqlite,
            limits: ClientLimits(signUpsPerMinute: 100, loginsPerMinute: 100, passwordChecksPerMinute: 5)
        ) { server in
            var statuses: [Int] = []
            for n in 0..<8 {
                let guess = String(format: "%064x", n)
                statuses.append(
                    try await server.send(
                        .POST, "/v1/password/reset",
                        json: #"{"code":"\#(guess)","password":"\#(Self.newPassword)"}"#
                    ).status)
            }
            #expect(statuses == Array(repeating: 400, count: 5) + Array(repeating: 429, count: 3), "\(statuses)")
        }
    }

    @Test("an address that carries a line end is refused before anything is queued")
    func headerSmuggling() async throws {
        try await LiveServer.with(Backends.sqlite) { server in
            for email in [
                "leesoon7@example.com\r\nBcc: all@evil.example", "leesoon7@example.com>\r\nRCPT TO:<x@evil.example",
            ] {
                let body = String(decoding: try JSONSerialization.data(withJSONObject: ["email": email]), as: UTF8.self)
                let reply = try await server.send(.POST, "/v1/password/forgot", json: body)
                #expect(reply.status == 400 && reply.code == "invalid_email", "\(reply.text)")
            }
            #expect(try await server.repository.outboxSummary().queued == 0)
        }
    }

    @Test("another site's form cannot ask for a reset mail or spend a code")
    func crossSite() async throws {
        try await LiveServer.with(Backends.sqlite) { server in
            for path in ["/api/auth/forgot-password", "/api/auth/reset-password", "/api/auth/send-email-confirmation"] {
                let reply = try await server.send(
                    .POST, path, json: "email=leesoon7%40example.com&code=00&password=x&passwordConfirmation=x",
                    headers: [("Sec-Fetch-Site", "cross-site")], contentType: "application/x-www-form-urlencoded")
                #expect(reply.status == 403, "\(path): \(reply.text)")
            }
            #expect(try await server.repository.outboxSummary().queued == 0)
        }
    }

    @Test("with proof required, email_not_verified answers only the right password, over a raw socket")
    func unprovenEmail() async throws {
        try await LiveServer.with(Backends.sqlite, requireVerifiedEmail: true) { server in
            let signedUp = try await server.send(.POST, "/v1/signup", json: AttackTests.signUp)
            #expect(signedUp.status == 201, "the sign-up itself signs in, as Kratos does")
            #expect(try await server.repository.outboxSummary().queued == 1, "the proof's mail is queued")
            let wrong = try await LoopbackExchange.postJSON(
                "/v1/login", AttackTests.login(Self.email, "Wrong-Guess-12345"), port: server.port, from: "127.0.0.2")
            let unknown = try await LoopbackExchange.postJSON(
                "/v1/login", AttackTests.login("nobody7@example.com", "Wrong-Guess-12345"), port: server.port,
                from: "127.0.0.3")
            #expect(wrong.status == 401 && wrong.body == unknown.body, "a wrong password tells the email apart")
            let right = try await LoopbackExchange.postJSON(
                "/v1/login", AttackTests.login(Self.email, AttackTests.password), port: server.port, from: "127.0.0.4")
            #expect(right.status == 403 && right.body.contains("email_not_verified"), "\(right.body)")
            let strapi = try await server.send(
                .POST, "/api/auth/local",
                json: #"{"identifier":"\#(Self.email)","password":"\#(AttackTests.password)"}"#)
            #expect(strapi.status == 400 && strapi.text.contains("email_not_verified"))
            let code = try await Self.mailedCode(server)
            #expect(try await server.send(.POST, "/v1/email/verify", json: #"{"code":"\#(code)"}"#).status == 200)
            let proven = try await server.send(
                .POST, "/v1/login", json: AttackTests.login(Self.email, AttackTests.password))
            #expect(proven.status == 200)
        }
    }

    @Test("a withdrawn account's code, and an expired one, sign nobody in")
    func staleCodes() async throws {
        try await LiveServer.with(Backends.sqlite) { server in
            let session = try #require(try await server.send(.POST, "/v1/signup", json: AttackTests.signUp).token)
            _ = try await server.send(.POST, "/v1/password/forgot", json: #"{"email":"\#(Self.email)"}"#)
            let expiring = try await Self.mailedCode(server)
            server.clock.advance(seconds: RecoveryPolicy().codeLifetimeSeconds)
            let late = try await server.send(
                .POST, "/v1/password/reset", json: #"{"code":"\#(expiring)","password":"\#(Self.newPassword)"}"#)
            #expect(late.code == "invalid_code")
            server.clock.advance(seconds: RecoveryPolicy().requestWindowSeconds)
            _ = try await server.send(.POST, "/v1/password/forgot", json: #"{"email":"\#(Self.email)"}"#)
            let orphaned = try await Self.mailedCode(server)
            let login = try #require(
                try await server.send(.POST, "/v1/login", json: AttackTests.login(Self.email, AttackTests.password))
                    .token)
            _ = session
            #expect(
                try await server.send(
                    .POST, "/v1/withdraw", json: #"{"password":"\#(AttackTests.password)"}"#, token: login
                ).status == 200)
            let gone = try await server.send(
                .POST, "/v1/password/reset", json: #"{"code":"\#(orphaned)","password":"\#(Self.newPassword)"}"#)
            #expect(gone.code == "invalid_code")
        }
    }
}
