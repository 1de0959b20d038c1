import AccountCore

/// A backend as the conformance suite sees it: how to open a store at a location, how to plant
/// a store of its own kind stamped with another format version, and how to plant and inspect
/// the things that are not its store.
public struct ConformanceSubject: Sendable, CustomStringConvertible {
    /// The backend's registry name (`json`, `sqlite`, …): also the kind of file it writes.
    public let backendName: String
    /// The store's file name inside a scratch folder.
    public let storeFileName: String
    /// Opens the store at a path, creating an empty one when none exists.
    public let open: @Sendable (_ path: String) async throws -> any UserRepository
    /// Writes an empty store of this backend at a path, stamped with the given format version.
    public let plantStore: @Sendable (_ path: String, _ formatVersion: Int) async throws -> Void
    /// The format version the backend writes.
    public let currentFormatVersion: Int
    /// Foreign and damaged stores, and snapshots of a check's scratch space.
    public let fixtures: StoreFixtures

    /// Describes a backend for the suite.
    public init(
        backendName: String,
        storeFileName: String,
        currentFormatVersion: Int,
        open: @escaping @Sendable (_ path: String) async throws -> any UserRepository,
        plantStore: @escaping @Sendable (_ path: String, _ formatVersion: Int) async throws -> Void,
        fixtures: StoreFixtures? = nil
    ) {
        self.backendName = backendName
        self.storeFileName = storeFileName
        self.currentFormatVersion = currentFormatVersion
        self.open = open
        self.plantStore = plantStore
        self.fixtures = fixtures ?? .files(backendName: backendName)
    }

    public var description: String { backendName }
}
