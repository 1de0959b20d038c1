/// Sessions and devices on top of any `UserRepository`: the start screen's routing, who is
/// signed in, logout, the list of devices a user is signed in on, revoking one or all of them,
/// and trading a token for a new one. Sessions are opened by the account flows
/// (``AccountService``'s sign-up and login), which hold one of these as
/// ``AccountService/sessions``.
public struct SessionService: Sendable {
    /// The store.
    public let repository: any UserRepository
    /// Session lifetimes.
    public let policy: SessionPolicy
    let digester: any TokenDigester
    private let random: any RandomSource
    private let clock: any AccountClock
    private var accessTokens: (any AccessTokenSigner)?

    /// A session is written back as "seen" at most this often, so reads stay reads.
    static let touchIntervalSeconds: Int64 = 60

    /// Sessions over `repository`, with injected crypto, randomness and clock.
    public init(
        repository: any UserRepository, policy: SessionPolicy = SessionPolicy(), digester: any TokenDigester,
        random: any RandomSource, clock: any AccountClock = SystemClock()
    ) {
        self.repository = repository
        self.policy = policy
        self.digester = digester
        self.random = random
        self.clock = clock
    }

    /// These sessions handing out access tokens that `signer` signs beside each session's
    /// opaque token, which becomes the refresh token only (`session.access_tokens: jwt`). Every
    /// call that takes a token then takes an access token as well; ``refresh(token:)`` takes
    /// the opaque one only.
    public func signingAccessTokens(with signer: any AccessTokenSigner) -> SessionService {
        var copy = self
        copy.accessTokens = signer
        return copy
    }

    /// What signs the access tokens that come with sessions (``signingAccessTokens(with:)``);
    /// nil when the session's opaque token is the only one.
    public var accessTokenSigner: (any AccessTokenSigner)? { accessTokens }

    // MARK: - Start screen and who is signed in

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

    // MARK: - Ending sessions

    /// Revokes the session on the store side.
    /// - Throws: `notSignedIn` when there is no such session.
    /// An access token ends its whole session: the refresh token too, so no new access token
    /// comes of it (the one presented is refused here from now on, and by services that check
    /// only the published keys, when it expires).
    public func logout(token: String?) async throws {
        if let token, Self.isAccessToken(token) {
            let (user, session) = try await signedInUser(token: token, touching: false)
            guard try await repository.revokeFamily(session.family, userID: user.id) > 0 else {
                throw AccountError.notSignedIn
            }
            return
        }
        guard let token, isWellFormed(token) else { throw AccountError.notSignedIn }
        guard try await repository.deleteSession(tokenHash: digester.digest(token)) else {
            throw AccountError.notSignedIn
        }
    }

