/// The account rules on top of any `UserRepository`: sign-up, login, sessions, password change,
/// withdrawal and throttling. Front ends (the CLI's account commands and its app) call this and
/// nothing below it; the operator's work goes through `AccountAdministration` beside it.
public struct AccountService: Sendable {
    /// The store.
    public let repository: any UserRepository
    private let hasher: any PasswordHasher
    private var hashing: any PasswordHashingScheduler
    let strength: any PasswordStrengthEstimator
    private let digester: any TokenDigester
    private let random: any RandomSource
    private let clock: any AccountClock
    /// Password rules.
    public let passwordPolicy: PasswordPolicy
    /// Session lifetimes.
    public let sessionPolicy: SessionPolicy
    /// Failed-login throttling of remote clients, shared by every copy of this service.
    public let throttle: LoginThrottle
    /// The throttle's policy.
    public var throttlePolicy: LoginThrottlePolicy { throttle.policy }

    /// A session is written back as "seen" at most this often, so reads stay reads.
    static let touchIntervalSeconds: Int64 = 60

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
        hashing: any PasswordHashingScheduler = ImmediateHashing()
    ) {
        self.repository = repository
        self.hasher = hasher
        self.hashing = hashing
        self.strength = strength
        self.digester = digester
        self.random = random
        self.clock = clock
        self.passwordPolicy = passwordPolicy
        self.sessionPolicy = sessionPolicy
        throttle = LoginThrottle(policy: throttlePolicy)
    }

    /// This service with its password hashes run by `scheduler` (a server's bounded queue).
    public func schedulingHashes(on scheduler: any PasswordHashingScheduler) -> AccountService {
        var copy = self
        copy.hashing = scheduler
        return copy
    }

    // MARK: - Start screen

    /// Routes the saved session: a member goes to the welcome screen, anyone else is a guest.
    /// An expired or revoked session is a guest, not an error.
    public func start(token: String?) async throws -> StartScreen {
        do {
            let (user, _) = try await signedInUser(token: token)
            return .member(AccountProfile(user))
        } catch AccountError.notSignedIn {
            return .guest(sessionExpired: false)
        } catch AccountError.sessionExpired {
            return .guest(sessionExpired: true)
        }
    }

    /// The signed-in user's profile. `touching` refreshes the session's idle timer (at most
    /// once a minute); a front end that only checks the session before a password change or a
    /// withdrawal passes `false`, so a refused change leaves the session exactly as it was.
    /// - Throws: `notSignedIn` without a valid session, `sessionExpired` when it lapsed.
    public func whoami(token: String?, touching: Bool = true) async throws -> AccountProfile {
        AccountProfile(try await signedInUser(token: token, touching: touching).user)
    }

    // MARK: - Sign-up and login

    /// Validates every field, hashes the password and creates the user together with its first
    /// session in one repository call, so a failed sign-up leaves nothing behind.
    /// `remember` makes the first session last as long as a remembered login; `device` names
    /// the device it was opened on (``DeviceName``; empty when unknown).
    /// - Throws: `invalidDeviceName` for a `device` the rule refuses, before anything else; the
    ///   first rule the form breaks (`invalidEmail`, `invalidNickname`, `invalidPassword`,
    ///   `weakPassword`, `passwordMismatch`), `emailTaken`, or a store error.
    ///   `signUpListingBrokenRules` reports every broken rule instead.
    public func signUp(
        email: String, password: String, confirmation: String, nickname: String, remember: Bool = false,
        device: String = ""
    ) async throws -> SignedInSession {
        try await firstBrokenRule(of: SignUpField.self) {
            try await signUpListingBrokenRules(
                email: email, password: password, confirmation: confirmation, nickname: nickname, remember: remember,
                device: device)
        }
    }

    /// `signUp`, but a form that breaks rules throws `InvalidForm<SignUpField>` with every one
    /// of them (what `signUpProblems` finds, checked once), for a front end that shows them all.
    public func signUpListingBrokenRules(
        email rawEmail: String, password: String, confirmation: String, nickname rawNickname: String,
        remember: Bool = false, device: String = ""
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
        let (token, session) = makeSession(for: user.id, remember: remember, device: device, at: now)
        user.number = try await repository.createUser(user, initialSession: session)
        return SignedInSession(profile: AccountProfile(user), token: token, expiresAt: session.expiresAt)
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
    /// hold up a known device. Every wrong password is also counted in the user's record
    /// (`failedLoginCount`, reset by a success), which the local front ends (`.local`: the CLI,
    /// one process per call) wait by instead. `device` names the device the session is
    /// opened on (``DeviceName``; empty when unknown); a name the rule refuses is
    /// `invalidDeviceName`, before anything is looked up.
    public func login(
        email rawEmail: String, password: String, remember: Bool, from origin: LoginOrigin = .local,
        device: String = ""
    ) async throws -> SignedInSession {
        try requireDeviceName(device)
        // Accounts moved in from other systems keep addresses the sign-up ID rule refuses.
        let email = try StoredEmail(rawEmail)
        if origin != .local { try begin(email.normalized, from: origin) }
        let user: UserRecord
        do {
            guard let found = try await repository.user(email: email.normalized) else {
                _ = try await hashing.run { [hasher] in
                    hasher.verify(PasswordPolicy.normalize(password), against: hasher.dummyHash())
                }
                throw AccountError.invalidCredentials
            }
            user = found
        } catch AccountError.invalidCredentials {
            throw AccountError.invalidCredentials
        } catch {
            if origin != .local { throttle.abandoned(email: email.normalized, from: origin) }
            throw error
        }
        try await checkPassword(password, of: user, from: origin, begun: true)
        if hasher.needsRehash(user.passwordHash) {
            let upgraded = try await hashing.run { [hasher] in try hasher.hash(PasswordPolicy.normalize(password)) }
            _ = try await repository.updatePassword(
                userID: user.id, passwordHash: upgraded, changedAt: clock.now(), revoking: .none)
        }
        let (token, session) = makeSession(for: user.id, remember: remember, device: device, at: clock.now())
        guard try await repository.createSession(session) else { throw AccountError.invalidCredentials }
        return SignedInSession(profile: AccountProfile(user), token: token, expiresAt: session.expiresAt)
    }

    // MARK: - Signed-in actions

    /// Revokes the session on the store side.
    /// - Throws: `notSignedIn` when there is no such session.
    public func logout(token: String?) async throws {
        guard let token, isWellFormed(token) else { throw AccountError.notSignedIn }
        guard try await repository.deleteSession(tokenHash: digester.digest(token)) else {
            throw AccountError.notSignedIn
        }
    }

    /// Checks the new password's rules (it must differ from the current one) and the current
    /// password, then replaces it and revokes every other session of the user
    /// in one repository call. The session used for the change stays valid.
    /// - Throws: `notSignedIn` or `sessionExpired` first, then the first rule the new password
    ///   breaks (`invalidPassword`, `weakPassword`, `passwordMismatch`), then
    ///   `wrongPassword(current: true)` or `tooManyAttempts` for the current password, or a store
    ///   error.
    ///   `changePasswordListingBrokenRules` reports every broken rule instead.
    public func changePassword(
        token: String?, currentPassword: String, newPassword: String, confirmation: String,
        from origin: LoginOrigin = .local
    ) async throws {
        try await firstBrokenRule(of: NewPasswordField.self) {
            try await changePasswordListingBrokenRules(
                token: token, currentPassword: currentPassword, newPassword: newPassword, confirmation: confirmation,
                from: origin)
        }
    }

    /// `changePassword`, but a new password that breaks rules throws
    /// `InvalidForm<NewPasswordField>` with every one of them (what `newPasswordProblems` finds,
    /// checked once), for a front end that shows them all.
    public func changePasswordListingBrokenRules(
        token: String?, currentPassword: String, newPassword: String, confirmation: String,
        from origin: LoginOrigin = .local
    ) async throws {
        let (user, session) = try await signedInUser(token: token, touching: false)
        let check = newPasswordProblems(
            for: AccountProfile(user), current: currentPassword, newPassword: newPassword, confirmation: confirmation)
        if let invalid = InvalidForm(check) { throw invalid }
        let normalized = PasswordPolicy.normalize(newPassword)
        let hash = try await checkPassword(
            currentPassword, of: user, from: Self.signedIn(session, origin), mismatch: .wrongPassword(current: true)
        ) {
            hasher in try hasher.hash(normalized)
        }
        guard
            try await repository.updatePassword(
                userID: user.id, passwordHash: hash, changedAt: clock.now(),
                revoking: .allExcept(tokenHash: session.tokenHash))
        else { throw AccountError.notSignedIn }
    }

    /// Checks the password (`wrongPassword(current: false)` when it does not match), then
    /// deletes the user and every one of its sessions. The email is free to sign up again
    /// afterwards.
    public func withdraw(token: String?, password: String, from origin: LoginOrigin = .local) async throws {
        let (user, session) = try await signedInUser(token: token, touching: false)
        try await checkPassword(
            password, of: user, from: Self.signedIn(session, origin), mismatch: .wrongPassword(current: false))
        guard try await repository.deleteUser(id: user.id) else { throw AccountError.notSignedIn }
    }

    /// The configured estimator's log₂ guesses for `password` (for forms that check a field
    /// before submitting).
    public func strengthEstimate(_ password: String, userWords: [String]) -> Double {
        strength.guessesLog2(PasswordPolicy.normalize(password), userWords: userWords)
    }

    // MARK: - Where the user is signed in

    /// Every unexpired session of the signed-in user, the most recently used first (then the
    /// newest), the asking one marked ``SessionSummary/current``.
    /// - Throws: `notSignedIn` without a valid session, `sessionExpired` when it lapsed.
    public func sessions(token: String?) async throws -> [SessionSummary] {
        let (user, current) = try await signedInUser(token: token)
        let now = clock.now()
        return try await repository.sessions(userID: user.id)
            .filter { !$0.isExpired(at: now) }
            .sorted { ($0.lastSeenAt, $0.createdAt) > ($1.lastSeenAt, $1.createdAt) }
            .map { session in
                SessionSummary(
                    id: publicID(of: session), device: session.device, createdAt: session.createdAt,
                    lastUsedAt: session.lastSeenAt, expiresAt: session.expiresAt,
                    current: session.tokenHash == current.tokenHash)
            }
    }

    /// Revokes the signed-in user's session whose public id is `id` (the asking session
    /// itself too: that is a logout). Only the user's own sessions are looked at, so another
    /// user's id is `sessionNotFound` exactly as an id never given.
    /// - Throws: `notSignedIn`, `sessionExpired`, or `sessionNotFound`.
    public func revokeSession(token: String?, id: String) async throws {
        guard let session = try await ownSessions(token: token).all.first(where: { publicID(of: $0) == id }),
            try await repository.deleteSession(tokenHash: session.tokenHash)
        else { throw AccountError.sessionNotFound }
    }

    /// Revokes every session of the signed-in user but the asking one ("sign out everywhere
    /// else").
    /// - Returns: how many were revoked.
    /// - Throws: `notSignedIn` or `sessionExpired`.
    @discardableResult
    public func revokeOtherSessions(token: String?) async throws -> Int {
        let (current, sessions) = try await ownSessions(token: token)
        return try await revoke(sessions.filter { $0.tokenHash != current.tokenHash })
    }

    /// Strapi's `POST /api/auth/logout`: revokes the signed-in user's sessions on `device`
    /// (a public id, or a device name as Strapi's `deviceId`), or every session of the user,
    /// the asking one included, when `device` is `nil`.
    /// - Returns: how many were revoked.
    /// - Throws: `notSignedIn` or `sessionExpired`.
    @discardableResult
    public func revokeSessions(token: String?, device: String?) async throws -> Int {
        let sessions = try await ownSessions(token: token).all
        guard let device else { return try await revoke(sessions) }
        return try await revoke(sessions.filter { publicID(of: $0) == device || $0.device == device })
    }

    /// Strapi's `POST /api/auth/refresh`: the session gets a new token and the old one stops
    /// working. The session keeps its device, "remember me" and absolute expiry, so a refresh
    /// never makes a session last longer than its login allowed. The old token is revoked
    /// first: of two refreshes racing with one token, one wins, and a crash between the two
    /// writes signs the device out rather than leaving two tokens.
    /// - Throws: `notSignedIn` or `sessionExpired`.
    public func refresh(token: String?) async throws -> SignedInSession {
        let (user, session) = try await signedInUser(token: token, touching: false)
        guard try await repository.deleteSession(tokenHash: session.tokenHash) else { throw AccountError.notSignedIn }
        let newToken = random.hex(32)
        var renewed = session
        renewed.tokenHash = digester.digest(newToken)
        renewed.lastSeenAt = clock.now()
        guard try await repository.createSession(renewed) else { throw AccountError.notSignedIn }
        return SignedInSession(profile: AccountProfile(user), token: newToken, expiresAt: renewed.expiresAt)
    }

    /// The asking session and every session of its user, for the calls that revoke some: the
    /// look does not count as use. Only the signed-in user's own sessions are ever looked at.
    private func ownSessions(token: String?) async throws -> (current: SessionRecord, all: [SessionRecord]) {
        let (user, current) = try await signedInUser(token: token, touching: false)
        return (current, try await repository.sessions(userID: user.id))
    }

    /// The public id of `session` (``SessionSummary/id``): a digest of its token's hash, cut
    /// to ``SessionSummary/idLength`` hex characters.
    private func publicID(of session: SessionRecord) -> String {
        String(digester.digest("session-id:" + session.tokenHash).prefix(SessionSummary.idLength))
    }

    /// Refuses a device name that breaks ``DeviceName``'s rule before anything is read or
    /// written, so an app that embeds the service gets the refusal an HTTP client gets; an
    /// empty name is an unknown device.
    private func requireDeviceName(_ device: String) throws {
        guard device.isEmpty || DeviceName.accepts(device) else { throw AccountError.invalidDeviceName }
    }

    /// Deletes `sessions`; returns how many were still there.
    private func revoke(_ sessions: [SessionRecord]) async throws -> Int {
        var revoked = 0
        for session in sessions where try await repository.deleteSession(tokenHash: session.tokenHash) {
            revoked += 1
        }
        return revoked
    }

    // MARK: - Helpers

    /// Runs `body`, throwing only the first rule of a form it refuses, for the callers that
    /// handle one `AccountError` at a time.
    private func firstBrokenRule<Field: CaseIterable & Hashable & Sendable, Result>(
        of form: Field.Type, _ body: () async throws -> Result
    ) async throws -> Result {
        do {
            return try await body()
        } catch let invalid as InvalidForm<Field> {
            throw invalid.first
        }
    }

    /// The origin of a current password typed in a signed-in session from `origin`: for a
    /// remote client that session is the device, so its failures throttle it alone.
    private static func signedIn(_ session: SessionRecord, _ origin: LoginOrigin) -> LoginOrigin {
        origin == .local ? .local : LoginOrigin(client: origin.client, device: "session:" + session.tokenHash)
    }

    /// Starts a try on the throttle; throws `tooManyAttempts` when `origin` must wait to try
    /// `email`.
    private func begin(_ email: String, from origin: LoginOrigin) throws {
        if let seconds = throttle.begin(email: email, from: origin, at: clock.now()) {
            throw AccountError.tooManyAttempts(retryAfterSeconds: seconds)
        }
    }

    /// Verifies `password` against `user`, honouring and updating the throttle (whose try
    /// the caller has `begun` already, or not).
    private func checkPassword(
        _ password: String, of user: UserRecord, from origin: LoginOrigin, begun: Bool = false,
        mismatch: AccountError = .invalidCredentials
    ) async throws {
        try await checkPassword(password, of: user, from: origin, begun: begun, mismatch: mismatch) { _ in () }
    }

    /// Verifies `password` against `user`, honouring and updating the throttle, and when it
    /// matches runs `andThen` (a password change hashes the new password there) in the same
    /// turn of the scheduler: a password change waits for one hashing slot, not two, and is
    /// never refused between its check and its hash. Returns what `andThen` returned.
    private func checkPassword<Result: Sendable>(
        _ password: String, of user: UserRecord, from origin: LoginOrigin, begun: Bool = false,
        mismatch: AccountError = .invalidCredentials, andThen work: @Sendable (any PasswordHasher) throws -> Result
    ) async throws -> Result {
        let remote = origin != .local
        if !remote {
            // One process per call has no memory of its own: the local front ends wait by the
            // account's count in the store.
            let now = clock.now()
            if let until = throttlePolicy.backoff.lockedUntil(
                failures: user.failedLoginCount, lastFailure: user.lastFailedLoginAt),
                now < until
            {
                throw AccountError.tooManyAttempts(retryAfterSeconds: now.secondsUntil(until))
            }
        } else if !begun {
            try begin(user.email, from: origin)
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
            if remote { throttle.abandoned(email: user.email, from: origin) }
            throw error
        }
        switch outcome {
        case .mismatched:
            _ = try await repository.recordLoginFailure(userID: user.id, at: clock.now())
            throw mismatch
        case .matched(let result):
            if remote { throttle.succeeded(email: user.email, from: origin) }
            if user.failedLoginCount > 0 { try await repository.resetLoginFailures(userID: user.id) }
            return result
        }
    }

    /// The session's user. `touching` refreshes the session's idle timer; the password change
    /// and withdrawal pass `false`, so that when they fail (a wrong password, a store fault)
    /// the session is exactly as before — a failed operation changes nothing it did not report.
    private func signedInUser(
        token: String?, touching: Bool = true
    ) async throws -> (user: UserRecord, session: SessionRecord) {
        guard let token, isWellFormed(token) else { throw AccountError.notSignedIn }
        let tokenHash = digester.digest(token)
        guard let (session, found) = try await repository.signedIn(tokenHash: tokenHash) else {
            throw AccountError.notSignedIn
        }
        let now = clock.now()
        if session.isExpired(at: now) {
            _ = try await repository.deleteSession(tokenHash: tokenHash)
            throw AccountError.sessionExpired
        }
        guard let user = found else {
            _ = try await repository.deleteSession(tokenHash: tokenHash)
            throw AccountError.notSignedIn
        }
        if touching, session.lastSeenAt.secondsUntil(now) >= Self.touchIntervalSeconds {
            try await repository.touchSession(tokenHash: tokenHash, lastSeenAt: now)
        }
        return (user, session)
    }

    private func makeSession(
        for userID: UserID, remember: Bool, device: String, at now: Timestamp
    ) -> (String, SessionRecord) {
        let token = random.hex(32)
        let idle = remember ? sessionPolicy.rememberIdleTimeoutSeconds : sessionPolicy.idleTimeoutSeconds
        let absolute = remember ? sessionPolicy.rememberAbsoluteTimeoutSeconds : sessionPolicy.absoluteTimeoutSeconds
        let record = SessionRecord(
            tokenHash: digester.digest(token), userID: userID, createdAt: now, lastSeenAt: now,
            expiresAt: now.adding(seconds: absolute), idleTimeoutSeconds: idle, remember: remember, device: device)
        return (token, record)
    }

    private func isWellFormed(_ token: String) -> Bool {
        Hex.isLowercaseHex(token, byteCount: 32)
    }
}

/// What a password check found, with what ran after a match.
private enum PasswordCheck<Result: Sendable>: Sendable {
    case matched(Result)
    case mismatched
}
