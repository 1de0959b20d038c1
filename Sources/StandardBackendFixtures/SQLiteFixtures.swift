public import AccountBackendKit
public import AccountConformance
import SQLiteBackend

/// What the conformance suite plants for the SQLite backend: stores of any format version, and a
/// database header for the other backends to refuse.
public struct SQLiteFixtures: BackendFixtures {
    /// The fixtures.
    public init() {}

    public var backendName: String { SQLiteBackendDescriptor().name }

    public func plantStore(_ configuration: BackendConfiguration, formatVersion: Int) async throws {
        try SQLiteRepository.plantEmptyStore(at: configuration.location, formatVersion: formatVersion)
    }

    public var foreignStoreSamples: [ForeignStoreSample] {
        [
            ForeignStoreSample(
                label: "a SQLite database", name: "sqlite",
                bytes: SQLiteBackendDescriptor.magic + [0x10, 0x00, 0x01, 0x01] + Array(repeating: 0, count: 4076))
        ]
    }
}
