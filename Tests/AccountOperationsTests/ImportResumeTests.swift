import AccountCore
import AccountOperations
import AccountTestSupport
import Foundation
import MemoryBackend
import Synchronization
import Testing

/// An import stopped between saving its checkpoint and reserving the file's numbers (a crash
/// there, as the fault sweep's SIGKILL found) goes on when run again, every user stored.
@Suite("Import resume")
struct ImportResumeTests {
    struct Stopped: Error {}

    static func user(_ n: Int) -> UserRecord {
        UserRecord(
            id: UserID(rawValue: String(format: "%032x", n)), email: String(format: "member%05d@example.com", n),
            nickname: "member\(n)", passwordHash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo",
            createdAt: Timestamp(millisecondsSince1970: Int64(n)))
    }

    /// Writes the export of a store of `count` users (numbered 1…count) to `path`.
    static func export(users count: Int, to path: String) async throws -> String {
        let source = MemoryUserRepository()
        _ = try await source.createUsers((1...count).map(Self.user), sessions: [])
        var lines: [String] = []
        _ = try await StoreExporter.export(
            source, sourceBackend: "memory", withSessions: false, now: Timestamp(millisecondsSince1970: 0)
        ) { lines.append($0) }
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("a run stopped after its checkpoint, before raising the highest number, resumes across batches")
    func resumeAfterCheckpoint() async throws {
        let scratch = try ScratchFolder("import-resume")
        // A file of 2,500 users numbered 1…2,500, for a store whose two users hold 1 and 2.
        let path = try await Self.export(users: 2_500, to: scratch.path + "/users.jsonl")
        let target = MemoryUserRepository()
        _ = try await target.createUsers([Self.user(10_001), Self.user(10_002)], sessions: [])
        let file = try StoreImporter.validate(path)
        // The first run stops right after its checkpoint is saved.
        let stopping = ObservedRepository(target) { call in if call == "raiseLastUserNumber" { throw Stopped() } }
        await #expect(throws: Stopped.self) {
            _ = try await StoreImporter.importFile(file, into: stopping, merge: true)
        }
        let report = try await StoreImporter.importFile(file, into: target, merge: true)
        #expect(report.resumed)
        #expect(try await target.userCount() == 2_502)
        #expect(try await target.lastUserNumber() >= 2_500)
    }

    @Test("a failure at the very end, every user stored, says so and how to finish")
    func failureAfterTheLastBatch() async throws {
        let scratch = try ScratchFolder("import-finish")
        let path = try await Self.export(users: 20, to: scratch.path + "/users.jsonl")
        let target = MemoryUserRepository()
        let writes = Mutex(0)
        // The checkpoint's first write passes; the import's last one (clearing it) fails.
        let failing = ObservedRepository(target) { call in
            guard call == "setStoreValue" else { return }
            if writes.withLock({ count -> Int in
                count += 1
                return count
            }) >= 2 {
                throw AccountError.storeIO(detail: "fsync: Input/output error")
            }
        }
        let file = try StoreImporter.validate(path)
        let error = await accountError { _ = try await StoreImporter.importFile(file, into: failing, merge: false) }
        #expect(
            error?.message(.english).contains("20 users and 0 sessions had been imported") == true,
            "\(String(describing: error))")
        #expect(try await target.userCount() == 20)
        let again = try await StoreImporter.importFile(file, into: target, merge: false)
        #expect(again.resumed && again.alreadyImported == 20)
    }
}
