import AccountCore
import AccountProviders
import AccountServerSettings
import AccountTestSupport
import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdTesting
import JWTKit
import Synchronization
import Testing

/// The OpenID Connect client against an issuer served here on loopback, whose ID tokens each
/// case writes: only a token that its published keys sign, for this client, unexpired and with
/// this sign-in's nonce, names anyone; every other is `provider_failed` saying why.
@Suite("OpenID Connect ID tokens")
struct OpenIDProviderTests {
    static let clientID = "accounts-test"

    /// The claims a case signs.
    struct Claims: JWTPayload {
        var iss: String
        var sub = "248289761001"
        var aud: [String] = [OpenIDProviderTests.clientID]
        var exp: Int64
        var iat: Int64
        var nonce: String? = "nonce-1"
        var azp: String?
        var email: String? = "jane7@example.org"
        var emailVerified: BoolClaim? = true

        enum CodingKeys: String, CodingKey {
            case iss, sub, aud, exp, iat, nonce, azp, email
            case emailVerified = "email_verified"
        }

        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    /// What the issuer's token endpoint answers next.
    final class Issuer: Sendable {
        let key = ES256PrivateKey()
        let tokenAnswer = Mutex<(status: HTTPResponse.Status, body: String)>((.ok, "{}"))
        let url = Mutex("")
        let discoveredIssuer = Mutex<String?>(nil)

        var keySet: String {
            let point = key.parameters!
            return
                #"{"keys":[{"kty":"EC","crv":"P-256","alg":"ES256","use":"sig","kid":"k1","x":"\#(point.x)","y":"\#(point.y)"}]}"#
        }

        func router() -> Router<BasicRequestContext> {
            let router = Router()
            router.get(".well-known/openid-configuration") { _, _ in
                let base = self.url.withLock { $0 }
                let issuer = self.discoveredIssuer.withLock { $0 } ?? base
                return Response(
                    status: .ok, headers: [.contentType: "application/json"],
                    body: .init(
                        byteBuffer: .init(
                            string:
                                #"{"issuer":"\#(issuer)","authorization_endpoint":"\#(base)/authorize","token_endpoint":"\#(base)/token","jwks_uri":"\#(base)/jwks"}"#
                        )))
            }
            router.get("jwks") { _, _ in
                Response(
                    status: .ok, headers: [.contentType: "application/json"],
                    body: .init(byteBuffer: .init(string: self.keySet)))
            }
            router.post("token") { _, _ in
                let (status, body) = self.tokenAnswer.withLock { $0 }
                return Response(
                    status: status, headers: [.contentType: "application/json"],
                    body: .init(byteBuffer: .init(string: body)))
            }
            return router
        }
    }

    /// Runs `body` with an issuer on a loopback port and a client of it.
    static func withIssuer(_ body: @Sendable (Issuer, OpenIDProvider, ManualClock) async throws -> Void)
        async throws
    {
        let issuer = Issuer()
        let app = Application(router: issuer.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            let base = "http://127.0.0.1:\(try #require(client.port))"
            issuer.url.withLock { $0 = base }
            var settings = ProviderSettings(name: "corp")
            settings.issuer = base
            settings.clientID = clientID
            let http = HTTPClient(
                eventLoopGroup: HTTPClient.defaultEventLoopGroup,
                configuration: .init(redirectConfiguration: .disallow))
            let clock = ManualClock()
            do {
                try await body(
                    issuer, OpenIDProvider(settings: settings, clientSecret: "s3cret", client: http, clock: clock),
                    clock)
            } catch {
                try await http.shutdown()
                throw error
            }
            try await http.shutdown()
        }
    }

    /// A token signed by `key` (the issuer's own unless given) with `claims`, as the token
    /// endpoint's answer.
    static func answer(_ claims: Claims, signedWith key: ES256PrivateKey? = nil, issuer: Issuer) async throws {
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: key ?? issuer.key, kid: "k1")
        let token = try await keys.sign(claims, kid: "k1")
        issuer.tokenAnswer.withLock {
            $0 = (.ok, #"{"access_token":"at","token_type":"Bearer","id_token":"\#(token)"}"#)
        }
    }

    static func claims(_ issuer: Issuer, _ clock: ManualClock, change: (inout Claims) -> Void = { _ in }) -> Claims {
        let now = clock.now().millisecondsSince1970 / 1000
        var claims = Claims(iss: issuer.url.withLock { $0 }, exp: now + 300, iat: now)
        change(&claims)
        return claims
    }

    static func profile(_ provider: OpenIDProvider) async throws -> ProviderProfile {
        try await provider.profile(
            code: "code-1", codeVerifier: "verifier", nonce: "nonce-1", redirectURI: "http://127.0.0.1/cb")
    }

