/// One of a user's sessions as the user sees it in the list of where they are signed in:
/// never its token, never its token's hash.
public struct SessionSummary: Sendable, Hashable {
    /// The session's public id: 20 hex characters derived one way from its token's hash, so
    /// that knowing it gives neither. A user revokes a session by this id.
    public let id: String
    /// The device's name (``SessionRecord/device``), empty when none is known.
    public let device: String
    /// When the session was opened (sign-up or login).
    public let createdAt: Timestamp
    /// When it was last used, to the minute (a session is written back as seen at most once a
    /// minute).
    public let lastUsedAt: Timestamp
    /// When it expires at the latest.
    public let expiresAt: Timestamp
    /// Whether it is the session that asked for the list.
    public let current: Bool

    /// The length of ``id`` in hex characters.
    public static let idLength = 20

    /// Creates a summary.
    public init(
        id: String, device: String, createdAt: Timestamp, lastUsedAt: Timestamp, expiresAt: Timestamp, current: Bool
    ) {
        self.id = id
        self.device = device
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.expiresAt = expiresAt
        self.current = current
    }
}
