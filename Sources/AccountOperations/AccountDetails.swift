public import AccountCore

/// What an operator sees of one account: the profile and the counters, never the hash or a token.
public struct AccountDetails: Sendable, Hashable {
    /// Id, email, nickname and creation time.
    public let profile: AccountProfile
    /// When the password was last set.
    public let passwordChangedAt: Timestamp
    /// Failed logins since the last success (the throttle's counter).
    public let failedLoginCount: Int
    /// Sessions the store holds for the account, expired ones included until purged.
    public let sessionCount: Int
}