    /// `provider_failed` whose reason says `why`.
    static func expectFailure(_ why: String, _ provider: OpenIDProvider) async {
        do {
            let profile = try await Self.profile(provider)
            Issue.record("a token that should be refused (\(why)) named \(profile.subject)")
        } catch AccountError.providerFailed(_, let reason) {
            #expect(reason.contains(why), "\(reason)")
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test("a token its keys sign, for this client and sign-in, names the person and the verified email")
    func acceptsItsOwn() async throws {
        try await Self.withIssuer { issuer, provider, clock in
            try await Self.answer(Self.claims(issuer, clock), issuer: issuer)
            let profile = try await Self.profile(provider)
            #expect(profile.subject == "248289761001" && profile.verifiedEmail == "jane7@example.org")
            let url = try await provider.authorizationURL(
                state: "st", codeChallenge: "ch", nonce: "nonce-1", redirectURI: "http://127.0.0.1/cb")
            #expect(url.hasPrefix(issuer.url.withLock { $0 } + "/authorize?response_type=code&client_id=accounts-test"))
            #expect(url.contains("code_challenge=ch&code_challenge_method=S256") && url.contains("nonce=nonce-1"))
            #expect(url.contains("scope=openid%20email%20profile"))
        }
    }

    @Test(
        "tokens not for this sign-in are refused, saying why",
        arguments: [
            ("nonce", "another nonce"), ("expired", "expired"), ("another client", "another audience"),
            ("another issuer", "another issuer"), ("azp", "two audiences, no azp"),
            ("issued in the future", "issued an hour ahead"),
        ])
    func refusesOthers(why: String, change: String) async throws {
        try await Self.withIssuer { issuer, provider, clock in
            let claims = Self.claims(issuer, clock) { claims in
                switch change {
                case "another nonce": claims.nonce = "nonce-2"
                case "expired": claims.exp = claims.iat - 1
                case "another audience": claims.aud = ["someone-else"]
                case "another issuer": claims.iss = "https://evil.example"
                case "two audiences, no azp": claims.aud = [Self.clientID, "someone-else"]
                default:
                    claims.iat += 3_600
                    claims.exp += 3_600
                }
            }
            try await Self.answer(claims, issuer: issuer)
            await Self.expectFailure(why, provider)
        }
    }

    @Test("a token signed by another key under the issuer's key id, and unsigned or HMAC tokens, are refused")
    func forgedSignatures() async throws {
        try await Self.withIssuer { issuer, provider, clock in
            try await Self.answer(Self.claims(issuer, clock), signedWith: ES256PrivateKey(), issuer: issuer)
            await Self.expectFailure("signature", provider)

            let payload = try JSONEncoder().encode(Self.claims(issuer, clock))
            func encoded(_ data: Data) -> String {
                data.base64EncodedString().replacingOccurrences(of: "+", with: "-")
                    .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            }
            let none = encoded(Data(#"{"alg":"none","kid":"k1"}"#.utf8)) + "." + encoded(payload) + "."
            issuer.tokenAnswer.withLock { $0 = (.ok, #"{"id_token":"\#(none)"}"#) }
            await Self.expectFailure("public-key algorithm", provider)

            // The published key set as an HMAC secret (RFC 8725 §2.1's confusion).
            let hmac = JWTKeyCollection()
            await hmac.add(hmac: HMACKey(from: issuer.keySet), digestAlgorithm: .sha256, kid: "k1")
            let confused = try await hmac.sign(Self.claims(issuer, clock), kid: "k1")
            issuer.tokenAnswer.withLock { $0 = (.ok, #"{"id_token":"\#(confused)"}"#) }
            await Self.expectFailure("public-key algorithm", provider)
        }
    }

    @Test("an email the issuer does not call verified is not taken as proven")
    func unverifiedEmail() async throws {
        try await Self.withIssuer { issuer, provider, clock in
            for (verified, taken) in [(BoolClaim?.none, false), (false, false), (true, true)] {
                try await Self.answer(Self.claims(issuer, clock) { $0.emailVerified = verified }, issuer: issuer)
                #expect(try await Self.profile(provider).verifiedEmail == (taken ? "jane7@example.org" : nil))
            }
        }
    }

    @Test("a refused code is provider_flow_invalid; a server error or a discovery of another issuer is provider_failed")
    func refusals() async throws {
        try await Self.withIssuer { issuer, provider, _ in
            issuer.tokenAnswer.withLock { $0 = (.badRequest, #"{"error":"invalid_grant"}"#) }
            await #expect(
                throws: AccountError.providerFlowInvalid(reason: "the provider refused the code (invalid_grant)")
            ) {
                try await Self.profile(provider)
            }
            issuer.tokenAnswer.withLock { $0 = (.internalServerError, "oops") }
            await Self.expectFailure("answered 500", provider)
        }
        try await Self.withIssuer { issuer, provider, _ in
            issuer.discoveredIssuer.withLock { $0 = "https://accounts.evil.example" }
            await Self.expectFailure("another issuer", provider)
        }
    }
}
