/// Forgotten passwords and proven emails, by mail, for every front end: a request queues a
/// mail in the store's outbox (the same work whether an account holds the address or not), the
/// mail sender composes it (``prepare(_:)``: the account is looked up then, and the code's
/// digest stored), and the code from the mail resets the password or proves the email.
///
/// Codes are 256 bits, made from the request's id with a key the store never holds
/// (``RequestCodes``); the store keeps only their digests, each replaces the user's earlier
/// code of its purpose, works once, and expires after ``RecoveryPolicy/codeLifetimeSeconds``.
public struct RecoveryService: Sendable {
    /// The account flows this works beside (their store, hashing, rules and sessions).
    public let accounts: AccountService
    /// Lifetimes and limits.
    public let policy: RecoveryPolicy
    private let codes: any RequestCodes
    private let limiter: MailRequestLimiter

    /// Recovery beside `accounts`, with codes from `codes`. Share `limiter` between copies so
    /// that the per-address limit holds across them.
    public init(
        accounts: AccountService, codes: any RequestCodes, policy: RecoveryPolicy = RecoveryPolicy(),
        limiter: MailRequestLimiter? = nil
    ) {
        self.accounts = accounts
        self.codes = codes
        self.policy = policy
        self.limiter = limiter ?? MailRequestLimiter(policy: policy)
    }

    private var repository: any UserRepository { accounts.repository }

    /// The time on the service's clock, for the mail sender's schedule.
    public func now() -> Timestamp { accounts.clock.now() }
    private var digester: any TokenDigester { accounts.sessions.digester }

    // MARK: - Requests

    /// Queues a password-reset mail to `email`. Whether an account holds the address is only
    /// looked at when the mail is composed, so the answer, its timing and its store write are
    /// the same either way.
    /// - Throws: `invalidEmail` for text that is no address; `tooManyAttempts` past the
    ///   per-address limit; a store error.
    public func requestPasswordReset(email rawEmail: String, language: Language) async throws {
        try await request(.passwordReset, to: StoredEmail(rawEmail).normalized, language: language)
    }

    /// Queues a verification mail to `email`, as ``requestPasswordReset(email:language:)`` does
    /// (an account whose email is proven already is sent nothing).
    public func requestEmailVerification(email rawEmail: String, language: Language) async throws {
        try await request(.emailVerification, to: StoredEmail(rawEmail).normalized, language: language)
    }

    /// Queues a verification mail to the signed-in user's email.
    /// - Throws: `notSignedIn` or `sessionExpired`, then what
    ///   ``requestEmailVerification(email:language:)`` throws.
    public func requestEmailVerification(token: String?, language: Language) async throws {
        let profile = try await accounts.sessions.whoami(token: token, touching: false)
        try await request(.emailVerification, to: profile.email, language: language)
    }

    private func request(_ purpose: OneTimeCode.Purpose, to email: String, language: Language) async throws {
        let now = accounts.clock.now()
        try limiter.admit(email, at: now)
        try await repository.enqueueMail(
            .request(purpose, to: email, language: language, id: accounts.random.hex(16), at: now))
    }

    // MARK: - Composing

    /// What the queued `mail` says, with its code's digest stored (replacing the account's
    /// earlier code of its purpose); `nil` when nothing should be sent: no account holds the
    /// address now, it is blocked, or (for a verification) its email is proven already. The
    /// same mail composed again (a retry) carries the same code.
    public func prepare(_ mail: OutboxMail) async throws -> PreparedMail? {
        let purpose = OneTimeCode.Purpose(rawValue: mail.kind)
        guard purpose == .passwordReset || purpose == .emailVerification,
            let user = try await repository.user(email: mail.recipient), !user.isBlocked,
            purpose == .passwordReset || user.emailVerifiedAt == nil
        else { return nil }
        let code = codes.code(forRequest: mail.id, purpose: purpose)
        let now = accounts.clock.now()
        let expiresAt = now.adding(seconds: policy.codeLifetimeSeconds)
        guard
            try await repository.replaceCode(
                OneTimeCode(
                    codeHash: digester.digest(code), userID: user.id, purpose: purpose, createdAt: now,
                    expiresAt: expiresAt))
        else { return nil }
        return PreparedMail(
            purpose: purpose, recipient: user.email, nickname: user.nickname, code: code,
            language: Language(rawValue: mail.language) ?? .english, expiresAt: expiresAt)
    }

