public import AccountCore
public import AccountServerSettings
public import AsyncHTTPClient
import Foundation

/// The configured providers, by name, and the callback address each is told.
public struct SignInProviders: Sendable {
    /// Each provider, by its section's name.
    public let byName: [String: any SignInProvider]
    /// The server's public address (`server.public_url`), which callbacks are made from.
    public let publicURL: String

    /// None: provider routes answer 404.
    public static let none = SignInProviders(byName: [:], publicURL: "")

    /// Providers already made (a test's).
    public init(byName: [String: any SignInProvider], publicURL: String) {
        self.byName = byName
        self.publicURL = publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL
    }

    /// The providers `settings` describe, their client secrets read from their files, each
    /// reached through `client`.
    /// - Throws: `configInvalid` naming the key of a secret file that cannot be read or is
    ///   empty.
    public init(
        _ settings: [ProviderSettings], publicURL: String, client: HTTPClient, clock: any AccountClock = SystemClock()
    ) throws(AccountError) {
        var byName: [String: any SignInProvider] = [:]
        for provider in settings {
            let secret = try provider.clientSecretFile.map { file throws(AccountError) in
                try Self.secret(in: file, key: "providers.\(provider.name).client_secret_file")
            }
            switch provider.kind {
            case .github:
                byName[provider.name] = GitHubProvider(settings: provider, clientSecret: secret ?? "", client: client)
            case .oidc:
                byName[provider.name] = OpenIDProvider(
                    settings: provider, clientSecret: secret, client: client, clock: clock)
            }
        }
        self.init(byName: byName, publicURL: publicURL)
    }

    /// Runs `body` with the providers `settings` describe, on an HTTP client of their own that
    /// follows no redirect (a provider's endpoints are its own; a redirect could carry a code
    /// or a secret elsewhere) and is shut down when `body` returns.
    public static func with<Result: Sendable>(
        _ settings: [ProviderSettings], publicURL: String, clock: any AccountClock = SystemClock(),
        _ body: (SignInProviders) async throws -> Result
    ) async throws -> Result {
        guard !settings.isEmpty else { return try await body(.none) }
        let client = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup,
            configuration: HTTPClient.Configuration(redirectConfiguration: .disallow))
        do {
            let result = try await body(
                try SignInProviders(settings, publicURL: publicURL, client: client, clock: clock))
            try await client.shutdown()
            return result
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    /// The callback address of `provider` for a flow of `purpose`, as registered with it: the
    /// native one, or for a Strapi app's flow Strapi's own (`/api/connect/NAME/callback`), which
    /// a provider registered for a Strapi server already has.
    public func redirectURI(_ provider: String, purpose: ProviderFlow.Purpose) -> String {
        purpose == .strapi
            ? "\(publicURL)/api/connect/\(provider)/callback" : "\(publicURL)/v1/providers/\(provider)/callback"
    }

    /// The first line of a secret file.
    private static func secret(in file: String, key: String) throws(AccountError) -> String {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
            throw .configInvalid(key: key, reason: "\(file) cannot be read")
        }
        let line = String(text.split(separator: "\n", omittingEmptySubsequences: false)[0])
            .trimmingCharacters(in: CharacterSet(charactersIn: "\r"))
        guard !line.isEmpty else { throw .configInvalid(key: key, reason: "\(file) holds no secret on its first line") }
        return line
    }
}
