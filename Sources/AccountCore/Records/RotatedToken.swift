/// A session token a refresh replaced, kept until the session would have expired: a token
/// presented after its rotation is a replay (RFC 9700 §4.14.2), and ends its whole family.
public struct RotatedToken: Sendable, Hashable, Codable {
    /// SHA-256 of the replaced token.
    public var tokenHash: String
    /// Whose session it was.
    public var userID: UserID
    /// The session's family (``SessionRecord/family``).
    public var family: String
    /// When it was replaced.
    public var rotatedAt: Timestamp
    /// When the session it belonged to would have expired: the record may go after it.
    public var expiresAt: Timestamp

    /// Creates a record.
    public init(tokenHash: String, userID: UserID, family: String, rotatedAt: Timestamp, expiresAt: Timestamp) {
        self.tokenHash = tokenHash
        self.userID = userID
        self.family = family
        self.rotatedAt = rotatedAt
        self.expiresAt = expiresAt
    }
}