    /// Every unexpired session of the signed-in user, the most recently used first (then the
    /// newest), the asking one marked ``SessionSummary/current``.
    /// - Throws: `notSignedIn` without a valid session, `sessionExpired` when it lapsed.
    public func list(token: String?) async throws -> [SessionSummary] {
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

    /// Revokes every session of the signed-in user, the asking one included ("sign out
    /// everywhere").
    /// - Returns: how many were revoked.
    /// - Throws: `notSignedIn` or `sessionExpired`.
    @discardableResult
    public func revokeAllSessions(token: String?) async throws -> Int {
        try await revoke(ownSessions(token: token).all)
    }

    /// Revokes the signed-in user's sessions on one device: those whose public id is `device`
    /// (``SessionSummary/id``) or that were opened on a device of that name, the asking one
    /// included when it matches. Only the user's own sessions are looked at.
    /// - Returns: how many were revoked.
    /// - Throws: `notSignedIn` or `sessionExpired`.
    @discardableResult
    public func revokeSessions(token: String?, device: String) async throws -> Int {
        try await revoke(ownSessions(token: token).all.filter { publicID(of: $0) == device || $0.device == device })
    }

    /// Trades the session's token for a new one; the old one stops working. The session keeps
    /// its device, "remember me", absolute expiry and family, so a refresh never makes a session
    /// last longer than its login allowed. The swap is one write (``UserRepository/rotateSession(tokenHash:to:ifPasswordHashIs:at:)``):
    /// of refreshes racing with one token, one wins, and a crash leaves the old token or the new
    /// one.
    ///
    /// A token a refresh replaced is remembered. Presented again within
    /// ``SessionPolicy/refreshReuseGraceSeconds`` (a second tab, a retry after a lost answer) it
    /// is refused and nothing else changes; presented later, someone holds a copy of a token
    /// that should be gone, and every session of its family is revoked, the legitimate
    /// successor included (RFC 9700 §4.14.2).
    /// - Throws: `notSignedIn` or `sessionExpired`.
    public func refresh(token: String?) async throws -> SignedInSession {
        let user: UserRecord
        let session: SessionRecord
        do {
            (user, session) = try await signedInUser(token: token, touching: false, acceptingAccessTokens: false)
        } catch AccountError.notSignedIn {
            if let token, isWellFormed(token) { try await revokeOnReplay(tokenHash: digester.digest(token)) }
            throw AccountError.notSignedIn
        }
        let newToken = random.hex(32)
        let now = clock.now()
        var renewed = session
        renewed.tokenHash = digester.digest(newToken)
        renewed.lastSeenAt = now
        // While the password is the one the session was opened under: a change that revoked the
        // user's other sessions meanwhile is not outlived by a renewed one.
        guard
            try await repository.rotateSession(
                tokenHash: session.tokenHash, to: renewed, ifPasswordHashIs: user.passwordHash, at: now)
        else {
            // Another refresh with this token won the race: this one is its replay.
            try await revokeOnReplay(tokenHash: session.tokenHash)
            throw AccountError.notSignedIn
        }
        return try await signedIn(user, token: newToken, session: renewed)
    }

    /// Revokes the family of a replaced token presented after its grace.
    private func revokeOnReplay(tokenHash: String) async throws {
        guard let rotated = try await repository.rotatedToken(tokenHash: tokenHash) else { return }
        let now = clock.now()
        // Past the family's absolute expiry every session of it has lapsed: nothing to revoke.
        guard rotated.rotatedAt.secondsUntil(now) > policy.refreshReuseGraceSeconds, now < rotated.expiresAt
        else { return }
        _ = try await repository.revokeFamily(rotated.family, userID: rotated.userID)
    }

    // MARK: - For the account flows

    /// The answer to a sign-up, login, refresh or reset that opened or renewed `session` of
    /// `user` with `token`: with its access token when they are signed, whose `amr` is
    /// `methods` (RFC 8176: `pwd` for a password, `oauth` for an outside provider).
    func signedIn(
        _ user: UserRecord, token: String, session: SessionRecord, methods: [String] = ["pwd"]
    ) async throws -> SignedInSession {
        var signedIn = SignedInSession(profile: AccountProfile(user), token: token, expiresAt: session.expiresAt)
        guard let accessTokens else { return signedIn }
        // JWT's times are whole seconds.
        let now = Timestamp(millisecondsSince1970: clock.now().millisecondsSince1970 / 1000 * 1000)
        // Never past the session's own end: a token outliving its session would be a session.
        let expiresAt = min(now.adding(seconds: policy.accessTokenLifetimeSeconds), session.expiresAt)
        let claims = AccessTokenClaims(
            userID: user.id, number: signedIn.profile.number, sessionID: accessSessionID(of: session), issuedAt: now,
            expiresAt: expiresAt, methods: methods)
        signedIn.access = AccessToken(token: try await accessTokens.sign(claims), expiresAt: expiresAt)
        return signedIn
    }

    /// A new session of `userID` opened at `now` (not stored yet) and its token, which only the
    /// client ever holds: the store keeps its digest.
    func open(
        for userID: UserID, remember: Bool, device: String, at now: Timestamp
    ) -> (token: String, record: SessionRecord) {
        let token = random.hex(32)
        let idle = remember ? policy.rememberIdleTimeoutSeconds : policy.idleTimeoutSeconds
        let absolute = remember ? policy.rememberAbsoluteTimeoutSeconds : policy.absoluteTimeoutSeconds
        let record = SessionRecord(
            tokenHash: digester.digest(token), userID: userID, createdAt: now, lastSeenAt: now,
            expiresAt: now.adding(seconds: absolute), idleTimeoutSeconds: idle, remember: remember, device: device)
        return (token, record)
    }

    /// The session's user. `touching` refreshes the session's idle timer; the password change
    /// and withdrawal pass `false`, so that when they fail (a wrong password, a store fault)
    /// the session is exactly as before — a failed operation changes nothing it did not report.
    /// - Throws: `notSignedIn` without a valid session, `sessionExpired` when it lapsed (the
    ///   lapsed session is removed).
    func signedInUser(
        token: String?, touching: Bool = true, acceptingAccessTokens: Bool = true
    ) async throws -> (user: UserRecord, session: SessionRecord) {
        if let token, Self.isAccessToken(token) {
            guard acceptingAccessTokens else { throw AccountError.notSignedIn }
            return try await accessHolder(token: token, touching: touching)
        }
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
        // A session of a blocked user is left only by a login racing the block: it ends here.
        guard let user = found, !user.isBlocked else {
            _ = try await repository.deleteSession(tokenHash: tokenHash)
            throw AccountError.notSignedIn
        }
        if touching, session.lastSeenAt.secondsUntil(now) >= Self.touchIntervalSeconds {
            try await repository.touchSession(tokenHash: tokenHash, lastSeenAt: now)
        }
        return (user, session)
    }

    /// The user and session of an access token: one its signer reads, not expired by this
    /// service's clock, whose user is here and not blocked and whose session (the family
    /// named by `sid`) is still open. This server so refuses a token at once after a logout,
    /// a revocation or a password change, where a service holding only the keys waits for
    /// its expiry.
    private func accessHolder(
        token: String, touching: Bool
    ) async throws -> (user: UserRecord, session: SessionRecord) {
        guard let accessTokens, let claims = await accessTokens.claims(of: token) else {
            throw AccountError.notSignedIn
        }
        let now = clock.now()
        guard now < claims.expiresAt else { throw AccountError.sessionExpired }
        guard let user = try await repository.user(id: claims.userID), !user.isBlocked,
            let session = try await repository.sessions(userID: user.id).first(where: {
                accessSessionID(of: $0) == claims.sessionID
            }), !session.isExpired(at: now)
        else { throw AccountError.notSignedIn }
        if touching, session.lastSeenAt.secondsUntil(now) >= Self.touchIntervalSeconds {
            try await repository.touchSession(tokenHash: session.tokenHash, lastSeenAt: now)
        }
        return (user, session)
    }

    // MARK: - Helpers

    /// The `sid` of the access tokens of `session`'s family: a digest of the family, which is
    /// the token hash of the login's session, so the claim gives neither away.
    func accessSessionID(of session: SessionRecord) -> String {
        String(digester.digest("access-session-id:" + session.family).prefix(32))
    }

    /// Whether `token` has a JWT's shape (three parts joined by dots), a signed access token;
    /// a session's own token is hex. A front that answers with a refresh token asks this.
    public static func isAccessToken(_ token: String) -> Bool {
        token.utf8.contains(UInt8(ascii: "."))
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

    /// Deletes `sessions`; returns how many were still there.
    private func revoke(_ sessions: [SessionRecord]) async throws -> Int {
        var revoked = 0
        for session in sessions where try await repository.deleteSession(tokenHash: session.tokenHash) {
            revoked += 1
        }
        return revoked
    }

    private func isWellFormed(_ token: String) -> Bool {
        Hex.isLowercaseHex(token, byteCount: 32)
    }
}
