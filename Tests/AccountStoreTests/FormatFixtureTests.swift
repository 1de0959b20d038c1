import AccountConformance
import BackendRegistry
import Foundation
import Testing

/// Stores written by earlier builds, committed as fixtures, must open and read back exactly:
/// a future format has something real to migrate from.
@Suite("Format fixtures")
struct FormatFixtureTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// The committed fixture of each backend's format version 1.
    static func fixturePath(_ backend: BackendDescriptor) -> String {
        fixtures.appendingPathComponent("\(backend.name)-v1-\(backend.defaultStoreFileName)").path
    }

    @Test(
        "a committed v1 store opens and reads back the reference data", arguments: BackendRegistry.embedded.descriptors)
    func v1StoreReads(_ backend: BackendDescriptor) async throws {
        let scratch = try ScratchFolder("fixture-\(backend.name)")
        let copy = scratch.path + "/" + backend.defaultStoreFileName
        // Work on a copy: opening may migrate, and WAL mode writes beside the file.
        try FileManager.default.copyItem(atPath: Self.fixturePath(backend), toPath: copy)
        let store = try await backend.open(BackendConfiguration(storePath: copy, values: backend.defaultValues))
        try await ReferenceData.verify(store)
        let info = try await store.storeInfo()
        #expect(info.formatVersion == backend.formatVersion)
        #expect(!info.storeID.isEmpty)
        #expect(try await backend.integrityCheck(store) == ["ok"])
        try await store.close()
    }

    @Test(
        "write the fixtures of new backends",
        .enabled(
            if: ProcessInfo.processInfo.environment["ACCOUNTS_REGENERATE_FIXTURES"] == "1",
            "writes missing files in Tests/AccountStoreTests/Fixtures; run with ACCOUNTS_REGENERATE_FIXTURES=1 when adding a backend"
        ),
        arguments: BackendRegistry.embedded.descriptors)
    func regenerate(_ backend: BackendDescriptor) async throws {
        let path = Self.fixturePath(backend)
        // A committed fixture is what an older build wrote: never overwrite it.
        guard !FileManager.default.fileExists(atPath: path) else { return }
        let store = try await backend.open(BackendConfiguration(storePath: path, values: backend.defaultValues))
        try await ReferenceData.populate(store)
        try await store.close()
    }
}
