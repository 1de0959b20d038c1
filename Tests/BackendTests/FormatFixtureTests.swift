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

    /// The committed fixture of each backend's format `version` (this build's by default).
    static func fixturePath(_ backend: any BackendDescriptor, version: Int? = nil) -> String {
        fixtures.appendingPathComponent(
            "\(backend.name)-v\(version ?? backend.formatVersion)-\(backend.defaultStoreName)"
        ).path
    }

    @Test(
        "a committed store of this build's format opens and reads back the reference data",
        arguments: BackendRegistry.embedded.descriptors)
    func currentStoreReads(_ backend: any BackendDescriptor) async throws {
        let scratch = try ScratchFolder("fixture-\(backend.name)")
        let copy = scratch.path + "/" + backend.defaultStoreName
        // Work on a copy: WAL mode writes beside the file.
        try FileManager.default.copyItem(atPath: Self.fixturePath(backend), toPath: copy)
        let store = try await BackendRegistry.standard.open(
            backend, BackendConfiguration(location: copy, values: backend.defaultValues))
        try await ReferenceData.verify(store, holding: Self.numberedInCreationOrder(ReferenceData.users))
        let info = try await store.storeInfo()
        #expect(info.formatVersion == backend.formatVersion)
        #expect(!info.storeID.isEmpty)
        #expect(try await store.integrityCheck() == ["ok"])
        try await store.close()
    }

    /// The committed fixtures of formats older than this build's.
    static let olderVersions = [1, 2, 3, 4]

    @Test(
        "a committed older store is upgraded by a writer: every record kept, users numbered in creation order, what it lacked at its defaults",
        arguments: BackendRegistry.embedded.descriptors, olderVersions)
    func olderStoreUpgrades(_ backend: any BackendDescriptor, version: Int) async throws {
        let scratch = try ScratchFolder("fixture-v\(version)-\(backend.name)")
        let copy = scratch.path + "/" + backend.defaultStoreName
        try FileManager.default.copyItem(atPath: Self.fixturePath(backend, version: version), toPath: copy)
        let store = try await BackendRegistry.standard.open(
            backend, BackendConfiguration(location: copy, values: backend.defaultValues))
        let info = try await store.storeInfo()
        #expect(info.formatVersion == backend.formatVersion)
        try await ReferenceData.verify(
            store, holding: Self.numberedInCreationOrder(ReferenceData.users), namingDevices: version >= 3,
            keepingState: version >= 4, flows: .none)
        #expect(try await store.integrityCheck() == ["ok"])
        // Numbering goes on after the upgraded users, and the upgrade kept the store's id.
        let next = try await store.createUser(
            UserRecord(
                id: UserID(rawValue: String(repeating: "f", count: 32)), email: "after-upgrade@example.com",
                nickname: "after", passwordHash: "$argon2id$x", createdAt: Timestamp(millisecondsSince1970: 0)),
            initialSession: nil)
        #expect(next == ReferenceData.users.count + 1)
        try await store.close()
        let reopened = try await BackendRegistry.standard.open(
            backend, BackendConfiguration(location: copy, values: backend.defaultValues))
        #expect(try await reopened.storeInfo() == info, "a second open upgraded again")
        try await reopened.close()
    }

    @Test(
        "a program that only reads refuses an older store with store_upgrade_needed and changes no byte",
        arguments: BackendRegistry.embedded.descriptors, olderVersions)
    func olderStoreRefusedToReaders(_ backend: any BackendDescriptor, version: Int) async throws {
        let scratch = try ScratchFolder("fixture-v\(version)-read-\(backend.name)")
        let folder = scratch.path + "/store"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let copy = folder + "/" + backend.defaultStoreName
        try FileManager.default.copyItem(atPath: Self.fixturePath(backend, version: version), toPath: copy)
        let before = try Self.contents(of: folder)
        var configuration = BackendConfiguration(location: copy, values: backend.defaultValues, createIfMissing: false)
        configuration.upgradesFormat = false
        await #expect(throws: AccountError.storeUpgradeNeeded(found: version, current: backend.formatVersion)) {
            _ = try await BackendRegistry.standard.open(backend, configuration)
        }
        #expect(try Self.contents(of: folder) == before, "the refused open changed the folder")
    }

    /// Every file in `folder` by name, with its bytes.
    static func contents(of folder: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            files[name] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
        }
        return files
    }

    /// `users` with the numbers an upgrade gives: 1, 2, … in creation order, ties by id.
    static func numberedInCreationOrder(_ users: [UserRecord]) -> [UserRecord] {
        let order = users.sorted { ($0.createdAt, $0.id.rawValue) < ($1.createdAt, $1.id.rawValue) }.map(\.id)
        return users.map { user in
            var numbered = user
            numbered.number = (order.firstIndex(of: user.id) ?? -1) + 1
            return numbered
        }
    }

    /// The JSON store keeps records read from the file unencoded until a write needs them; the
    /// first write encodes them all, and must give back exactly the bytes an earlier build wrote
    /// (in this build's format).
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
