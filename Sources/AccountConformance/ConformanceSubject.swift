public import AccountBackendKit
public import AccountCore

/// A backend as the conformance suite drives it: the descriptor, its fixtures, the settings its
/// scratch stores are opened with, and the registry it is used in (whose other backends' stores
/// it must recognise and refuse).
public struct ConformanceSubject: Sendable, CustomStringConvertible {
    /// The backend under test.
    public let backend: any BackendDescriptor
    /// What the suite plants for it (`nil`: a backend without fixtures, whose stores are files).
    public let backendFixtures: (any BackendFixtures)?
    /// The section's settings for scratch stores (how to reach a server, sync modes).
    public let values: [String: BackendOptionValue]
    /// The backends of the program: their files are planted as foreign stores.
    public let registry: BackendRegistry
    /// Foreign and damaged stores, and snapshots of a check's scratch space.
    public let storeFixtures: StoreFixtures
    /// How to reach a store from other processes; the multi-process checks fail without it
    /// (for a backend that declares `multiProcess`).
    public let processes: ConformanceProcesses?

    /// Describes a backend for the suite.
    /// - Parameters:
    ///   - backend: the backend under test (it need not be in `registry`).
    ///   - fixtures: the fixtures of `backend` and of the registry's backends (the samples of
    ///     their files are planted as foreign stores).
    ///   - values: its settings; by default every option's default.
    ///   - registry: the program's backends, whose stores `backend` must refuse.
    ///   - processes: how to open a store from other processes (needed by a `multiProcess` backend).
    public init(
        _ backend: any BackendDescriptor, fixtures: BackendFixtureSet, values: [String: BackendOptionValue]? = nil,
        registry: BackendRegistry, processes: ConformanceProcesses? = nil
    ) {
        let values = values ?? backend.defaultValues
        let own = fixtures.fixtures(for: backend.name)
        self.processes = processes
        self.backend = backend
        backendFixtures = own
        self.values = values
        self.registry = registry
        storeFixtures =
            own?.storeFixtures(values: values)
            ?? .files(samples: fixtures.foreignStoreSamples(in: registry, except: backend.name))
    }

    /// The backend's registry name (`json`, `sqlite`, …).
    public var backendName: String { backend.name }
    /// The store's file name inside a scratch folder.
    public var storeFileName: String { backend.defaultStoreName }
    /// The format version the backend writes.
    public var currentFormatVersion: Int { backend.formatVersion }

    /// The configuration of the scratch store at `path`.
    public func configuration(at path: String, createIfMissing: Bool = true) -> BackendConfiguration {
        BackendConfiguration(
            location: backendFixtures?.scratchLocation(for: path) ?? path, values: values,
            createIfMissing: createIfMissing,
            recognizer: registry.recognizer)
    }

    /// Opens the store at a scratch path, creating an empty one when none exists unless
    /// `createIfMissing` is off.
    public func open(_ path: String, createIfMissing: Bool = true) async throws -> any UserRepository {
        try await backend.open(configuration(at: path, createIfMissing: createIfMissing))
    }

    /// Plants an empty store of this backend at a scratch path, stamped with `formatVersion`.
    /// - Throws: `storeIO` saying so when the backend was given no ``BackendFixtures``.
    public func plantStore(_ path: String, _ formatVersion: Int) async throws {
        guard let fixtures = backendFixtures else {
            throw AccountError.storeIO(
                detail: "the suite was given no fixtures of the \(backend.name) backend, so it cannot plant its stores")
        }
        try await fixtures.plantStore(configuration(at: path), formatVersion: formatVersion)
    }

    /// The capabilities a check needs that the backend does not declare.
    public func missingCapabilities(for check: ConformanceCheck) -> BackendCapabilities {
        check.requires.subtracting(backend.capabilities)
    }

    /// Why the backend cannot run `check`, or `nil` when it can.
    public func skip(for check: ConformanceCheck) -> ConformanceSkipped? {
        let missing = missingCapabilities(for: check)
        let storesNotInFiles = check.needsStoreFiles && !backend.storesInFiles
        let cannotCutOff = check.needsCutOff && storeFixtures.cutOff == nil
        guard !missing.isEmpty || storesNotInFiles || cannotCutOff else { return nil }
        return ConformanceSkipped(missing: missing, storesNotInFiles: storesNotInFiles, cannotCutOff: cannotCutOff)
    }

    public var description: String { backendName }
}
