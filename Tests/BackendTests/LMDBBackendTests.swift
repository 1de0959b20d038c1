import AccountCore
import AccountTestSupport
import BackendTestSupport
import CLMDB
import Foundation
import Testing

@testable import LMDBBackend

@Suite("LMDB backend")
struct LMDBBackendTests {
    /// The fault sweep found it: a failed write of the meta page at the end of a migration was
    /// reported as a corrupt store, though the file kept its last transaction.
    @Test("MDB_PANIC, LMDB's answer after a failed write in this process, is store_io, not store_corrupted")
    func panicIsIO() {
        let error = LMDBFailure.error(MDB_PANIC, "begin", path: "/tmp/x.lmdb")
        #expect(error.code == "store_io")
        #expect(LMDBFailure.error(MDB_CORRUPTED, "get", path: "/tmp/x.lmdb").code == "store_corrupted")
    }

    func user(_ n: Int) -> UserRecord {
        UserRecord(
            id: UserID(rawValue: String(format: "%032x", n)), email: "user\(String(format: "%07d", n))@example.com",
            nickname: "nïck\(n)", passwordHash: String(repeating: "h", count: 97),
            createdAt: Timestamp(millisecondsSince1970: Int64(n)))
    }

    @Test("a write that fills the map grows it and loses nothing")
    func mapGrows() async throws {
        let scratch = try ScratchFolder("lmdb-grow")
        let store = try await LMDBRepository.open(
            LMDBOptions(path: scratch.path + "/a.lmdb", sync: .none, mapSizeMiB: 1))
        let initial = await store.mapSize()
        for n in 0..<6_000 { try await store.createUser(user(n), initialSession: nil) }
        #expect(await store.mapSize() > initial, "the map grew")
        #expect(try await store.userCount() == 6_000)
        #expect(try await store.user(email: user(5_999).email)?.unnumbered == user(5_999))
        #expect(try await store.integrityCheck() == ["ok"])
        try await store.close()
        let reopened = try await LMDBRepository.open(LMDBOptions(path: scratch.path + "/a.lmdb", mapSizeMiB: 1))
        #expect(try await reopened.userCount() == 6_000, "a small configured map does not shrink a grown store")
        try await reopened.close()
    }

    @Test(
        "a million users fit from a 1 MiB initial map",
        .enabled(
            if: ProcessInfo.processInfo.environment["ACCOUNTS_LARGE_TESTS"] == "1",
            "takes about 2.5 minutes in a debug build; run with ACCOUNTS_LARGE_TESTS=1"))
    func millionUsers() async throws {
        let scratch = try ScratchFolder("lmdb-million")
        let store = try await LMDBRepository.open(
            LMDBOptions(path: scratch.path + "/a.lmdb", sync: .none, mapSizeMiB: 1))
        for n in 0..<1_000_000 { try await store.createUser(user(n), initialSession: nil) }
        #expect(try await store.userCount() == 1_000_000)
        #expect(try await store.user(email: user(999_999).email)?.unnumbered == user(999_999))
        #expect(try await store.integrityCheck() == ["ok"])
        try await store.close()
    }

    @Test("opening one path twice in a process shares one environment")
    func sharedEnvironment() async throws {
        let scratch = try ScratchFolder("lmdb-shared")
        let first = try await LMDBRepository.open(LMDBOptions(path: scratch.path + "/a.lmdb"))
        let second = try await LMDBRepository.open(LMDBOptions(path: scratch.path + "/./a.lmdb"))
        let other = try await LMDBRepository.open(LMDBOptions(path: scratch.path + "/b.lmdb"))
        #expect(first.sharesEnvironment(with: second))
        #expect(!first.sharesEnvironment(with: other))
        try await first.close()
        try await second.createUser(user(1), initialSession: nil)
        #expect(try await second.userCount() == 1, "closing one repository leaves the shared environment open")
        try await second.close()
        try await other.close()
    }

    @Test("records round-trip through the codec; damaged ones are store_corrupted")
    func codec() throws {
        var original = user(7)
        original.lastFailedLoginAt = Timestamp(millisecondsSince1970: -3)
        original.failedLoginCount = 4
        original.number = 70
        let bytes = LMDBRecordCodec.encode(original)
        #expect(try LMDBRecordCodec.decodeUser(id: original.id, bytes, path: "p") == original)
        // The nickname's "ï" (C3 AF) with its second byte broken: the lengths still add up.
        let brokenIndex = bytes.firstIndex(of: 0xC3)! + 1
        var notUTF8 = bytes
        notUTF8[brokenIndex] = 0x41
        // A number that is not positive is damage too (a stored user always has one).
        var unnumbered = original
        unnumbered.number = nil
        let numberZero = LMDBRecordCodec.encode(unnumbered)
        for damaged in [Array(bytes.dropLast()), bytes + [0], [4] + bytes.dropFirst(), [], notUTF8, numberZero] {
            #expect(throws: AccountError.self) { try LMDBRecordCodec.decodeUser(id: original.id, damaged, path: "p") }
            let code = (try? LMDBRecordCodec.decodeUser(id: original.id, damaged, path: "p")).map { _ in "ok" }
            #expect(code == nil)
        }
        let session = SessionRecord(
            tokenHash: "t", userID: original.id, createdAt: .init(millisecondsSince1970: 1),
            lastSeenAt: .init(millisecondsSince1970: 2), expiresAt: .init(millisecondsSince1970: 3),
            idleTimeoutSeconds: 4,
            remember: true)
        #expect(
            try LMDBRecordCodec.decodeSession(tokenHash: "t", LMDBRecordCodec.encode(session), path: "p") == session)
        do {
            _ = try LMDBRecordCodec.decodeSession(tokenHash: "t", [1, 0, 0], path: "p")
            Issue.record("a truncated session decoded")
        } catch {
            #expect(error.code == "store_corrupted")
        }
    }
}
