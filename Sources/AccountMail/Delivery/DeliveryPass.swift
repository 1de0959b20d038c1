/// What one pass over the due mail did.
public struct DeliveryPass: Sendable, Hashable {
    /// Mails the relay accepted (then removed from the outbox).
    public var sent = 0
    /// Mails that failed and wait for a later try.
    public var deferred = 0
    /// Mails removed unsent: no account holds the address now (or it needs no such mail), or
    /// the relay refused the recipient for good.
    public var dropped = 0
    /// The last failure's summary, for the log.
    public var lastFailure: String?

    public init() {}
}
