/// What an outside provider said about the person who just signed in there, once its answer
/// was checked (the ID token's signature, issuer, audience, expiry and nonce; GitHub's API over
/// TLS with the token it gave for the code).
public struct ProviderProfile: Sendable, Hashable {
    /// The provider's configured name (`github`, `corp`).
    public var provider: String
    /// The provider's stable id of the person (`sub`, GitHub's numeric id).
    public var subject: String
    /// The email, only when the provider says the person proved it (OIDC `email_verified`,
    /// GitHub's primary verified address); `nil` otherwise.
    public var verifiedEmail: String?
    /// The person's name there, if given: the first choice of a new account's nickname.
    public var name: String?
    /// The person's login there (GitHub's `login`, OIDC's `preferred_username`), if given: the
    /// second choice.
    public var login: String?

    /// Creates a profile.
    public init(provider: String, subject: String, verifiedEmail: String?, name: String? = nil, login: String? = nil) {
        self.provider = provider
        self.subject = subject
        self.verifiedEmail = verifiedEmail
        self.name = name
        self.login = login
    }
}
