/// One signed-in session as a backend stores it: only the SHA-256 of the token, never the token.
public struct SessionRecord: Sendable, Hashable, Codable {
    /// SHA-256 of the session token, 64 lowercase hex characters.
    public var tokenHash: String
    /// The session's owner.
    public var userID: UserID
    /// When the session was created (sign-up or login).
    public var createdAt: Timestamp
    /// When the session was last used; idle expiry counts from here.
    public var lastSeenAt: Timestamp
    /// The absolute expiry, whatever the activity.
    public var expiresAt: Timestamp
    /// How long the session may sit unused before it expires.
    public var idleTimeoutSeconds: Int64
    /// Whether "remember me" was asked for (longer timeouts).
    public var remember: Bool

    /// Creates a record.
    public init(
        tokenHash: String,
        userID: UserID,
        createdAt: Timestamp,
        lastSeenAt: Timestamp,
        expiresAt: Timestamp,
        idleTimeoutSeconds: Int64,
        remember: Bool
    ) {
        self.tokenHash = tokenHash
        self.userID = userID
        self.createdAt = createdAt
        self.lastSeenAt = lastSeenAt
        self.expiresAt = expiresAt
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.remember = remember
    }

    /// Whether the session is past its absolute or idle expiry at `now`.
    public func isExpired(at now: Timestamp) -> Bool {
        now >= expiresAt || now >= lastSeenAt.adding(seconds: idleTimeoutSeconds)
    }
}
