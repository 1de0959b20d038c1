import AccountConformance
import AccountCore

/// Everything the rest of the program knows about one backend: its name, its settings, and how
/// to open (or plant) a store. Adding a backend is one module plus one descriptor in the registry.
public struct BackendDescriptor: Sendable, CustomStringConvertible {
    /// The name used by `--backend` and the `backend:` key, and the config section's name.
    public let name: String
    /// One line saying what it is and when to choose it.
    public let summary: String
    /// The store's file name when no path is configured.
    public let defaultStoreFileName: String
    /// The section's settings besides `path`.
    public let options: [BackendOption]
    /// The format version this build writes.
    public let formatVersion: Int
    /// Opens the store, creating an empty one when none exists.
    public let open: @Sendable (BackendConfiguration) async throws -> any UserRepository
    /// Writes an empty store stamped with a format version (for the conformance suite).
    public let plantStore: @Sendable (_ path: String, _ formatVersion: Int) throws -> Void
    /// Checks the engine's own consistency of an open store: `["ok"]`, or the problems found.
    public let integrityCheck: @Sendable (any UserRepository) async throws -> [String]

    /// Describes a backend.
    public init(
        name: String,
        summary: String,
        defaultStoreFileName: String,
        options: [BackendOption],
        formatVersion: Int,
        open: @escaping @Sendable (BackendConfiguration) async throws -> any UserRepository,
        plantStore: @escaping @Sendable (_ path: String, _ formatVersion: Int) throws -> Void,
        integrityCheck: @escaping @Sendable (any UserRepository) async throws -> [String]
    ) {
        self.name = name
        self.summary = summary
        self.defaultStoreFileName = defaultStoreFileName
        self.options = options
        self.formatVersion = formatVersion
        self.open = open
        self.plantStore = plantStore
        self.integrityCheck = integrityCheck
    }

    /// Every option's default, keyed by name.
    public var defaultValues: [String: BackendOptionValue] {
        Dictionary(uniqueKeysWithValues: options.map { ($0.name, $0.defaultValue) })
    }

    /// The backend as the conformance suite drives it: default settings, any path.
    public var conformanceSubject: ConformanceSubject {
        let defaults = defaultValues
        let open = self.open
        return ConformanceSubject(
            backendName: name, storeFileName: defaultStoreFileName, currentFormatVersion: formatVersion,
            open: { path in try await open(BackendConfiguration(storePath: path, values: defaults)) },
            plantStore: plantStore)
    }

    public var description: String { name }
}
