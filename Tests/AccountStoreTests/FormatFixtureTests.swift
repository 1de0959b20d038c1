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
        "a committed v1 store opens and reads back the reference data", arguments: BackendRegistry.standard.descriptors)
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
        "regenerate the committed fixtures",
        .enabled(
            if: ProcessInfo.processInfo.environment["ACCOUNTS_REGENERATE_FIXTURES"] == "1",
            "writes Tests/AccountStoreTests/Fixtures; run only with ACCOUNTS_REGENERATE_FIXTURES=1 when adding a format"
        ),
        arguments: BackendRegistry.standard.descriptors)
    func regenerate(_ backend: BackendDescriptor) async throws {
        let path = Self.fixturePath(backend)
        try? FileManager.default.removeItem(atPath: path)
        let store = try await backend.open(BackendConfiguration(storePath: path, values: backend.defaultValues))
        try await ReferenceData.populate(store)
        try await store.close()
    }
}
