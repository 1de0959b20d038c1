/// An identity at an outside provider (GitHub, an OpenID Connect issuer) linked to an account:
/// the provider's name and its stable id of the person (`sub`, GitHub's numeric id), never an
/// email, which a person can change there.
public struct ProviderIdentity: Sendable, Hashable, Codable {
    /// The provider's configured name (`github`, `corp`).
    public var provider: String
    /// The provider's id of the person.
    public var subject: String
    /// The account it signs in to.
    public var userID: UserID
    /// The verified email the provider gave when it was linked, if any (shown to the user).
    public var email: String?
    /// When it was linked.
    public var linkedAt: Timestamp

    /// Creates a record.
    public init(provider: String, subject: String, userID: UserID, email: String?, linkedAt: Timestamp) {
        self.provider = provider
        self.subject = subject
        self.userID = userID
        self.email = email
        self.linkedAt = linkedAt
    }
}
