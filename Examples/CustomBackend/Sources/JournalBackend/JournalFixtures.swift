import AccountBackendKit
import AccountConformance

// snippet.fixtures
/// What the conformance suite needs beyond the contract: a journal of any format version to
/// plant, and a sample journal for the other backends to recognise and refuse.
extension JournalBackendDescriptor: BackendFixtures {
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
