public import AccountCore
import AccountCrypto

/// The operator's service, beside `AccountService`: counting, listing and showing accounts,
/// checking a store up, and exporting, importing and migrating it. Front ends (the CLI's `users`,
/// `doctor`, `export`, `import` and `migrate`) call this, never the repository directly, and it
/// shows no password hash or token except inside an export file, which carries hashes by design.
public struct AccountAdministration: Sendable {
    /// The store.
    public let repository: any UserRepository
    private let clock: any AccountClock
    private let hasher: SchemedPasswordHasher

    /// Users per page when a whole store is walked.
    public static let pageSize = 500

    /// Creates the service over `repository`; `clock` decides which sessions are expired, and
    /// `legacyLimits` which stored hashes cost too much to check (the check-up lists them).
    public init(
        repository: any UserRepository, clock: any AccountClock = SystemClock(),
        legacyLimits: LegacyCostLimits = LegacyCostLimits()
    ) {
        self.repository = repository
        self.clock = clock
        self.hasher = PasswordSchemes.standard(current: Argon2idPasswordHasher.recommended, limits: legacyLimits)
    }

    // MARK: - Looking

    /// How many accounts the store holds.
    public func userCount() async throws -> Int {
        try await repository.userCount()
    }

    /// At most `limit` accounts in email order, starting after the email `after`.
    public func accounts(after: String?, limit: Int) async throws -> [AccountProfile] {
        try await repository.users(after: after, limit: limit).map(AccountProfile.init)
    }

    /// One account by email (any spelling of the domain), or `nil` when none has it.
    /// - Throws: `invalidEmail` for a string that is not a well-formed stored email.
    public func account(email: String) async throws -> AccountDetails? {
        guard let user = try await repository.user(email: StoredEmail(email).normalized) else { return nil }
        return AccountDetails(
            profile: AccountProfile(user), passwordChangedAt: user.passwordChangedAt,
            failedLoginCount: user.failedLoginCount, sessionCount: try await repository.sessions(userID: user.id).count,
            passwordScheme: PasswordSchemes.name(of: user.passwordHash), isBlocked: user.isBlocked,
            mustChangePassword: user.mustChangePassword, emailVerifiedAt: user.emailVerifiedAt)
    }

    // MARK: - Changing an account

    /// Blocks the account with `email` (any spelling): it can no longer sign in, and every
    /// session it had ends at once. Returns `false` when it was blocked already (nothing
    /// changed).
    /// - Throws: `invalidEmail` for a string that is not an address; ``AccountOperationError``'s
    ///   `accountNotFound` when no account has it.
    public func block(email: String) async throws -> Bool {
        try await setBlocked(email: email, true)
    }

    /// Unblocks the account with `email`; returns `false` when it was not blocked.
    public func unblock(email: String) async throws -> Bool {
        try await setBlocked(email: email, false)
    }

    private func setBlocked(email: String, _ blocked: Bool) async throws -> Bool {
        let user = try await existingUser(email: email)
        guard user.isBlocked != blocked else { return false }
        guard try await repository.setBlocked(userID: user.id, blocked) else {
            throw AccountOperationError.accountNotFound(email: user.email)
        }
        return true
    }

    /// Records that the account's email is proven (an operator who checked it), now; returns
    /// `false` when it was proven already (its time is kept).
    public func verifyEmail(email: String) async throws -> Bool {
        let user = try await existingUser(email: email)
        guard user.emailVerifiedAt == nil else { return false }
        guard try await repository.setEmailVerified(userID: user.id, at: clock.now()) else {
            throw AccountOperationError.accountNotFound(email: user.email)
        }
        return true
    }

    private func existingUser(email: String) async throws -> UserRecord {
        let key = try StoredEmail(email).normalized
        guard let user = try await repository.user(email: key) else {
            throw AccountOperationError.accountNotFound(email: key)
        }
        return user
    }

    // MARK: - Check-up

    /// Runs the backend's integrity check and walks every user: the rules its record must meet,
    /// and its sessions for expired ones.
    /// Changes the store only as asked: `purgeExpired` deletes expired sessions (and the
    /// expired records of finished flows: replaced refresh tokens, one-time codes),
    /// `removeOrphanedSessions` those whose user is gone (first, so the check sees the result).
    public func checkUp(
        purgeExpired: Bool, removeOrphanedSessions: Bool, progress: (_ usersDone: Int) -> Void = { _ in }
    ) async throws -> StoreCheckup {
        let removed = removeOrphanedSessions ? try await repository.deleteOrphanedSessions() : 0
        let integrity = try await repository.integrityCheck()
        let now = clock.now()
        var users = 0
        var expired: [String] = []
        var broken: [(email: String, rule: AccountError)] = []
        var legacy: [String: Int] = [:]
        var unusable: [(email: String, problem: HashProblem)] = []
        for try await page in repository.userPages(size: Self.pageSize) {
            for user in page {
                if let rule = user.brokenRules.first { broken.append((user.email, rule)) }
                // A hash that can never be checked is listed, not counted as waiting for its upgrade.
                let scheme = PasswordSchemes.name(of: user.passwordHash)
                if let problem = hasher.problem(user.passwordHash) {
                    unusable.append((user.email, problem))
                } else if scheme != PasswordSchemes.currentName, scheme != PasswordSchemes.noPasswordName {
                    legacy[scheme, default: 0] += 1
                }
                expired += try await repository.sessions(userID: user.id).filter { $0.isExpired(at: now) }.map(
                    \.tokenHash)
            }
            users += page.count
            progress(users)
        }
        var purged = 0
        var purgedFlowRecords = 0
        if purgeExpired {
            for tokenHash in expired where try await repository.deleteSession(tokenHash: tokenHash) { purged += 1 }
            purgedFlowRecords = try await repository.purgeExpiredFlowRecords(at: now)
        }
        return StoreCheckup(
            info: try await repository.storeInfo(), problems: integrity.filter { $0 != "ok" }, brokenRecords: broken,
            users: users, legacySchemes: legacy, unusableHashes: unusable,
            expiredSessions: expired.count, purgedSessions: purged, removedOrphanedSessions: removed,
            purgedFlowRecords: purgedFlowRecords)
    }

    // MARK: - Moving accounts

    /// Writes the whole store as export lines through `write` (one line per call, no newline).
    /// - Throws: `storeBusy` when the store changed while it was being read (export again).
    public func export(
        sourceBackend: String, withSessions: Bool, progress: (_ usersDone: Int) -> Void = { _ in },
        write: (String) throws -> Void
    ) async throws -> TransferSummary {
        try await StoreExporter.export(
            repository, sourceBackend: sourceBackend, withSessions: withSessions, now: clock.now(),
            progress: progress, write: write)
    }

    /// Loads a validated export file; without `merge` the store must be empty.
    public func importFile(
        _ file: ValidatedExport, merge: Bool, progress: (_ usersDone: Int) -> Void = { _ in }
    ) async throws -> ImportReport {
        try await StoreImporter.importFile(file, into: repository, merge: merge, progress: progress)
    }

    /// Copies every account and session into the empty `target`, then proves the copy.
    public func migrate(
        to target: any UserRepository, progress: (_ usersDone: Int) -> Void = { _ in }
    ) async throws -> TransferSummary {
        try await StoreMigrator.migrate(from: repository, to: target, progress: progress)
    }
}
