public import AccountBackendKit
public import AccountConformance
import LMDBBackend

/// What the conformance suite plants for the LMDB backend: environments of any format version,
/// and a meta page for the other backends to refuse.
public struct LMDBFixtures: BackendFixtures {
    /// The fixtures.
    public init() {}

    public var backendName: String { LMDBBackendDescriptor().name }

    public func plantStore(_ configuration: BackendConfiguration, formatVersion: Int) async throws {
        try LMDBRepository.plantEmptyStore(at: configuration.location, formatVersion: formatVersion)
    }

    public var foreignStoreSamples: [ForeignStoreSample] {
        [
            ForeignStoreSample(
                label: "an LMDB environment", name: "lmdb",
                bytes: Array(repeating: 0, count: 16) + LMDBBackendDescriptor.magic + Array(repeating: 0, count: 4076))
        ]
    }
}
