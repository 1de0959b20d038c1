/// One account as a backend stores it.
///
/// Backends store and return these fields verbatim; they neither validate nor hash.
public struct UserRecord: Sendable, Hashable, Codable {
    /// The stable identifier.
    public var id: UserID
    /// The user's number: positive, unique in its store, given by the store when the user is
    /// created and never given again, not even after the user withdraws (as SQLite's
    /// `AUTOINCREMENT` and PostgreSQL's sequences behave). Apps keep it in their own data (a
    /// post's author); Strapi clients see it as `id`.
    ///
    /// `nil` only in a record handed to ``UserRepository/createUser(_:initialSession:)`` or
    /// ``UserRepository/createUsers(_:sessions:)`` for the store to number; a number given there
    /// is kept (an import keeps its source's numbers). Every record a store returns has one.
    public var number: Int?
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
    /// Whether the account is blocked (by an operator, or by its source system before an
    /// import): it cannot sign in, and holds no session.
    public var isBlocked: Bool
    /// Whether the password is temporary (set by the source system's administrator before an
    /// import): the next login must set a new one.
    public var mustChangePassword: Bool
    /// When the email was proven to be the owner's (a verification code, or the source
    /// system's own proof before an import); `nil` while it is not.
    public var emailVerifiedAt: Timestamp?

    /// Creates a record.
    public init(
        id: UserID,
        email: String,
        nickname: String,
        passwordHash: String,
        createdAt: Timestamp,
        passwordChangedAt: Timestamp? = nil,
        failedLoginCount: Int = 0,
        lastFailedLoginAt: Timestamp? = nil,
        number: Int? = nil,
        isBlocked: Bool = false,
        mustChangePassword: Bool = false,
        emailVerifiedAt: Timestamp? = nil
    ) {
        self.id = id
        self.number = number
        self.email = email
        self.nickname = nickname
        self.passwordHash = passwordHash
        self.createdAt = createdAt
        self.passwordChangedAt = passwordChangedAt ?? createdAt
        self.failedLoginCount = failedLoginCount
        self.lastFailedLoginAt = lastFailedLoginAt
        self.isBlocked = isBlocked
        self.mustChangePassword = mustChangePassword
        self.emailVerifiedAt = emailVerifiedAt
    }

    private enum CodingKeys: String, CodingKey {
        case id, number, email, nickname, passwordHash, createdAt, passwordChangedAt, failedLoginCount
        case lastFailedLoginAt, isBlocked, mustChangePassword, emailVerifiedAt
    }

    /// Decodes a record; one encoded before accounts kept their state (0.2.0) is active, with its
    /// own password and an email not proven.
    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try fields.decode(UserID.self, forKey: .id), email: try fields.decode(String.self, forKey: .email),
            nickname: try fields.decode(String.self, forKey: .nickname),
            passwordHash: try fields.decode(String.self, forKey: .passwordHash),
            createdAt: try fields.decode(Timestamp.self, forKey: .createdAt),
            passwordChangedAt: try fields.decode(Timestamp.self, forKey: .passwordChangedAt),
            failedLoginCount: try fields.decode(Int.self, forKey: .failedLoginCount),
            lastFailedLoginAt: try fields.decodeIfPresent(Timestamp.self, forKey: .lastFailedLoginAt),
            number: try fields.decodeIfPresent(Int.self, forKey: .number),
            isBlocked: try fields.decodeIfPresent(Bool.self, forKey: .isBlocked) ?? false,
            mustChangePassword: try fields.decodeIfPresent(Bool.self, forKey: .mustChangePassword) ?? false,
            emailVerifiedAt: try fields.decodeIfPresent(Timestamp.self, forKey: .emailVerifiedAt))
    }
}

extension UserRecord {
    /// The rules a stored account must meet that this one breaks, however it arrived (sign-up,
    /// import, a hand-edited store): the email is a well-formed stored email
    /// (``StoredEmail``) written in its normalized form, and the nickname meets the nickname
    /// rule, normalized. `accounts doctor` reports a record that breaks one; an import refuses
    /// it.
    public var brokenRules: [AccountError] {
        let nicknameRules = Nickname.brokenRules(in: nickname)
        let nicknameNormalized = nicknameRules.isEmpty && Nickname.normalize(nickname) != nickname
        return StoredEmail.brokenRules(ofStored: email).map(AccountError.invalidEmail)
            + (nicknameRules + (nicknameNormalized ? [.notNormalized] : [])).map(AccountError.invalidNickname)
    }
}

extension UserRecord {
    /// The password hash of an account that has no password: one made by signing in with an
    /// outside provider. No password matches it (a login costs one dummy Argon2id check all the
    /// same); the account gets a password through a mailed recovery code, and until then its
    /// identities are its only way in.
    public static let noPassword = "!"

    /// Whether the account has a password of its own.
    public var hasPassword: Bool { passwordHash != Self.noPassword }
}
