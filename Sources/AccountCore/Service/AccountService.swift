/// The account flows on top of any `UserRepository`: sign-up, login, password change and
/// withdrawal, with the password rules and the login throttle. Front ends (the CLI, its terminal
/// app, the HTTP routes, the web pages) call this and nothing below it: the account flows here,
/// the signed-in user's sessions and devices through ``sessions``, and the operator's work
/// through `AccountAdministration` beside it.
///
/// A form has one method, which reports every rule its fields break at once
/// (``InvalidForm``), so a front end shows them all; a front end that shows one message takes
/// ``InvalidForm/first``.
public struct AccountService: Sendable {
    /// The store.
    public let repository: any UserRepository
    /// The signed-in user's sessions and devices: the start screen, whoami, logout, the device
    /// list.
    public private(set) var sessions: SessionService
    let hasher: any PasswordHasher
    var hashing: any PasswordHashingScheduler
    let strength: any PasswordStrengthEstimator
    let random: any RandomSource
    let clock: any AccountClock
    /// Password rules.
    public let passwordPolicy: PasswordPolicy
    /// Failed-login throttling of remote clients, shared by every copy of this service.
    public let throttle: LoginThrottle
    /// The throttle's policy.
    public var throttlePolicy: LoginThrottlePolicy { throttle.policy }
    /// Session lifetimes.
    public var sessionPolicy: SessionPolicy { sessions.policy }
    /// Whether login answers `emailNotVerified` (after the right password) until the account's
    /// email is proven, and sign-up queues the mail that proves it (`signup.require_verified_email`).
    public let requireVerifiedEmail: Bool

    /// Creates the service over `repository` with injected crypto, randomness and clock.
    /// `hashing` decides where and when each password hash runs (at once, by default).
    public init(
        repository: any UserRepository,
        hasher: any PasswordHasher,
        strength: any PasswordStrengthEstimator,
        digester: any TokenDigester,
        random: any RandomSource,
        clock: any AccountClock = SystemClock(),
        passwordPolicy: PasswordPolicy = PasswordPolicy(),
        sessionPolicy: SessionPolicy = SessionPolicy(),
        throttlePolicy: LoginThrottlePolicy = LoginThrottlePolicy(),
        hashing: any PasswordHashingScheduler = ImmediateHashing(), requireVerifiedEmail: Bool = false
    ) {
        self.requireVerifiedEmail = requireVerifiedEmail
        self.repository = repository
        sessions = SessionService(
            repository: repository, policy: sessionPolicy, digester: digester, random: random, clock: clock)
        self.hasher = hasher
        self.hashing = hashing
        self.strength = strength
        self.random = random
        self.clock = clock
        self.passwordPolicy = passwordPolicy
        throttle = LoginThrottle(policy: throttlePolicy)
    }

    /// This service with its sessions handing out access tokens that `signer` signs
    /// (``SessionService/signingAccessTokens(with:)``).
    public func signingAccessTokens(with signer: any AccessTokenSigner) -> AccountService {
        var copy = self
        copy.sessions = sessions.signingAccessTokens(with: signer)
        return copy
    }

    /// This service with its password hashes run by `scheduler` (a server's bounded queue).
    public func schedulingHashes(on scheduler: any PasswordHashingScheduler) -> AccountService {
        var copy = self
        copy.hashing = scheduler
        return copy
    }

    // MARK: - Sign-up and login

