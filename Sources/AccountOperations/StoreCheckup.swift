public import AccountCore

/// The findings of `AccountAdministration.checkUp`.
public struct StoreCheckup: Sendable {
    /// The store's format and identity.
    public let info: StoreInfo
    /// The backend's integrity findings other than "ok" (empty for a sound store).
    public let problems: [String]
    /// The accounts that break a rule the store promises (`UserRecord.brokenRules`), each
    /// with the first rule it breaks, in the order walked.
    public let brokenRecords: [(email: String, rule: AccountError)]
    /// Users walked.
    public let users: Int
    /// How many accounts are still on each legacy password scheme (not yet signed in since
    /// they were moved in), by the scheme's name; a hash in ``unusableHashes`` is not counted.
    public let legacySchemes: [String: Int]
    /// The accounts whose stored hash can never be checked, with why, in the order walked: not
    /// whole, of no scheme this build verifies, or costing more to check than the configured
    /// limits allow (`hashing.legacy_…`). They cannot sign in until a limit is raised or an
    /// operator sets a new password. Not damage: the store holds what it was given.
    public let unusableHashes: [(email: String, problem: HashProblem)]
    /// Sessions found expired.
    public let expiredSessions: Int
    /// Expired sessions deleted (only when purging was asked for).
    public let purgedSessions: Int
    /// Sessions whose user was gone, deleted (only when asked for).
    public let removedOrphanedSessions: Int
    /// Expired records of finished flows (replaced refresh tokens, one-time codes) deleted (only
    /// when purging was asked for).
    public let purgedFlowRecords: Int

    /// Whether the integrity check found damage or a record breaks a rule (expired sessions are
    /// not damage).
    public var isDamaged: Bool { !problems.isEmpty || !brokenRecords.isEmpty }
}
