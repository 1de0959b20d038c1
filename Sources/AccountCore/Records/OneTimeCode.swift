/// A single-use code mailed to a user (a password reset, an email's proof), as a store keeps
/// it: only the SHA-256 of the code, which only the mail ever held.
public struct OneTimeCode: Sendable, Hashable, Codable {
    /// What a code is for.
    public struct Purpose: RawRepresentable, Sendable, Hashable, Codable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Resets a forgotten password.
        public static let passwordReset = Purpose(rawValue: "password_reset")
        /// Proves the account's email.
        public static let emailVerification = Purpose(rawValue: "email_verification")
        /// Finishes a sign-in through a provider on the page or app it ends at (a Strapi app's
        /// `access_token`, the web pages' finish): never mailed, good for a minute.
        public static let providerSignIn = Purpose(rawValue: "provider_sign_in")
    }

    /// SHA-256 of the code, 64 lowercase hex characters.
    public var codeHash: String
    /// Whose code it is.
    public var userID: UserID
    /// What it is for: a user has at most one code of each purpose.
    public var purpose: Purpose
    /// When it was made.
    public var createdAt: Timestamp
    /// When it stops being accepted.
    public var expiresAt: Timestamp

    /// Creates a record.
    public init(codeHash: String, userID: UserID, purpose: Purpose, createdAt: Timestamp, expiresAt: Timestamp) {
        self.codeHash = codeHash
        self.userID = userID
        self.purpose = purpose
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }

    /// Whether the code is past its expiry at `now`.
    public func isExpired(at now: Timestamp) -> Bool { now >= expiresAt }
}
