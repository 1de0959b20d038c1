/// How failed logins make later ones wait, in a way a stranger cannot turn against the owner.
///
/// A login comes from a *known device* (one that has signed in to the account before and
/// proves it, with a device cookie on the web or a device token in the API) or from an unknown
/// one. A known device waits only for its own failures, under ``backoff``. Unknown devices wait
/// for the failures of their client (address, or IPv6 /64) on that account, under ``backoff``,
/// and all together for the account's ``accountCeiling``: at most that many unknown-device
/// failures at once, draining one every ``ceilingDrainSeconds``. An email that is not
/// registered is throttled exactly as one that is, so the answers never tell them apart.
public struct LoginThrottlePolicy: Sendable, Hashable {
    /// The doubling wait after a few failures, per known device and per unknown client.
    public var backoff: ThrottlePolicy
    /// Unknown-device failures an account takes, from every client together, before every
    /// unknown device must wait.
    public var accountCeiling: Int
    /// One failure leaves the account's ceiling every this many seconds.
    public var ceilingDrainSeconds: Int64

    /// Creates a policy. Defaults: the backoff's (5 free failures, then 1 s doubling up to
    /// 15 minutes), and a ceiling of 10 unknown-device failures draining one every 6 minutes.
    public init(
        backoff: ThrottlePolicy = ThrottlePolicy(), accountCeiling: Int = 10, ceilingDrainSeconds: Int64 = 360
    ) {
        self.backoff = backoff
        self.accountCeiling = accountCeiling
        self.ceilingDrainSeconds = ceilingDrainSeconds
    }
}
