import AccountBackendKit
import AccountConformance
import AccountCore
import AccountTestSupport
import BackendTestSupport
import Foundation
import StandardBackends
import Testing

/// Stores written by earlier builds, committed as fixtures, must open and read back exactly:
/// a future format has something real to migrate from.
@Suite("Format fixtures")
struct FormatFixtureTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// The committed fixture of each backend's format version 1.
    static func fixturePath(_ backend: any BackendDescriptor) -> String {
        fixtures.appendingPathComponent("\(backend.name)-v1-\(backend.defaultStoreName)").path
    }

    @Test(
        "a committed v1 store opens and reads back the reference data", arguments: BackendRegistry.embedded.descriptors)
    func v1StoreReads(_ backend: any BackendDescriptor) async throws {
        let scratch = try ScratchFolder("fixture-\(backend.name)")
        let copy = scratch.path + "/" + backend.defaultStoreName
        // Work on a copy: opening may migrate, and WAL mode writes beside the file.
        try FileManager.default.copyItem(atPath: Self.fixturePath(backend), toPath: copy)
        let store = try await BackendRegistry.standard.open(
            backend, BackendConfiguration(location: copy, values: backend.defaultValues))
        try await ReferenceData.verify(store)
        let info = try await store.storeInfo()
        #expect(info.formatVersion == backend.formatVersion)
        #expect(!info.storeID.isEmpty)
        #expect(try await store.integrityCheck() == ["ok"])
        try await store.close()
    }

    /// The JSON store keeps records read from the file unencoded until a write needs them; the
    /// first write encodes them all, and must give back exactly the bytes an earlier build wrote.
    @Test("a JSON store rewritten after a change and its undo is the committed file, byte for byte")
    func jsonRewriteIsByteExact() async throws {
        let backend = try BackendRegistry.standard.descriptor(named: "json")
        let scratch = try ScratchFolder("fixture-json-rewrite")
        let copy = scratch.path + "/" + backend.defaultStoreName
        try FileManager.default.copyItem(atPath: Self.fixturePath(backend), toPath: copy)
        let original = try Data(contentsOf: URL(fileURLWithPath: copy))
        let store = try await BackendRegistry.standard.open(
            backend, BackendConfiguration(location: copy, values: backend.defaultValues))
        let user = try #require(try await store.user(email: "user0000001@example.com"))
        #expect(user.failedLoginCount == 0 && user.lastFailedLoginAt == nil)
        _ = try await store.recordLoginFailure(userID: user.id, at: Timestamp(millisecondsSince1970: 1_800_000_000_000))
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy)) != original, "the failure was written")
        try await store.resetLoginFailures(userID: user.id)
        try await store.close()
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy)) == original)
    }

    @Test(
        "write the fixtures of new backends",
        .enabled(
            if: ProcessInfo.processInfo.environment["ACCOUNTS_REGENERATE_FIXTURES"] == "1",
            "writes missing files in Tests/BackendTests/Fixtures; run with ACCOUNTS_REGENERATE_FIXTURES=1 when adding a backend"
        ),
        arguments: BackendRegistry.embedded.descriptors)
    func regenerate(_ backend: any BackendDescriptor) async throws {
        let path = Self.fixturePath(backend)
        // A committed fixture is what an older build wrote: never overwrite it.
        guard !FileManager.default.fileExists(atPath: path) else { return }
        let store = try await BackendRegistry.standard.open(
            backend, BackendConfiguration(location: path, values: backend.defaultValues))
        try await ReferenceData.populate(store)
        try await store.close()
    }
}