    /// Validates every field, hashes the password and creates the user together with its first
    /// session in one repository call, so a failed sign-up leaves nothing behind.
    /// `remember` makes the first session last as long as a remembered login; `device` names
    /// the device it was opened on (``DeviceName``; empty when unknown). With
    /// ``requireVerifiedEmail`` the mail that proves the email is queued too, in `language`;
    /// the sign-up's own session is opened all the same (as Kratos does), and later logins wait
    /// for the proof.
    /// - Throws: `invalidDeviceName` for a `device` the rule refuses, before anything else;
    ///   ``InvalidForm`` with every rule the form breaks (what ``signUpProblems(email:nickname:password:confirmation:)``
    ///   finds); `emailTaken`; or a store error.
    public func signUp(
        email rawEmail: String, password: String, confirmation: String, nickname rawNickname: String,
        remember: Bool = false, device: String = "", language: Language = .english
    ) async throws -> SignedInSession {
        try requireDeviceName(device)
        let check = signUpProblems(
            email: rawEmail, nickname: rawNickname, password: password, confirmation: confirmation)
        if let invalid = InvalidForm(check) { throw invalid }
        let email = try EmailAddress(rawEmail)
        let nickname = try Nickname(rawNickname)
        let normalizedPassword = PasswordPolicy.normalize(password)
        // The cheap duplicate check spares a hash; the repository's atomic insert decides.
        if try await repository.user(email: email.normalized) != nil { throw AccountError.emailTaken }
        let hash = try await hashing.run { [hasher] in try hasher.hash(normalizedPassword) }
        let now = clock.now()
        var user = UserRecord(
            id: .random(using: random), email: email.normalized, nickname: nickname.value,
            passwordHash: hash, createdAt: now)
        let (token, session) = sessions.open(for: user.id, remember: remember, device: device, at: now)
        // The proof's mail is queued first and taken back if the account is not made, so a
        // failed sign-up leaves neither (a mail whose removal fails too is dropped by the sender
        // when no account holds its address).
        let proof =
            requireVerifiedEmail
            ? OutboxMail.request(.emailVerification, to: user.email, language: language, id: random.hex(16), at: now)
            : nil
        if let proof { try await repository.enqueueMail(proof) }
        do {
            user.number = try await repository.createUser(user, initialSession: session)
        } catch {
            if let proof { _ = try? await repository.deleteMail(id: proof.id) }
            throw error
        }
        return try await sessions.signedIn(user, token: token, session: session)
    }

    /// Whether `rawEmail` (a valid ID) is already registered, for a form that checks the
    /// duplicate as soon as the ID is entered. Sign-up checks again atomically on submit.
    /// - Throws: `invalidEmail` for an ID that breaks a rule, a store error otherwise.
    public func isRegistered(email rawEmail: String) async throws -> Bool {
        try await repository.user(email: EmailAddress(rawEmail).normalized) != nil
    }

    /// Checks the credentials and opens a session ("remember me" makes it last longer).
    ///
    /// An unknown email and a wrong password both give `invalidCredentials` and both cost one
    /// Argon2id verification. A remote `origin` (a server's client) is throttled in memory by
    /// ``throttle``, under ``LoginThrottlePolicy``: an unknown email exactly as a registered one,
    /// `tooManyAttempts` before anything is looked up or verified, and strangers' failures never
    /// hold up a known device; a wrong password writes nothing to the store, so it costs what an
    /// unknown email costs. The local front ends (`.local`: the CLI, one process per call) have no
    /// memory of their own: their wrong passwords are counted in the user's record
    /// (`failedLoginCount`, reset by a success), which they wait by instead. `device` names the device the session is
    /// opened on (``DeviceName``; empty when unknown); a name the rule refuses is
    /// `invalidDeviceName`, before anything is looked up.
    ///
    /// After the right password, and only then: a blocked account is `accountBlocked`; with
    /// ``requireVerifiedEmail``, one whose email is not proven is `emailNotVerified`; one whose
    /// password is temporary is `passwordChangeRequired` unless `replacement` is given, which
    /// must then meet the password rules (``InvalidForm`` otherwise) and replaces it, every other
    /// session revoked, before the session opens. `replacement` is ignored for an account whose
    /// password is its own.
    public func login(
        email rawEmail: String, password: String, remember: Bool, from origin: LoginOrigin = .local,
        device: String = "", replacingTemporaryWith replacement: NewPassword? = nil
    ) async throws -> SignedInSession {
        try requireDeviceName(device)
        // Accounts moved in from other systems keep addresses the sign-up ID rule refuses.
        let email = try StoredEmail(rawEmail)
        var attempt = try beginAttempt(email.normalized, from: origin)
        let found: UserRecord?
        do {
            found = try await repository.user(email: email.normalized)
        } catch {
            attempt?.abandoned()
            throw error
        }
        if let claimed = origin.account, origin.device != nil,
            found.map({ LoginOrigin.Account(userID: $0.id, createdAt: $0.createdAt) }) != claimed
        {
            // The device's proof was issued for another account than the email has now (or
            // none): it proves nothing here, and the try counts as an unknown device's.
            attempt?.abandoned()
            attempt = try beginAttempt(email.normalized, from: origin.withoutDevice)
        }
        guard let user = found else {
            do {
                _ = try await hashing.run { [hasher] in
                    hasher.verify(PasswordPolicy.normalize(password), against: hasher.dummyHash())
                }
            } catch {
                attempt?.abandoned()
                throw error
            }
            throw AccountError.invalidCredentials
        }
        try await checkPassword(password, of: user, attempt: attempt)
        if user.isBlocked { throw AccountError.accountBlocked }
        if requireVerifiedEmail, user.emailVerifiedAt == nil { throw AccountError.emailNotVerified }
        // Everything after the check is conditional on the hash it verified: a password change
        // that commits meanwhile (and revokes the user's sessions) wins, and this login fails as
        // a wrong password would, never opening a session the change would not have revoked.
        var verified = user.passwordHash
        if user.mustChangePassword {
            verified = try await replaceTemporaryPassword(password, of: user, with: replacement)
        } else if hasher.needsRehash(user.passwordHash) {
            let upgraded = try await hashing.run { [hasher] in try hasher.hash(PasswordPolicy.normalize(password)) }
            guard
                try await repository.updatePassword(
                    userID: user.id, passwordHash: upgraded, changedAt: clock.now(), revoking: .none,
                    ifPasswordHashIs: verified)
            else { throw AccountError.invalidCredentials }
            verified = upgraded
        }
        let (token, session) = sessions.open(for: user.id, remember: remember, device: device, at: clock.now())
        guard try await repository.createSession(session, ifPasswordHashIs: verified) else {
            throw AccountError.invalidCredentials
        }
        return try await sessions.signedIn(user, token: token, session: session)
    }

