/// A mail waiting in a store's outbox to be handed to the mail relay: kept from the request
/// that made it until the relay accepted it, across relay outages, restarts and crashes.
///
/// The mail's text is made when it is sent, from its ``kind`` and ``language``; what only the
/// mail may carry (a code) is in ``payload``, sealed with the server's key, so that the outbox
/// holds no code in clear.
public struct OutboxMail: Sendable, Hashable, Codable {
    /// A random id, 32 lowercase hex characters.
    public var id: String
    /// What the mail is (`password_reset`, `email_verification`).
    public var kind: String
    /// The address it goes to.
    public var recipient: String
    /// The language of its text (`en`, `ko`).
    public var language: String
    /// What its text needs beyond the kind, sealed (opaque to the store).
    public var payload: String
    /// When it was asked for.
    public var createdAt: Timestamp
    /// Tries that failed so far.
    public var attempts: Int
    /// When it may be tried next (a sender holding it leases it forward).
    public var notBefore: Timestamp
    /// Why the last try failed, for operators (never a secret).
    public var lastError: String?

    /// Creates a mail.
    public init(
        id: String, kind: String, recipient: String, language: String, payload: String, createdAt: Timestamp,
        attempts: Int = 0, notBefore: Timestamp? = nil, lastError: String? = nil
    ) {
        self.id = id
        self.kind = kind
        self.recipient = recipient
        self.language = language
        self.payload = payload
        self.createdAt = createdAt
        self.attempts = attempts
        self.notBefore = notBefore ?? createdAt
        self.lastError = lastError
    }
}

/// What an outbox holds, for `/metrics` and `accounts doctor`.
public struct OutboxSummary: Sendable, Hashable {
    /// Mails waiting.
    public var queued: Int
    /// Of them, those that failed at least once.
    public var failing: Int
    /// When the oldest was asked for.
    public var oldest: Timestamp?

    /// Creates a summary.
    public init(queued: Int, failing: Int, oldest: Timestamp?) {
        self.queued = queued
        self.failing = failing
        self.oldest = oldest
    }
}

extension OutboxMail {
    /// A request for a mail of `purpose` to `recipient`, queued at `time`: no payload, since the
    /// sender composes it (and its code) when it goes out.
    public static func request(
        _ purpose: OneTimeCode.Purpose, to recipient: String, language: Language, id: String, at time: Timestamp
    ) -> OutboxMail {
        OutboxMail(
            id: id, kind: purpose.rawValue, recipient: recipient, language: language.rawValue, payload: "",
            createdAt: time)
    }
}