    // MARK: - Using a code

    /// Sets a new password with the code from a reset mail, revokes every session of the
    /// account, proves its email (the mail reached it), and signs in the device that reset.
    /// The password is checked first, against every rule sign-up applies, so a refused one
    /// leaves the code usable.
    /// - Throws: `invalidDeviceName`; `invalidCode` for a code the store does not hold (or holds
    ///   expired); ``InvalidForm`` with every rule the password breaks; `accountBlocked`; a store
    ///   error.
    public func resetPassword(
        code: String, password: String, confirmation: String, remember: Bool = false, device: String = ""
    ) async throws -> SignedInSession {
        try accounts.requireDeviceName(device)
        let (held, user) = try await holder(of: code, for: .passwordReset)
        let check = accounts.newPasswordProblems(
            for: AccountProfile(user), current: nil, newPassword: password, confirmation: confirmation)
        if let invalid = InvalidForm(check) { throw invalid }
        if user.isBlocked { throw AccountError.accountBlocked }
        let normalized = PasswordPolicy.normalize(password)
        let hash = try await accounts.hashing.run { [hasher = accounts.hasher] in try hasher.hash(normalized) }
        // Taking the code is the single use: of two resets racing with it, one goes on.
        guard try await repository.takeCode(hash: held.codeHash) != nil else { throw AccountError.invalidCode }
        let now = accounts.clock.now()
        guard
            try await repository.updatePassword(
                userID: user.id, passwordHash: hash, changedAt: now, revoking: .all,
                ifPasswordHashIs: user.passwordHash)
        else { throw AccountError.invalidCode }
        if user.emailVerifiedAt == nil { _ = try await repository.setEmailVerified(userID: user.id, at: now) }
        let (token, session) = accounts.sessions.open(for: user.id, remember: remember, device: device, at: now)
        guard try await repository.createSession(session, ifPasswordHashIs: hash) else {
            throw AccountError.invalidCode
        }
        let updated = try await repository.user(id: user.id) ?? user
        return try await accounts.sessions.signedIn(updated, token: token, session: session)
    }

    /// Proves the account's email with the code from a verification mail.
    /// - Throws: `invalidCode`, or a store error.
    @discardableResult
    public func verifyEmail(code: String) async throws -> AccountProfile {
        let (held, user) = try await holder(of: code, for: .emailVerification)
        guard try await repository.takeCode(hash: held.codeHash) != nil,
            try await repository.setEmailVerified(userID: user.id, at: accounts.clock.now())
        else { throw AccountError.invalidCode }
        return AccountProfile(try await repository.user(id: user.id) ?? user)
    }

    /// The stored code `code` is, and its account.
    /// - Throws: `invalidCode` unless the store holds it for `purpose`, unexpired, for an
    ///   account that still exists (an expired one is removed).
    private func holder(of code: String, for purpose: OneTimeCode.Purpose) async throws -> (OneTimeCode, UserRecord) {
        guard Self.isWellFormed(code) else { throw AccountError.invalidCode }
        let hash = digester.digest(code)
        guard let held = try await repository.code(hash: hash), held.purpose == purpose else {
            throw AccountError.invalidCode
        }
        if held.isExpired(at: accounts.clock.now()) {
            _ = try await repository.takeCode(hash: hash)
            throw AccountError.invalidCode
        }
        guard let user = try await repository.user(id: held.userID) else { throw AccountError.invalidCode }
        return (held, user)
    }

    /// Whether `code` has the form every code has (64 lowercase hex characters).
    public static func isWellFormed(_ code: String) -> Bool {
        code.utf8.count == 64 && code.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }
}
