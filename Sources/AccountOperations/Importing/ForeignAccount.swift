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

    /// Where the account is in the source, for messages: `user 17`, `line 7`.
    public var source: String
    /// The source system's own id of the account (`17`, a UUID), when it has one: what
    /// `--id-map` and the refused file name it by.
    public var sourceID: String?
    /// The email as the source holds it.
    public var email: String
    /// The names the nickname may come from, in the order tried (username, display name, first
    /// name…); the first that is not blank is used.
    public var names: [String?]
    /// The password.
    public var password: Password
    /// When the source says the account was made, if it says.
    public var createdAt: Timestamp?
    /// The source's positive integer id (Strapi's, Django's, Devise's), kept as the user's
    /// number when the store holds no user of that number and never gave it.
    public var number: Int?
    /// Why the source keeps the account from signing in (blocked, disabled, banned, deleted,
    /// locked), in the source's terms, in English; nil when it may sign in.
    public var blockedBecause: String?
    /// Whether the source made the password temporary (Keycloak's `UPDATE_PASSWORD`): the
    /// first login here must replace it.
    public var temporaryPassword = false
    /// When the source proved the email, or the time of the import for a source that keeps
    /// only that it did; nil when it did not.
    public var emailVerifiedAt: Timestamp?
    /// What else the record breaks as the source wrote it (a flag that reads as neither yes
    /// nor no).
    public var problems: [RecordProblem] = []

    /// Creates an account read from a source.
    public init(
        source: String, email: String, names: [String?], password: Password, createdAt: Timestamp?,
        number: Int? = nil, sourceID: String? = nil
    ) {
        self.source = source
        self.sourceID = sourceID
        self.email = email
        self.names = names
        self.password = password
        self.createdAt = createdAt
        self.number = number
    }
}

extension ForeignAccount {
    /// The time `text` says (nil for none), or nil with a problem naming `column` when it is
    /// no time the importers read: a creation time is never guessed.
    mutating func time(_ text: String?, _ column: String) -> Timestamp? {
        guard let text, !text.isEmpty else { return nil }
        if let time = SourceTime.parse(text) { return time }
        problems.append(.unreadableTime(column, text))
        return nil
    }
}

/// The accounts of one source file, read one at a time (the file is never held whole).
public final class ForeignAccountReader {
    private let read: () throws(AccountError) -> ForeignAccount?
    private let position: () -> Int64
    /// The file's size in bytes, when known (for progress).
    public let size: Int64?

    /// A reader over `read`, which returns nil after the last account; `position` says how
    /// many bytes of a file of `size` were read.
    public init(
        size: Int64?, position: @escaping () -> Int64, read: @escaping () throws(AccountError) -> ForeignAccount?
    ) {
        self.size = size
        self.position = position
        self.read = read
    }

    /// The next account, or nil after the last.
    public func next() throws(AccountError) -> ForeignAccount? { try read() }

    /// Bytes of the file read so far.
    public var bytesRead: Int64 { position() }
}
