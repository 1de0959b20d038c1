public import AccountBackendKit
public import AccountConformance
import JournalBackend

// snippet.fixtures
/// What the conformance suite needs beyond the contract: a journal of any format version to
/// plant, and a sample journal for the other backends to recognise and refuse. A target of its
/// own, so that a program that embeds the journal never links the suite.
public struct JournalFixtures: BackendFixtures {
    /// The fixtures.
    public init() {}

    public var backendName: String { JournalBackendDescriptor().name }

    public func plantStore(_ configuration: BackendConfiguration, formatVersion: Int) async throws {
        try JournalFile.create(
            at: configuration.location,
            header: JournalHeader(format: JournalHeader.formatName, formatVersion: formatVersion, storeID: "planted"))
    }

    public var foreignStoreSamples: [ForeignStoreSample] {
        [
            ForeignStoreSample(
                label: "an AccountStore journal", name: "journal",
                bytes: JournalCodec.encode(
                    JournalHeader(format: JournalHeader.formatName, formatVersion: 1, storeID: "sample")) + [0x0A])
        ]
    }
}
// snippet.end