    /// Replaces `user`'s temporary password (just verified as `current`) with `replacement`,
    /// revoking every session of the user; returns the new hash.
    private func replaceTemporaryPassword(
        _ current: String, of user: UserRecord, with replacement: NewPassword?
    ) async throws -> String {
        guard let replacement else { throw AccountError.passwordChangeRequired }
        let check = newPasswordProblems(
            for: AccountProfile(user), current: current, newPassword: replacement.password,
            confirmation: replacement.confirmation)
        if let invalid = InvalidForm(check) { throw invalid }
        let normalized = PasswordPolicy.normalize(replacement.password)
        let hash = try await hashing.run { [hasher] in try hasher.hash(normalized) }
        guard
            try await repository.updatePassword(
                userID: user.id, passwordHash: hash, changedAt: clock.now(), revoking: .all,
                ifPasswordHashIs: user.passwordHash)
        else { throw AccountError.invalidCredentials }
        return hash
    }

    // MARK: - Signed-in actions

    /// Checks the new password's rules (it must differ from the current one) and the current
    /// password, then replaces it and revokes every other session of the user in one repository
    /// call. The session used for the change stays valid.
    /// - Throws: `notSignedIn` or `sessionExpired` first, then ``InvalidForm`` with every rule
    ///   the new password and its confirmation break (what
    ///   ``newPasswordProblems(for:current:newPassword:confirmation:)`` finds), then
    ///   `wrongPassword(current: true)` or `tooManyAttempts` for the current password, or a store
    ///   error.
    public func changePassword(
        token: String?, currentPassword: String, newPassword: String, confirmation: String,
        from origin: LoginOrigin = .local
    ) async throws {
        let (user, session) = try await sessions.signedInUser(token: token, touching: false)
        let check = newPasswordProblems(
            for: AccountProfile(user), current: currentPassword, newPassword: newPassword, confirmation: confirmation)
        if let invalid = InvalidForm(check) { throw invalid }
        let normalized = PasswordPolicy.normalize(newPassword)
        let hash = try await checkPassword(
            currentPassword, of: user, attempt: try beginAttempt(user.email, from: Self.signedIn(session, origin)),
            mismatch: .wrongPassword(current: true)
        ) { hasher in try hasher.hash(normalized) }
        guard
            try await repository.updatePassword(
                userID: user.id, passwordHash: hash, changedAt: clock.now(),
                revoking: .allExcept(tokenHash: session.tokenHash), ifPasswordHashIs: user.passwordHash)
        else {
            // Withdrawn meanwhile, or the password changed from another session, which revoked this one.
            throw AccountError.notSignedIn
        }
    }

