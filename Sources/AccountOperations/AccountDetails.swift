public import AccountCore

/// What an operator sees of one account: the profile and the counters, never the hash or a token.
public struct AccountDetails: Sendable, Hashable {
    /// Id, email, nickname and creation time.
    public let profile: AccountProfile
    /// When the password was last set.
    public let passwordChangedAt: Timestamp
    /// Wrong passwords since the last success, from anywhere (the CLI waits by this count; a
    /// server's clients never do).
    public let failedLoginCount: Int
    /// Sessions the store holds for the account, expired ones included until purged.
    public let sessionCount: Int
    /// The scheme of the stored hash (`PasswordSchemes.name(of:)`): `argon2id`, or a legacy
    /// scheme the next login replaces (`bcrypt`, `django_pbkdf2_sha256`…), or `unknown`.
    public let passwordScheme: String
    /// Whether the account is blocked (it cannot sign in).
    public let isBlocked: Bool
    /// Whether the password is temporary (the next login must replace it).
    public let mustChangePassword: Bool
    /// When the email was proven, if it was.
    public let emailVerifiedAt: Timestamp?
}
