public import AccountCore

/// One account as another system's export holds it, read by a ``ForeignSource`` and not yet
/// held to this store's rules (``ForeignImporter`` maps and checks it).
public struct ForeignAccount: Sendable {
    /// What the password of an account made elsewhere is.
    public enum Password: Sendable {
        /// A hash in a form a password scheme owns (an importer rewrites a system's own form,
        /// such as Keycloak's credential JSON, into one).
        case hash(String)
        /// No password this store can verify, and why (a Django unusable password, a user who
        /// signs in only with Google, an algorithm no scheme here verifies).
        case none(RecordProblem)
    }

    /// Where the account is in the source, for messages: `record 3`, `line 7`.
    public var source: String
    /// The email as the source holds it.
    public var email: String
    /// The names the nickname may come from, in the order tried (username, display name, first
    /// name…); the first that is not blank is used.
    public var names: [String?]
    /// The password.
    public var password: Password
    /// When the source says the account was made, if it says.
    public var createdAt: Timestamp?
    /// The source's positive integer id (Strapi's and Django's), kept as the user's number when
    /// the store holds no user of that number and never gave it.
    public var number: Int?

    /// Creates an account read from a source.
    public init(
        source: String, email: String, names: [String?], password: Password, createdAt: Timestamp?,
        number: Int? = nil
    ) {
        self.source = source
        self.email = email
        self.names = names
        self.password = password
        self.createdAt = createdAt
        self.number = number
    }
}
