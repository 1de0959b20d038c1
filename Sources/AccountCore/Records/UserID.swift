/// A user's stable identifier: 128 random bits as 32 lowercase hex characters.
///
/// The email can change hands after a withdrawal; the id never does.
public struct UserID: RawRepresentable, Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The 32-character hex form.
    public let rawValue: String

    /// Wraps an existing identifier as stored.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Draws a fresh identifier.
    public static func random(using random: some RandomSource) -> UserID {
        UserID(rawValue: random.hex(16))
    }

    public static func < (lhs: UserID, rhs: UserID) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { rawValue }
}
