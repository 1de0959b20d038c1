import AccountCore
import AccountProviders
import AccountServerSettings
import AccountTestSupport
import BackendTestSupport
import Foundation
import NIOHTTP1
import StandardBackends
import Synchronization
import Testing

/// The attacker's look at provider sign-in, over raw sockets: a callback that is not the
/// client's own flow (no cookie, another state, another provider's, a forged or an expired
/// one, the cookie given twice) signs nobody in and never reaches the provider, and a link
/// started by one account cannot land on another.
@Suite("Attacks on provider sign-in")
struct ProviderAttackTests {
    /// A provider whose answer each test sets, counting the codes traded with it.
    final class ScriptedProvider: SignInProvider {
        let settings: ProviderSettings
        let person = Mutex(ProviderProfile(provider: "corp", subject: "42", verifiedEmail: "jane7@example.org"))
        let exchanges = Mutex(0)

        init(name: String) {
            var settings = ProviderSettings(name: name)
            settings.issuer = "https://idp.example"
            settings.clientID = "accounts"
            // `other` is not offered to Strapi apps.
            settings.appRedirectURL = name == "corp" ? "com.example.app:/connect" : ""
            self.settings = settings
        }

        func authorizationURL(state: String, codeChallenge: String, nonce: String, redirectURI: String) async throws
            -> String
        {
            "https://idp.example/authorize?state=\(state)&code_challenge=\(codeChallenge)&redirect_uri="
                + FormEncoding.component(redirectURI)
        }

        func profile(code: String, codeVerifier: String, nonce: String, redirectURI: String) async throws
            -> ProviderProfile
        {
            exchanges.withLock { $0 += 1 }
            var person = self.person.withLock { $0 }
            person.provider = settings.name
            return person
        }
    }

    static func providers() -> (SignInProviders, corp: ScriptedProvider, other: ScriptedProvider) {
        let corp = ScriptedProvider(name: "corp")
        let other = ScriptedProvider(name: "other")
        return (SignInProviders(byName: ["corp": corp, "other": other], publicURL: "http://127.0.0.1"), corp, other)
    }

    /// `GET path` on a connection of its own, with `headers`.
    static func get(_ path: String, port: Int, headers: [String] = []) async throws -> (
        status: Int, head: String, body: String
    ) {
        try await LoopbackExchange.get(path, port: port, headers: headers)
    }

