import AccountCore

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

    /// The value of `setting`, or its default when it is not configured.
    /// - Throws: `AccountError.configInvalid` naming the key when the configured value does not
    ///   fit the setting.
    public func value<Value>(of setting: BackendSetting<Value>) throws(AccountError) -> Value {
        try setting.value(in: values)
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.location == rhs.location && lhs.values == rhs.values && lhs.createIfMissing == rhs.createIfMissing
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(location)
        hasher.combine(values)
    }
}
