/// How recovery and verification codes live, and whether an email must be proven before its
/// account signs in.
public struct RecoveryPolicy: Sendable, Hashable {
    /// How long a mailed code works, from the moment its mail is composed.
    public var codeLifetimeSeconds: Int64
    /// Whether login answers `email_not_verified` (after the right password) until the account's
    /// email is proven.
    public var requireVerifiedEmail: Bool
    /// Mails one email address may be sent per ``requestWindowSeconds``, whether an account
    /// holds it or not (so the limit tells nothing).
    public var requestsPerWindow: Int
    /// The window of ``requestsPerWindow``.
    public var requestWindowSeconds: Int64

    /// Creates a policy. Defaults: codes work an hour; emails need not be proven; three mails
    /// an address per 15 minutes.
    public init(
        codeLifetimeSeconds: Int64 = 3_600, requireVerifiedEmail: Bool = false, requestsPerWindow: Int = 3,
        requestWindowSeconds: Int64 = 900
    ) {
        self.codeLifetimeSeconds = codeLifetimeSeconds
        self.requireVerifiedEmail = requireVerifiedEmail
        self.requestsPerWindow = requestsPerWindow
        self.requestWindowSeconds = requestWindowSeconds
    }
}
