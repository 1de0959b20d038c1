public import AccountCore
public import AccountServerSettings
public import AsyncHTTPClient
import Foundation
import NIOHTTP1

/// GitHub's OAuth app web flow (or GitHub Enterprise Server's, by the section's URLs), with
/// PKCE S256. GitHub gives no ID token: who signed in is read from its REST API with the token
/// the code was traded for, over TLS, and keyed on the account's numeric id (a login and an
/// email can change hands; the id never does). Only the primary address GitHub marks verified
/// is taken as the person's email.
public struct GitHubProvider: SignInProvider {
    public let settings: ProviderSettings
    private let http: ProviderHTTP
    private let clientSecret: String

    /// The provider `settings` describe, reached through `client`.
    public init(settings: ProviderSettings, clientSecret: String, client: HTTPClient) {
        self.settings = settings
        self.clientSecret = clientSecret
        http = ProviderHTTP(client: client, provider: settings.name)
    }

    /// The headers GitHub's REST API asks for (it refuses a request without a User-Agent).
    private func apiHeaders(_ token: String) -> [(String, String)] {
        [
            ("Authorization", "Bearer " + token), ("Accept", "application/vnd.github+json"),
            ("X-GitHub-Api-Version", "2022-11-28"), ("User-Agent", "AccountStore"),
        ]
    }

    private var web: String { settings.webURL.hasSuffix("/") ? String(settings.webURL.dropLast()) : settings.webURL }
    private var api: String { settings.apiURL.hasSuffix("/") ? String(settings.apiURL.dropLast()) : settings.apiURL }

    public func authorizationURL(state: String, codeChallenge: String, nonce: String, redirectURI: String) async throws
        -> String
    {
        web + "/login/oauth/authorize?"
            + FormEncoding.encode([
                ("client_id", settings.clientID), ("redirect_uri", redirectURI), ("scope", settings.scopes),
                ("state", state), ("code_challenge", codeChallenge), ("code_challenge_method", "S256"),
            ])
    }

    public func profile(code: String, codeVerifier: String, nonce: String, redirectURI: String) async throws
        -> ProviderProfile
    {
        let answer = try await http.postForm(
            web + "/login/oauth/access_token",
            [
                ("client_id", settings.clientID), ("client_secret", clientSecret), ("code", code),
                ("redirect_uri", redirectURI), ("code_verifier", codeVerifier),
            ], headers: [("Accept", "application/json"), ("User-Agent", "AccountStore")])
        guard answer.status == .ok else { throw failed("its token endpoint answered \(answer.status.code)") }
        // GitHub answers a refused code with 200 and an `error` field.
        let tokens = try http.decode(TokenAnswer.self, from: answer, what: "token answer")
        if tokens.error != nil || tokens.accessToken == nil { throw Self.refusal(tokens.error) }
        let token = tokens.accessToken ?? ""

        let userAnswer = try await http.get(api + "/user", headers: apiHeaders(token))
        guard userAnswer.status == .ok else { throw failed("GET /user answered \(userAnswer.status.code)") }
        let user = try http.decode(User.self, from: userAnswer, what: "user")
        guard user.id > 0 else { throw failed("GET /user gave no account id") }

        let emailsAnswer = try await http.get(api + "/user/emails", headers: apiHeaders(token))
        guard emailsAnswer.status == .ok else {
            throw failed("GET /user/emails answered \(emailsAnswer.status.code) (is the user:email scope asked for?)")
        }
        let emails = try http.decode([Email].self, from: emailsAnswer, what: "email list")
        let primary = emails.first { $0.primary && $0.verified }
        return ProviderProfile(
            provider: settings.name, subject: String(user.id), verifiedEmail: primary?.email, name: user.name,
            login: user.login)
    }

    struct TokenAnswer: Decodable {
        var accessToken: String?
        var error: String?

        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token"
            case error
        }
    }

    /// `GET /user`: the id is a JSON integer, never text.
    struct User: Decodable {
        var id: Int64
        var login: String?
        var name: String?
    }

    /// One entry of `GET /user/emails`.
    struct Email: Decodable {
        var email: String
        var primary: Bool
        var verified: Bool
    }

    private func failed(_ reason: String) -> AccountError {
        .providerFailed(provider: settings.name, reason: reason)
    }
}
