public import AccountCore

/// A storage backend: everything the program (the CLI, the settings, the conformance suite)
/// needs from it. Each backend module exports one conforming type; a ``BackendRegistry`` lists
/// the ones a program offers.
///
/// Conform with a small `struct`: the requirements below are the whole contract besides
/// `UserRepository` itself. Only `AccountError` is ever thrown.
public protocol BackendDescriptor: Sendable, CustomStringConvertible {
    /// The name used by `--backend` and the `backend:` key, and the config section's name:
    /// lowercase letters, digits and `_`.
    var name: String { get }

    /// One line saying what it is and when to choose it (`accounts backends` prints it).
    var summary: String { get }

    /// The summary in `language`; by default the English ``summary``.
    func summary(in language: Language) -> String

    /// Where its stores live: a file at a path, or a named place on a server.
    var storeLocation: StoreLocation { get }

    /// The section's settings besides the store's location, each with its default.
    var options: [BackendOption] { get }

    /// The format version this build writes.
    var formatVersion: Int { get }

    /// What the backend guarantees. The conformance suite runs each check whose capabilities
    /// are declared here and reports every other check as skipped, naming what is missing.
    var capabilities: BackendCapabilities { get }

    /// Opens the store at `configuration.location`, creating an empty one when none exists and
    /// `configuration.createIfMissing` is set.
    /// - Throws: `AccountError`: `storeNotFound` naming the location when there is no store and
    ///   `createIfMissing` is off (nothing is created, not even a lock file); `storeIO` when the
    ///   location cannot be reached or written;
    ///   `storeKindMismatch`, `storeVersionUnsupported` or `storeCorrupted` for something that is
    ///   not a readable store of this backend and format (left exactly as it was); `configInvalid`
    ///   for a setting the backend cannot use.
    func open(_ configuration: BackendConfiguration) async throws -> any UserRepository

    /// Checks `configuration` as ``open(_:)`` would before reaching the store — settings it
    /// reads, combinations it refuses, files it needs (a password file's mode) — without
    /// connecting, opening or creating anything. `accounts config` runs it on the chosen
    /// backend, so a section `open` would refuse is reported before a deploy. By default it
    /// checks nothing beyond what the settings loader checked.
    /// - Throws: `AccountError.configInvalid` naming the setting and why.
    func validate(_ configuration: BackendConfiguration) throws(AccountError)

    /// What a file starting with `fileHeader` (its first 64 bytes or fewer) is, when it was
    /// written by this backend's engine: a phrase such as "a SQLite database"; `nil` otherwise.
    /// Other backends use it to refuse this backend's files with `storeKindMismatch` rather than
    /// calling them damaged. Must not throw and must be cheap.
    func recognize(fileHeader: [UInt8]) -> String?
}

extension BackendDescriptor {
    public var description: String { name }

    public func summary(in language: Language) -> String { summary }

    public func validate(_ configuration: BackendConfiguration) throws(AccountError) {}

    public func recognize(fileHeader: [UInt8]) -> String? { nil }

    /// The default store: a file name inside the data folder, or a place's name.
    public var defaultStoreName: String { storeLocation.defaultName }

    /// Whether the store is a file at a path (as opposed to a place on a server).
    public var storesInFiles: Bool { storeLocation.isFile }

    /// The config key (inside the section) that says where the store is.
    public var storeKey: String { storeLocation.key }

    /// Every option's default, keyed by name (options without a default are absent).
    public var defaultValues: [String: BackendOptionValue] {
        var values: [String: BackendOptionValue] = [:]
        for option in options { values[option.name] = option.defaultValue }
        return values
    }
}

/// Where a backend's stores live, which decides the store setting's key and meaning.
public enum StoreLocation: Sendable, Hashable {
    /// A file (or folder) at a path: the `path` key; `--store` is a path, resolved like any path.
    case file(defaultName: String)
    /// A named place on a server (PostgreSQL: a schema): `key` names the setting; `--store` is
    /// the place's name, taken as it is.
    case named(key: String, defaultName: String)

    /// The default file name or place name.
    public var defaultName: String {
        switch self {
        case .file(let name), .named(_, let name): name
        }
    }

    /// The config key inside the backend's section.
    public var key: String {
        switch self {
        case .file: "path"
        case .named(let key, _): key
        }
    }

    /// Whether stores are files.
    public var isFile: Bool {
        if case .file = self { return true }
        return false
    }
}