    /// Checks the password (`wrongPassword(current: false)` when it does not match), then
    /// deletes the user and every one of its sessions. The email is free to sign up again
    /// afterwards.
    public func withdraw(token: String?, password: String, from origin: LoginOrigin = .local) async throws {
        let (user, session) = try await sessions.signedInUser(token: token, touching: false)
        try await checkPassword(
            password, of: user, attempt: try beginAttempt(user.email, from: Self.signedIn(session, origin)),
            mismatch: .wrongPassword(current: false))
        guard try await repository.deleteUser(id: user.id) else { throw AccountError.notSignedIn }
    }

    // MARK: - Helpers

    /// Refuses a device name that breaks ``DeviceName``'s rule before anything is read or
    /// written, so an app that embeds the service gets the refusal an HTTP client gets; an
    /// empty name is an unknown device.
    func requireDeviceName(_ device: String) throws {
        guard device.isEmpty || DeviceName.accepts(device) else { throw AccountError.invalidDeviceName }
    }

    /// The origin of a current password typed in a signed-in session from `origin`: for a
    /// remote client that session is the device, so its failures throttle it alone.
    private static func signedIn(_ session: SessionRecord, _ origin: LoginOrigin) -> LoginOrigin {
        origin == .local ? .local : LoginOrigin(client: origin.client, device: "session:" + session.tokenHash)
    }

    /// A remote origin's try of `email` on the throttle; `nil` for the local front ends, which
    /// wait by the account's count in the store instead (``checkPassword``).
    /// - Throws: `tooManyAttempts` when `origin` must wait to try `email`.
    private func beginAttempt(_ email: String, from origin: LoginOrigin) throws -> LoginAttempt? {
        origin == .local ? nil : try throttle.attempt(email: email, from: origin, at: clock.now())
    }

    /// Verifies `password` against `user` and settles `attempt` (a remote try); without one, the
    /// account's failure count in the store decides whether it may be tried now.
    private func checkPassword(
        _ password: String, of user: UserRecord, attempt: LoginAttempt?,
        mismatch: AccountError = .invalidCredentials
    ) async throws {
        try await checkPassword(password, of: user, attempt: attempt, mismatch: mismatch) { _ in () }
    }

    /// Verifies `password` against `user`, settling `attempt`, and when it matches runs
    /// `andThen` (a password change hashes the new password there) in the same turn of the
    /// scheduler: a password change waits for one hashing slot, not two, and is never refused
    /// between its check and its hash. Returns what `andThen` returned.
    private func checkPassword<Result: Sendable>(
        _ password: String, of user: UserRecord, attempt: LoginAttempt?,
        mismatch: AccountError = .invalidCredentials, andThen work: @Sendable (any PasswordHasher) throws -> Result
    ) async throws -> Result {
        if attempt == nil {
            // One process per call has no memory of its own: the local front ends wait by the
            // account's count in the store.
            let now = clock.now()
            if let until = throttlePolicy.backoff.lockedUntil(
                failures: user.failedLoginCount, lastFailure: user.lastFailedLoginAt),
                now < until
            {
                throw AccountError.tooManyAttempts(retryAfterSeconds: now.secondsUntil(until))
            }
        }
        let outcome: PasswordCheck<Result>
        do {
            outcome = try await hashing.run { [hasher] () throws -> PasswordCheck<Result> in
                guard hasher.verify(typed: password, against: user.passwordHash) else {
                    return .mismatched
                }
                return .matched(try work(hasher))
            }
        } catch {
            attempt?.abandoned()
            throw error
        }
        switch outcome {
        case .mismatched:
            // Only the local front ends count in the store, which they wait by. A remote try is
            // counted by the throttle in memory; writing it too would make a wrong password for a
            // registered email cost a store write that an unknown email does not, and tell them
            // apart by time (most on a store that rewrites a whole file).
            if attempt == nil { _ = try await repository.recordLoginFailure(userID: user.id, at: clock.now()) }
            throw mismatch
        case .matched(let result):
            attempt?.succeeded()
            if user.failedLoginCount > 0 { try await repository.resetLoginFailures(userID: user.id) }
            return result
        }
    }
}

/// What a password check found, with what ran after a match.
private enum PasswordCheck<Result: Sendable>: Sendable {
    case matched(Result)
    case mismatched
}
