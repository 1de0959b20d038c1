import AccountConformance
import AccountCore

/// Everything the rest of the program knows about one backend: its name, its settings, and how
/// to open (or plant) a store. Adding a backend is one module plus one descriptor in the registry.
public struct BackendDescriptor: Sendable, CustomStringConvertible {
    /// Where a backend's stores live, which decides the store setting's key and meaning.
    public enum StoreLocation: Sendable, Hashable {
        /// A file (or folder) at a path: the `path` key; `--store` is a path.
        case file(defaultName: String)
        /// A named place on a server (a PostgreSQL schema): the `schema` key; `--store` is a name.
        case schema(defaultName: String)
    }

    /// The name used by `--backend` and the `backend:` key, and the config section's name.
    public let name: String
    /// One line saying what it is and when to choose it.
    public let summary: String
    /// Where its stores live, and the default.
    public let storeLocation: StoreLocation
    /// The section's settings besides the store's location.
    public let options: [BackendOption]
    /// The format version this build writes.
    public let formatVersion: Int
    /// Opens the store, creating an empty one when none exists.
    public let open: @Sendable (BackendConfiguration) async throws -> any UserRepository
    /// Creates an empty store stamped with a format version (for the conformance suite).
    public let plantStore: @Sendable (_ configuration: BackendConfiguration, _ formatVersion: Int) async throws -> Void
    /// Checks the engine's own consistency of an open store: `["ok"]`, or the problems found.
    public let integrityCheck: @Sendable (any UserRepository) async throws -> [String]
    /// How the conformance suite maps a scratch path to a store location, and its fixtures;
    /// `nil` for a file backend (the path is the location; files are planted there).
    public let scratch: ScratchSpace?

    /// A server backend's scratch space for the conformance suite.
    public struct ScratchSpace: Sendable {
        /// The store location for a path inside a scratch folder.
        public let location: @Sendable (_ path: String) -> String
        /// The fixtures, given the section's settings (how to reach the server).
        public let fixtures: @Sendable (_ values: [String: BackendOptionValue]) -> StoreFixtures

        /// Describes a scratch space.
        public init(
            location: @escaping @Sendable (_ path: String) -> String,
            fixtures: @escaping @Sendable (_ values: [String: BackendOptionValue]) -> StoreFixtures
        ) {
            self.location = location
            self.fixtures = fixtures
        }
    }

    /// Describes a backend.
    public init(
        name: String,
        summary: String,
        storeLocation: StoreLocation,
        options: [BackendOption],
        formatVersion: Int,
        open: @escaping @Sendable (BackendConfiguration) async throws -> any UserRepository,
        plantStore:
            @escaping @Sendable (_ configuration: BackendConfiguration, _ formatVersion: Int) async throws ->
            Void,
        integrityCheck: @escaping @Sendable (any UserRepository) async throws -> [String],
        scratch: ScratchSpace? = nil
    ) {
        self.name = name
        self.summary = summary
        self.storeLocation = storeLocation
        self.options = options
        self.formatVersion = formatVersion
        self.open = open
        self.plantStore = plantStore
        self.integrityCheck = integrityCheck
        self.scratch = scratch
    }

    /// The default store: a file name inside the data folder, or a schema's name.
    public var defaultStoreFileName: String {
        switch storeLocation {
        case .file(let name), .schema(let name): name
        }
    }

    /// Whether the store is a file at a path (as opposed to a place on a server).
    public var storesInFiles: Bool {
        if case .file = storeLocation { return true }
        return false
    }

    /// The config key (inside the section) that says where the store is.
    public var storeKey: String { storesInFiles ? "path" : "schema" }

    /// Every option's default, keyed by name (options without a default are absent).
    public var defaultValues: [String: BackendOptionValue] {
        var values: [String: BackendOptionValue] = [:]
        for option in options { values[option.name] = option.defaultValue }
        return values
    }

    /// The backend as the conformance suite drives it, with default settings.
    public var conformanceSubject: ConformanceSubject { conformanceSubject(values: defaultValues) }

    /// The backend as the conformance suite drives it: scratch stores opened with `values`.
    public func conformanceSubject(values: [String: BackendOptionValue]) -> ConformanceSubject {
        let open = self.open
        let plantStore = self.plantStore
        let location: @Sendable (String) -> String
        if let scratch { location = scratch.location } else { location = { path in path } }
        return ConformanceSubject(
            backendName: name, storeFileName: defaultStoreFileName, currentFormatVersion: formatVersion,
            open: { path in try await open(BackendConfiguration(storePath: location(path), values: values)) },
            plantStore: { path, version in
                try await plantStore(BackendConfiguration(storePath: location(path), values: values), version)
            },
            fixtures: scratch?.fixtures(values))
    }

    public var description: String { name }
}
