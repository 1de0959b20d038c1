public import AccountBackendKit
public import AccountConformance
import JSONFileBackend

/// What the conformance suite plants for the JSON-file backend: stores of any format version, a
/// store for the other backends to refuse, and a JSON document of another program (which no
/// backend may take for a store of its own).
public struct JSONFileFixtures: BackendFixtures {
    /// The fixtures.
    public init() {}

    public var backendName: String { JSONFileBackendDescriptor().name }

    public func plantStore(_ configuration: BackendConfiguration, formatVersion: Int) async throws {
        try JSONFileRepository.plantEmptyStore(at: configuration.location, formatVersion: formatVersion)
    }

    public var foreignStoreSamples: [ForeignStoreSample] {
        [
            ForeignStoreSample(
                label: "an AccountStore JSON store", name: "json",
                bytes: Array(
                    #"{"format":"accountstore-json","format_version":1,"store_id":"x","created_at_ms":0,"users":[],"sessions":[]}"#
                        .utf8)),
            ForeignStoreSample(
                label: "a JSON document of another program", name: "other-json",
                bytes: Array(#"{"name":"not a store","items":[1,2,3]}"#.utf8)),
        ]
    }
}
