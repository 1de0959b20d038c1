public import AccountCore

/// Everything a backend receives to open its store: where it is, the section's settings, and
/// how to recognise other backends' stores.
public struct BackendConfiguration: Sendable, Hashable {
    /// Where the store is: for a file backend its absolute file path; for a backend with
    /// ``StoreLocation/named(key:defaultName:)`` stores, the place's name (PostgreSQL: the schema).
    public var location: String
    /// The section's other settings, every declared option present (defaults filled in) when the
    /// settings loader made it. Read them with ``value(of:)``.
    public var values: [String: BackendOptionValue]
    /// Whether `open` may create an empty store when none exists at ``location``. A program
    /// that only reads (or works on existing accounts) passes `false`, so a mistyped path is an
    /// error instead of a new, empty store.
    public var createIfMissing: Bool
    /// Whether `open` may upgrade a store of an older format in place (in one transaction: a
    /// crash leaves the old store or the new one). A program that only reads passes `false`,
    /// so that reading never changes a store: an older store is then refused with
    /// `AccountError.storeUpgradeNeeded`, unchanged.
    public var upgradesFormat = true
    /// Describes files of the other backends the program offers (set by ``BackendRegistry``).
    /// Not part of equality: two configurations of one store are equal whoever opens them.
    public var recognizer: StoreRecognizer

    /// Creates a configuration.
    public init(
        location: String, values: [String: BackendOptionValue] = [:], createIfMissing: Bool = true,
        recognizer: StoreRecognizer = .none
    ) {
        self.location = location
        self.values = values
        self.createIfMissing = createIfMissing
        self.recognizer = recognizer
    }

    /// For a file backend, ``location`` with a symbolic link in its last component followed to
    /// the file it names, even one not created yet (and links to links, relative or absolute).
    ///
    /// Open, create and replace the store at this path, and keep its lock and journal files
    /// beside it. A store kept on another volume and reached through a link then stays one
    /// store: creating or renaming a file at the link itself would replace the link and leave
    /// the store it named behind, out of date. The conformance suite checks this.
    public var locationFollowingLinks: String { StorePath.followingLinks(location) }

    /// The value of `setting`, or its default when it is not configured.
    /// - Throws: `AccountError.configInvalid` naming the key when the configured value does not
    ///   fit the setting.
    public func value<Value>(of setting: BackendSetting<Value>) throws(AccountError) -> Value {
        try setting.value(in: values)
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.location == rhs.location && lhs.values == rhs.values && lhs.createIfMissing == rhs.createIfMissing
            && lhs.upgradesFormat == rhs.upgradesFormat
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(location)
        hasher.combine(values)
    }
}
