public import AccountCore

/// The findings of `AccountAdministration.checkUp`.
public struct StoreCheckup: Sendable {
    /// The store's format and identity.
    public let info: StoreInfo
    /// The backend's integrity findings other than "ok" (empty for a sound store).
    public let problems: [String]
    /// Users walked.
    public let users: Int
    /// Sessions found expired.
    public let expiredSessions: Int
    /// Expired sessions deleted (only when purging was asked for).
    public let purgedSessions: Int
    /// Sessions whose user was gone, deleted (only when asked for).
    public let removedOrphanedSessions: Int

    /// Whether the integrity check found damage (expired sessions are not damage).
    public var isDamaged: Bool { !problems.isEmpty }
}
