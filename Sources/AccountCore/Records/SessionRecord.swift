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
    /// A short name of the device that opened the session, for its user to tell sessions
    /// apart: given by the client or read from its User-Agent (``DeviceName``), empty when
    /// neither said anything (and in every session made before device names were kept).
    /// Nothing secret: the user sees it in the list of where they are signed in.
    public var device: String
    /// The session's family: the token hash of the session a login opened, kept by every
    /// session a refresh made from it (``UserRepository/rotateSession(tokenHash:to:ifPasswordHashIs:at:)``),
    /// so that a replayed old token ends them all.
    public var family: String

    /// Creates a record.
    public init(
        tokenHash: String,
        userID: UserID,
        createdAt: Timestamp,
        lastSeenAt: Timestamp,
        expiresAt: Timestamp,
        idleTimeoutSeconds: Int64,
        remember: Bool,
        device: String = "",
        family: String? = nil
    ) {
        self.tokenHash = tokenHash
        self.userID = userID
        self.createdAt = createdAt
        self.lastSeenAt = lastSeenAt
        self.expiresAt = expiresAt
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.remember = remember
        self.device = device
        self.family = family ?? tokenHash
    }

    private enum CodingKeys: String, CodingKey {
        case tokenHash, userID, createdAt, lastSeenAt, expiresAt, idleTimeoutSeconds, remember, device, family
    }

    /// Decodes a record; one encoded before sessions named their device (0.2.0) has none, and
    /// one encoded before sessions kept their family is a family of its own.
    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            tokenHash: try fields.decode(String.self, forKey: .tokenHash),
            userID: try fields.decode(UserID.self, forKey: .userID),
            createdAt: try fields.decode(Timestamp.self, forKey: .createdAt),
            lastSeenAt: try fields.decode(Timestamp.self, forKey: .lastSeenAt),
            expiresAt: try fields.decode(Timestamp.self, forKey: .expiresAt),
            idleTimeoutSeconds: try fields.decode(Int64.self, forKey: .idleTimeoutSeconds),
            remember: try fields.decode(Bool.self, forKey: .remember),
            device: try fields.decodeIfPresent(String.self, forKey: .device) ?? "",
            family: try fields.decodeIfPresent(String.self, forKey: .family))
    }

    /// Whether the session is past its absolute or idle expiry at `now`.
    public func isExpired(at now: Timestamp) -> Bool {
        now >= expiresAt || now >= lastSeenAt.adding(seconds: idleTimeoutSeconds)
    }
}
