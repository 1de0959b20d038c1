/// What the service tells about a signed-in user: never the hash, never a token.
public struct AccountProfile: Sendable, Hashable {
    /// The stable id.
    public let id: UserID
    /// The user's number (Strapi's `id`); 0 only from a backend that breaks the contract by
    /// returning a record without one, which the conformance suite refuses.
    public let number: Int
    /// The normalized email.
    public let email: String
    /// The nickname.
    public let nickname: String
    /// When the account was created.
    public let createdAt: Timestamp
    /// When the account last changed: its latest password change, else its creation (the
    /// email and nickname never change). Strapi's `updatedAt`.
    public let updatedAt: Timestamp
    /// When the email was proven to be the user's (a verification or recovery mail, or the
    /// system the account came from); `nil` while it is not.
    public let emailVerifiedAt: Timestamp?

    /// The public part of a stored user.
    public init(_ user: UserRecord) {
        id = user.id
        number = user.number ?? 0
        email = user.email
        nickname = user.nickname
        createdAt = user.createdAt
        updatedAt = max(user.createdAt, user.passwordChangedAt)
        emailVerifiedAt = user.emailVerifiedAt
    }
}

/// The result of a sign-up or login: who, and the new session's token for the client to keep.
public struct SignedInSession: Sendable {
    /// The user now signed in.
    public let profile: AccountProfile
    /// The bearer token (64 hex characters). Only its SHA-256 is stored; show it to no one.
    public let token: String
    /// When the session expires at the latest.
    public let expiresAt: Timestamp
    /// With `session.access_tokens: jwt`, the short-lived signed token for requests; ``token``
    /// is then the refresh token only. Nil with opaque tokens, where ``token`` is both.
    public internal(set) var access: AccessToken?

    /// A session and the token that holds it (and no access token yet).
    init(profile: AccountProfile, token: String, expiresAt: Timestamp) {
        self.profile = profile
        self.token = token
        self.expiresAt = expiresAt
    }
}

/// What the start screen shows.
public enum StartScreen: Sendable, Hashable {
    /// A signed-in member: the welcome screen.
    case member(AccountProfile)
    /// A guest: the sign-up screen. `sessionExpired` tells whether a saved session just lapsed.
    case guest(sessionExpired: Bool)
}

extension AccountProfile {
    /// The welcome screen's greeting: "{nickname} 님 환영합니다." or "Welcome, {nickname}.".
    public func welcome(_ language: Language) -> String {
        language == .korean ? "\(nickname) 님 환영합니다." : "Welcome, \(nickname)."
    }
}
