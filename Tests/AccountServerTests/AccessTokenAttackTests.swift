import AccountCore
import AccountTestSupport
import AccountTokens
import BackendTestSupport
import Foundation
import JWTKit
import NIOHTTP1
import StandardBackends
import Testing

/// The attacker's look at signed access tokens and the refresh route, over raw sockets: forged
/// tokens get exactly the answer of a made-up one, a withdrawn account's valid token opens
/// nothing, and a refresh token raced twenty times renews once and, replayed later, ends its
/// whole family.
@Suite("Attacks on access and refresh tokens")
struct AccessTokenAttackTests {
    /// `GET path` with `Authorization: Bearer token` on a connection of its own.
    static func get(_ path: String, token: String, port: Int) async throws -> (status: Int, body: String) {
        let answer = try await LoopbackExchange.get(path, port: port, headers: ["Authorization: Bearer \(token)"])
        return (answer.status, answer.body)
    }

    @Test("forged access tokens get the bytes a made-up token gets")
    func forgedTokens() async throws {
        try await LiveServer.with(Backends.sqlite, accessTokens: true) { server in
            let victim = try #require(try await server.send(.POST, "/v1/signup", json: AttackTests.signUp).token)
            let attacker = try #require(
                try await server.send(
                    .POST, "/v1/signup",
                    json:
                        #"{"email":"mallory7@example.com","password":"\#(AttackTests.password)","nickname":"mallory"}"#
                ).token)
            let victimID = try #require(await server.accessTokens?.claims(of: victim)).userID.rawValue
            let parts = attacker.split(separator: ".").map(String.init)
            let header = AccessTokenSignerTests.decoded(Substring(parts[0]))
            let kid = try #require(header["kid"] as? String)
            var payload = AccessTokenSignerTests.decoded(Substring(parts[1]))
            payload["sub"] = victimID
            let swapped = AccessTokenSignerTests.encoded(payload)
            let keySet = try #require(await server.accessTokens?.keySet())
            let hmac = JWTKeyCollection()
            await hmac.add(hmac: HMACKey(from: keySet), digestAlgorithm: .sha256, kid: JWKIdentifier(string: kid))
            var hsHeader = JWTHeader()
            hsHeader.typ = "at+jwt"
            let forged = [
                AccessTokenSignerTests.encoded(["alg": "none", "typ": "at+jwt", "kid": kid]) + "." + swapped + ".",
                parts[0] + "." + swapped + "." + parts[2],
                try await hmac.sign(
                    AccessTokenSignerTests.Forged(payload), kid: JWKIdentifier(string: kid), header: hsHeader),
            ]
            let madeUp = try await Self.get("/v1/me", token: "a.b.c", port: server.port)
            #expect(madeUp.status == 401)
            for token in forged {
                let answer = try await Self.get("/v1/me", token: token, port: server.port)
                #expect(answer.status == 401 && answer.body == madeUp.body, "\(token.prefix(30))")
                #expect(!answer.body.contains("leesoon7"))
            }
            #expect(try await Self.get("/v1/me", token: victim, port: server.port).body.contains("leesoon7"))
        }
    }

    @Test("a withdrawn account's unexpired access token opens nothing here")
    func withdrawnAccount() async throws {
        try await LiveServer.with(Backends.sqlite, accessTokens: true) { server in
            let token = try #require(try await server.send(.POST, "/v1/signup", json: AttackTests.signUp).token)
            let withdrawn = try await server.send(
                .POST, "/v1/withdraw", json: #"{"password":"\#(AttackTests.password)"}"#, token: token)
            #expect(withdrawn.status == 200, "\(withdrawn.text)")
            #expect(await server.accessTokens?.claims(of: token) != nil, "its signature still holds")
            #expect(try await Self.get("/v1/me", token: token, port: server.port).status == 401)
        }
    }

    @Test("twenty parallel refreshes with one token: one renews; the token replayed after the grace ends the family")
    func refreshRace() async throws {
        try await LiveServer.with(Backends.sqlite, accessTokens: true) { server in
            let signedUp = try await server.send(.POST, "/v1/signup", json: AttackTests.signUp)
            let refresh = try #require(signedUp.json["refresh_token"] as? String)
            let answers = try await withThrowingTaskGroup(of: (status: Int, body: String).self) { group in
                for index in 0..<20 {
                    group.addTask {
                        try await LoopbackExchange.postJSON(
                            "/v1/refresh", #"{"refresh_token":"\#(refresh)"}"#, port: server.port,
                            from: "127.0.0.\(index + 2)")
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.filter { $0.status == 200 }.count == 1)
            #expect(answers.filter { $0.status == 401 }.count == 19)
            let winner = try #require(answers.first { $0.status == 200 })
            let renewed = try #require(
                try JSONSerialization.jsonObject(with: Data(winner.body.utf8)) as? [String: Any])
            let access = try #require(renewed["token"] as? String)
            let newRefresh = try #require(renewed["refresh_token"] as? String)
            #expect(try await Self.get("/v1/me", token: access, port: server.port).status == 200, "within the grace")
            server.clock.advance(seconds: SessionPolicy().refreshReuseGraceSeconds + 1)
            let replay = try await LoopbackExchange.postJSON(
                "/v1/refresh", #"{"refresh_token":"\#(refresh)"}"#, port: server.port, from: "127.0.0.40")
            #expect(replay.status == 401)
            #expect(try await Self.get("/v1/me", token: access, port: server.port).status == 401, "the family ended")
            let successor = try await LoopbackExchange.postJSON(
                "/v1/refresh", #"{"refresh_token":"\#(newRefresh)"}"#, port: server.port, from: "127.0.0.41")
            #expect(successor.status == 401)
        }
    }
}
