public import AccountCore
public import AccountServerSettings
public import AsyncHTTPClient
import Foundation
import JWTKit
import NIOHTTP1

/// An OpenID Connect provider (OpenID Connect Core 1.0, Discovery 1.0): found through its
/// issuer's `/.well-known/openid-configuration`, signed in with the authorization code flow
/// (PKCE S256 and a nonce always), and believed only through an ID token whose signature its
/// published keys check and whose `iss`, `aud`, `azp`, `exp`, `iat` and `nonce` are this
/// sign-in's.
public actor OpenIDProvider: SignInProvider {
    public nonisolated let settings: ProviderSettings
    private let http: ProviderHTTP
    private let clientSecret: String?
    private let clock: any AccountClock
    private var discovered: Discovery?
    private var keys: JWTKeyCollection?
    private var keysFetchedAt: Timestamp?

    /// How far in the future an ID token's `iat` may be, for clocks that differ a little.
    static let clockSkewSeconds: Int64 = 300
    /// The least time between two fetches of the key set, so tokens with made-up key ids
    /// cannot make this server fetch it on every request.
    static let keyRefetchSeconds: Int64 = 60

    /// The provider `settings` describe, reached through `client`, with its client secret
    /// (`nil` for a public client).
    public init(
        settings: ProviderSettings, clientSecret: String?, client: HTTPClient, clock: any AccountClock = SystemClock()
    ) {
        self.settings = settings
        self.clientSecret = clientSecret
        http = ProviderHTTP(client: client, provider: settings.name)
        self.clock = clock
    }

    /// The parts of the discovery document used here.
    struct Discovery: Decodable {
        var issuer: String
        var authorizationEndpoint: String
        var tokenEndpoint: String
        var jwksURI: String
        var userinfoEndpoint: String?

        enum CodingKeys: String, CodingKey {
            case issuer
            case authorizationEndpoint = "authorization_endpoint"
            case tokenEndpoint = "token_endpoint"
            case jwksURI = "jwks_uri"
            case userinfoEndpoint = "userinfo_endpoint"
        }
    }

    public func authorizationURL(state: String, codeChallenge: String, nonce: String, redirectURI: String) async throws
        -> String
    {
        let endpoint = try await discovery().authorizationEndpoint
        let query = FormEncoding.encode([
            ("response_type", "code"), ("client_id", settings.clientID), ("redirect_uri", redirectURI),
            ("scope", settings.scopes), ("state", state), ("nonce", nonce), ("code_challenge", codeChallenge),
            ("code_challenge_method", "S256"),
        ])
        return endpoint + (endpoint.contains("?") ? "&" : "?") + query
    }

    public func profile(code: String, codeVerifier: String, nonce: String, redirectURI: String) async throws
        -> ProviderProfile
    {
        let document = try await discovery()
        var form = [
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI),
            ("code_verifier", codeVerifier),
        ]
        var headers: [(String, String)] = [("Accept", "application/json")]
        if let clientSecret {
            // client_secret_basic (RFC 6749 §2.3.1): each part form-encoded, then base64.
            let pair = FormEncoding.component(settings.clientID) + ":" + FormEncoding.component(clientSecret)
            headers.append(("Authorization", "Basic " + Data(pair.utf8).base64EncodedString()))
        } else {
            form.append(("client_id", settings.clientID))
        }
        let answer = try await http.postForm(document.tokenEndpoint, form, headers: headers)
        let tokens = try? JSONDecoder().decode(TokenAnswer.self, from: Data(answer.body))
        guard answer.status == .ok else {
            if answer.status.code < 500, let tokens, tokens.error != nil { throw Self.refusal(tokens.error) }
            throw failed("its token endpoint answered \(answer.status.code)")
        }
        guard let idToken = tokens?.idToken else { throw failed("its token answer has no id_token") }
        var claims = try await verified(idToken, issuer: document.issuer, nonce: nonce)
        if claims.email == nil, let userinfo = document.userinfoEndpoint, let access = tokens?.accessToken {
            claims = try await withUserInfo(claims, from: userinfo, accessToken: access)
        }
        let verifiedEmail = claims.emailVerified?.value == true ? claims.email : nil
        return ProviderProfile(
            provider: settings.name, subject: claims.sub.value, verifiedEmail: verifiedEmail, name: claims.name,
            login: claims.preferredUsername)
    }

    /// The token endpoint's answer (RFC 6749 §5.1, §5.2).
    struct TokenAnswer: Decodable {
        var accessToken: String?
        var idToken: String?
        var error: String?

        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token"
            case idToken = "id_token"
            case error
        }
    }

    /// The ID token's claims, once its signature and every claim that binds it to this
    /// sign-in are checked.
    private func verified(_ token: String, issuer: String, nonce: String) async throws -> IDTokenClaims {
        let header = try? JWTHeaderPeek(token)
        guard let algorithm = header?.alg, IDTokenClaims.signingAlgorithms.contains(algorithm) else {
            throw failed("its ID token is not signed with a public-key algorithm")
        }
        var claims: IDTokenClaims
        do {
            claims = try await keySet(refreshingFor: header?.kid).verify(token, as: IDTokenClaims.self)
        } catch {
            throw failed("its ID token's signature is not one of its published keys'")
        }
        let now = clock.now()
        guard claims.iss.value == issuer else { throw failed("its ID token names another issuer") }
        guard claims.aud.value.contains(settings.clientID) else { throw failed("its ID token is for another client") }
        if claims.aud.value.count > 1, claims.azp != settings.clientID {
            throw failed("its ID token was issued to another party (azp)")
        }
        let nowDate = Date(timeIntervalSince1970: Double(now.millisecondsSince1970) / 1000)
        guard nowDate < claims.exp.value else { throw failed("its ID token has expired") }
        if let issued = claims.iat?.value, issued.timeIntervalSince(nowDate) > Double(Self.clockSkewSeconds) {
            throw failed("its ID token was issued in the future")
        }
        guard claims.nonce == nonce else { throw failed("its ID token is not for this sign-in (nonce)") }
        guard !claims.sub.value.isEmpty, claims.sub.value.utf8.count <= 255 else {
            throw failed("its ID token has no usable subject")
        }
        return claims
    }

    /// `claims` with the email, its proof and the names the user-info endpoint gives for the
    /// same subject (OpenID Connect Core §5.3.2: a `sub` that differs is not used).
    private func withUserInfo(_ claims: IDTokenClaims, from endpoint: String, accessToken: String) async throws
        -> IDTokenClaims
    {
        let answer = try await http.get(
            endpoint, headers: [("Authorization", "Bearer " + accessToken), ("Accept", "application/json")])
        guard answer.status == .ok else { throw failed("its user-info endpoint answered \(answer.status.code)") }
        let info = try http.decode(UserInfo.self, from: answer, what: "user info")
        guard info.sub == claims.sub.value else { throw failed("its user info is another subject's") }
        var merged = claims
        merged.email = info.email
        merged.emailVerified = info.emailVerified
        merged.name = claims.name ?? info.name
        merged.preferredUsername = claims.preferredUsername ?? info.preferredUsername
        return merged
    }

    struct UserInfo: Decodable {
        var sub: String
        var email: String?
        var emailVerified: BoolClaim?
        var name: String?
        var preferredUsername: String?

        enum CodingKeys: String, CodingKey {
            case sub, email, name
            case emailVerified = "email_verified"
            case preferredUsername = "preferred_username"
        }
    }

    /// The discovery document, fetched once and held to the configured issuer (Discovery §4.3).
    private func discovery() async throws -> Discovery {
        if let discovered { return discovered }
        let issuer = settings.issuer.hasSuffix("/") ? String(settings.issuer.dropLast()) : settings.issuer
        let answer = try await http.get(issuer + "/.well-known/openid-configuration")
        guard answer.status == .ok else { throw failed("its discovery document answered \(answer.status.code)") }
        let document = try http.decode(Discovery.self, from: answer, what: "discovery document")
        guard document.issuer == settings.issuer else {
            throw failed("its discovery document names another issuer")
        }
        for endpoint in [document.authorizationEndpoint, document.tokenEndpoint, document.jwksURI]
            + (document.userinfoEndpoint.map { [$0] } ?? [])
        {
            if let problem = ProviderSettings.addressProblem(endpoint) {
                throw failed("an endpoint it names: \(problem)")
            }
        }
        discovered = document
        return document
    }

    /// The provider's keys; fetched again (at most once a minute) when a token names a key
    /// they lack, as after a rotation.
    private func keySet(refreshingFor keyID: String?) async throws -> JWTKeyCollection {
        let now = clock.now()
        if let keys, let keysFetchedAt {
            var known = true
            if let keyID { known = (try? await keys.getKey(for: JWKIdentifier(string: keyID))) != nil }
            if known || keysFetchedAt.secondsUntil(now) < Self.keyRefetchSeconds { return keys }
        }
        let answer = try await http.get(try await discovery().jwksURI, headers: [("Accept", "application/json")])
        guard answer.status == .ok, let text = String(validating: answer.body, as: UTF8.self) else {
            throw failed("its key set answered \(answer.status.code)")
        }
        let collection = JWTKeyCollection()
        do {
            try await collection.add(jwksJSON: text)
        } catch {
            throw failed("its key set cannot be read: \(error)")
        }
        keys = collection
        keysFetchedAt = now
        return collection
    }

    private func failed(_ reason: String) -> AccountError {
        .providerFailed(provider: settings.name, reason: reason)
    }
}