    /// A flow started on `provider`: its cookie (`name=value`) and state.
    static func start(_ provider: String, query: String = "", port: Int, headers: [String] = []) async throws -> (
        cookie: String, state: String
    ) {
        let started = try await get("/v1/providers/\(provider)/start\(query)", port: port, headers: headers)
        #expect(started.status == 302, "\(started.head)")
        let setCookie = try #require(
            started.head.components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix("set-cookie:") })
        let cookie = String(setCookie.dropFirst("set-cookie: ".count).prefix { $0 != ";" })
        let location = try #require(
            started.head.components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix("location:") })
        let state = try #require(location.components(separatedBy: "state=").last?.prefix { $0 != "&" })
        return (cookie, String(state))
    }

    @Test("a callback that is not this client's own flow signs nobody in and never reaches the provider")
    func foreignCallbacks() async throws {
        let (providers, corp, other) = Self.providers()
        try await LiveServer.with(Backends.sqlite, providers: providers) { server in
            let port = server.port
            let (cookie, state) = try await Self.start("corp", port: port)
            let (otherCookie, otherState) = try await Self.start("other", port: port)
            let name = String(cookie.prefix { $0 != "=" })
            let value = String(cookie.dropFirst(name.count + 1))
            var fields = value.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            fields[3] = "link"
            let tampered = "\(name)=" + fields.joined(separator: ".")
            let attempts: [(String, [String])] = [
                ("no cookie", []),
                ("another state", ["Cookie: \(cookie)"]),
                ("another provider's flow", ["Cookie: \(otherCookie)"]),
                ("a changed field", ["Cookie: \(tampered)"]),
                ("the cookie twice", ["Cookie: \(cookie); \(cookie)"]),
            ]
            for (what, headers) in attempts {
                let stateSent = what == "another state" ? String(state.reversed()) : state
                let answer = try await Self.get(
                    "/v1/providers/corp/callback?code=c&state=\(stateSent)", port: port, headers: headers)
                #expect(
                    answer.status == 400 && answer.body.contains("provider_flow_invalid"), "\(what): \(answer.body)")
                #expect(answer.head.contains("Max-Age=0"), "\(what): the flow's cookie is cleared")
            }
            _ = otherState
            // Ten minutes and one second later the client's own flow is over too.
            server.clock.advance(seconds: ProviderFlow.lifetimeSeconds + 1)
            let late = try await Self.get(
                "/v1/providers/corp/callback?code=c&state=\(state)", port: port, headers: ["Cookie: \(cookie)"])
            #expect(late.status == 400 && late.body.contains("ten minutes"))
            #expect(corp.exchanges.withLock { $0 } == 0 && other.exchanges.withLock { $0 } == 0, "no code was traded")
            #expect(try await server.repository.userCount() == 0, "nobody was signed up")
        }
    }

    @Test("a link started by one account cannot land on another, and needs a session to start")
    func crossAccountLink() async throws {
        let (providers, corp, _) = Self.providers()
        try await LiveServer.with(Backends.sqlite, providers: providers) { server in
            let port = server.port
            let owner = try #require(try await server.send(.POST, "/v1/signup", json: AttackTests.signUp).token)
            let mallory = try #require(
                try await server.send(
                    .POST, "/v1/signup",
                    json:
                        #"{"email":"mallory7@example.com","password":"\#(AttackTests.password)","nickname":"mallory"}"#
                ).token)
            let unsigned = try await Self.get("/v1/providers/corp/start?link=true", port: port)
            #expect(unsigned.status == 401 && !unsigned.head.lowercased().contains("set-cookie"))
            let (cookie, state) = try await Self.start("corp", port: port, headers: ["Authorization: Bearer \(owner)"])
            let ownersFlow = try await Self.start(
                "corp", query: "?link=true", port: port, headers: ["Authorization: Bearer \(owner)"])
            // The owner's link flow, finished with mallory's session: refused.
            let crossed = try await Self.get(
                "/v1/providers/corp/callback?code=c&state=\(ownersFlow.state)", port: port,
                headers: ["Cookie: \(ownersFlow.cookie)", "Authorization: Bearer \(mallory)"])
            #expect(crossed.status == 400 && crossed.body.contains("another account"), "\(crossed.body)")
            for token in [owner, mallory] {
                let listed = try await server.send(.GET, "/v1/identities", token: token)
                #expect(listed.text.contains(#""identities":[]"#), "\(listed.text)")
            }
            // A sign-in flow (not a link) with the owner's token signs in a new account for the
            // provider's person; it links nothing to the owner.
            let signedIn = try await Self.get(
                "/v1/providers/corp/callback?code=c&state=\(state)", port: port,
                headers: ["Cookie: \(cookie)", "Authorization: Bearer \(owner)"])
            #expect(signedIn.status == 200 && signedIn.body.contains("jane7@example.org"))
            #expect(corp.exchanges.withLock { $0 } == 2)
        }
    }

    @Test("an unknown provider is 404; a query it does not take is 400; the start is never cached")
    func startAnswers() async throws {
        let (providers, _, _) = Self.providers()
        try await LiveServer.with(Backends.sqlite, providers: providers) { server in
            #expect(try await Self.get("/v1/providers/nobody/start", port: server.port).status == 404)
            #expect(try await Self.get("/v1/providers/nobody/callback?code=c&state=s", port: server.port).status == 404)
            #expect(try await Self.get("/api/connect/other", port: server.port).status == 404, "no app_redirect_url")
            #expect(try await Self.get("/api/connect/corp", port: server.port).status == 302)
            let bad = try await Self.get("/v1/providers/corp/start?remember=yes", port: server.port)
            #expect(bad.status == 400 && bad.body.contains("invalid_request"))
            let started = try await Self.get("/v1/providers/corp/start?remember=true", port: server.port)
            #expect(started.head.lowercased().contains("cache-control: no-store"))
            let cookie = try #require(
                started.head.components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix("set-cookie:") })
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax") && cookie.contains("Path=/"))
            #expect(cookie.contains("Max-Age=600"))
        }
    }

    @Test("a Strapi app's ticket works once, within its minute, and a made-up or reshaped one opens nothing")
    func tickets() async throws {
        let (providers, corp, _) = Self.providers()
        try await LiveServer.with(Backends.sqlite, providers: providers) { server in
            let port = server.port
            func ticket() async throws -> String {
                let started = try await Self.get("/api/connect/corp", port: port)
                #expect(
                    started.status == 302
                        && started.head.contains(
                            "redirect_uri=http%3A%2F%2F127.0.0.1%2Fapi%2Fconnect%2Fcorp%2Fcallback")
                )
                let setCookie = try #require(
                    started.head.components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix("set-cookie:") })
                let cookie = String(setCookie.dropFirst("set-cookie: ".count).prefix { $0 != ";" })
                let state = try #require(started.head.components(separatedBy: "state=").last?.prefix { $0 != "&" })
                let ended = try await Self.get(
                    "/api/connect/corp/callback?code=c&state=\(state)", port: port, headers: ["Cookie: \(cookie)"])
                #expect(ended.status == 302)
                let location = try #require(
                    ended.head.components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix("location:") })
                #expect(location.contains("com.example.app:/connect?access_token="), "\(location)")
                return try #require(location.components(separatedBy: "access_token=").last)
            }
            let first = try await ticket()
            let madeUp = String(repeating: "0", count: 64)
            for forged in [madeUp, first.uppercased(), String(first.dropLast()), first + "0", "\(first)%00"] {
                let answer = try await Self.get("/api/auth/corp/callback?access_token=\(forged)", port: port)
                #expect(answer.status == 400 && answer.body.contains("invalid_code"), "\(forged.prefix(8))")
            }
            let signedIn = try await Self.get("/api/auth/corp/callback?access_token=\(first)", port: port)
            #expect(signedIn.status == 200 && signedIn.body.contains(#""jwt""#))
            let replayed = try await Self.get("/api/auth/corp/callback?access_token=\(first)", port: port)
            #expect(replayed.status == 400 && replayed.body.contains("invalid_code"), "a ticket works once")
            let late = try await ticket()
            server.clock.advance(seconds: IdentityService.ticketLifetimeSeconds)
            let expired = try await Self.get("/api/auth/corp/callback?access_token=\(late)", port: port)
            #expect(expired.status == 400 && expired.body.contains("invalid_code"), "a minute later it is over")
            #expect(corp.exchanges.withLock { $0 } == 2)
            // The tickets were all for the one account the first sign-in made.
            #expect(try await server.repository.userCount() == 1)
        }
    }
}
