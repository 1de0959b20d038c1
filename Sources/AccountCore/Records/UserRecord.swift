/// One account as a backend stores it.
///
/// Backends store and return these fields verbatim; they neither validate nor hash.
public struct UserRecord: Sendable, Hashable, Codable {
    /// The stable identifier.
    public var id: UserID
    /// The normalized email (`local@lowercased-domain`): the unique key.
    public var email: String
    /// The display name, NFC-normalized by the service.
    public var nickname: String
    /// The Argon2id PHC string (`$argon2id$v=19$m=…,t=…,p=…$salt$hash`).
    public var passwordHash: String
    /// When the account was created.
    public var createdAt: Timestamp
    /// When the password hash last changed (creation, password change, or rehash).
    public var passwordChangedAt: Timestamp
    /// Consecutive failed logins since the last success.
    public var failedLoginCount: Int
    /// When the last failed login happened, if any since the last success.
    public var lastFailedLoginAt: Timestamp?

    /// Creates a record.
    public init(
        id: UserID,
        email: String,
        nickname: String,
        passwordHash: String,
        createdAt: Timestamp,
        passwordChangedAt: Timestamp? = nil,
        failedLoginCount: Int = 0,
        lastFailedLoginAt: Timestamp? = nil
    ) {
        self.id = id
        self.email = email
        self.nickname = nickname
        self.passwordHash = passwordHash
        self.createdAt = createdAt
        self.passwordChangedAt = passwordChangedAt ?? createdAt
        self.failedLoginCount = failedLoginCount
        self.lastFailedLoginAt = lastFailedLoginAt
    }
}

extension UserRecord {
    /// The rules a stored account must meet that this one breaks: the email is a valid ID and
    /// the nickname a valid nickname, as sign-up made them. A hand-edited or imported store can
    /// hold a record that breaks them; `accounts doctor` reports it with the rule.
    public var brokenRules: [AccountError] {
        EmailAddress.brokenRules(in: email).map(AccountError.invalidEmail)
            + Nickname.brokenRules(in: nickname).map(AccountError.invalidNickname)
    }
}
