import AccountCore
import AccountTestSupport
import BackendTestSupport
import CSQLite
import Foundation
import SQLiteBackend
import Testing

@Suite("SQLite backend")
struct SQLiteBackendTests {
    @Test("an open that must migrate while another connection writes waits out the busy timeout, then changes nothing")
    func openWaitsForTheWriteLock() async throws {
        let scratch = try ScratchFolder("sqlite-open-busy")
        let path = scratch.path + "/a.sqlite"
        // A store of format 0: this application's id in SQLite's header, nothing migrated yet.
        var db: OpaquePointer?
        #expect(sqlite3_open(path, &db) == SQLITE_OK)
        #expect(
            sqlite3_exec(db, "PRAGMA application_id = \(0x4143_5354); PRAGMA journal_mode = WAL", nil, nil, nil)
                == SQLITE_OK)
        sqlite3_close(db)
        let holder = try ForeignWriter(backend: "sqlite", storePath: path)
        let timeout = 300
        let started = ContinuousClock.now
        do {
            _ = try await SQLiteRepository.open(SQLiteOptions(path: path, busyTimeoutMilliseconds: timeout))
            Issue.record("the store opened while another connection held its write lock")
        } catch let error as AccountError {
            #expect(error.code == "store_busy", "\(error)")
        }
        // The open tries without waiting first; refused, it must wait for the lock as configured
        // rather than give up at once (a lower bound: a busy machine only makes it longer).
        #expect(ContinuousClock.now - started >= .milliseconds(timeout / 2))
        holder.release()
        #expect(Self.pragma("user_version", of: path) == "0", "the refused open migrated the store")
        let store = try await SQLiteRepository.open(SQLiteOptions(path: path))
        #expect(try await store.userCount() == 0)
        try await store.close()
    }

    @Test("a signed-in lookup reads every field of the session and its user, and no user once it is gone")
    func signedInJoin() async throws {
        let scratch = try ScratchFolder("sqlite-signed-in")
        let path = scratch.path + "/a.sqlite"
        let store = try await SQLiteRepository.open(SQLiteOptions(path: path))
        let user = UserRecord(
            id: UserID(rawValue: String(repeating: "1", count: 32)), email: "leesoon7@example.com", nickname: "이순신",
            passwordHash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA",
            createdAt: Timestamp(millisecondsSince1970: 1_700_000_000_001),
            passwordChangedAt: Timestamp(millisecondsSince1970: 1_700_000_000_002), failedLoginCount: 3,
            lastFailedLoginAt: Timestamp(millisecondsSince1970: 1_700_000_000_003))
        let session = SessionRecord(
            tokenHash: String(repeating: "a", count: 64), userID: user.id,
            createdAt: Timestamp(millisecondsSince1970: 1_700_000_000_004),
            lastSeenAt: Timestamp(millisecondsSince1970: 1_700_000_000_005),
            expiresAt: Timestamp(millisecondsSince1970: 1_800_000_000_006), idleTimeoutSeconds: 7, remember: true)
        try await store.createUser(user, initialSession: session)
        let found = try #require(try await store.signedIn(tokenHash: session.tokenHash))
        #expect(found.session == session)
        #expect(found.user?.unnumbered == user)
        // foreign_keys is off by default on a new connection: plant what a bug or a hand edit would.
        var db: OpaquePointer?
        #expect(sqlite3_open(path, &db) == SQLITE_OK)
        #expect(sqlite3_exec(db, "DELETE FROM users", nil, nil, nil) == SQLITE_OK)
        sqlite3_close(db)
        let orphan = try #require(try await store.signedIn(tokenHash: session.tokenHash))
        #expect(orphan.session == session)
        #expect(orphan.user == nil)
        try await store.close()
    }

    @Test("another application's SQLite database is refused untouched")
    func foreignDatabase() async throws {
        let scratch = try ScratchFolder("sqlite-foreign")
        let path = scratch.path + "/other.db"
        var db: OpaquePointer?
        #expect(sqlite3_open(path, &db) == SQLITE_OK)
        #expect(
            sqlite3_exec(db, "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('keep me')", nil, nil, nil)
                == SQLITE_OK)
        sqlite3_close(db)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        do {
            _ = try await SQLiteRepository.open(SQLiteOptions(path: path))
            Issue.record("a foreign database opened")
        } catch let error as AccountError {
            #expect(error.code == "store_kind_mismatch")
            #expect(error.message(.english).contains("another application"))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["other.db"],
            "nothing written beside it")
    }

    @Test("a new store is stamped, in WAL mode, with foreign keys on, and passes its integrity check")
    func stamp() async throws {
        let scratch = try ScratchFolder("sqlite-stamp")
        let path = scratch.path + "/a.sqlite"
        let store = try await SQLiteRepository.open(SQLiteOptions(path: path))
        #expect(try await store.integrityCheck() == ["ok"])
        #expect(try await store.storeInfo().formatName == "accountstore-sqlite")
        try await store.close()
        #expect(Self.pragma("application_id", of: path) == String(0x4143_5354))
        #expect(Self.pragma("user_version", of: path) == String(SQLiteRepository.formatVersion))
        #expect(Self.pragma("journal_mode", of: path) == "wal")
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test("synchronous=normal and a custom busy timeout are accepted and still pass a round trip")
    func options() async throws {
        let scratch = try ScratchFolder("sqlite-options")
        let store = try await SQLiteRepository.open(
            SQLiteOptions(path: scratch.path + "/a.sqlite", synchronous: .normal, busyTimeoutMilliseconds: 10))
        let user = UserRecord(
            id: UserID(rawValue: String(repeating: "a", count: 32)), email: "leesoon7@example.com", nickname: "이순신",
            passwordHash: "$argon2id$", createdAt: .init(millisecondsSince1970: 5))
        try await store.createUser(user, initialSession: nil)
        #expect(try await store.user(id: user.id)?.unnumbered == user)
        try await store.close()
    }

    /// SQLite reports a read that fails with EIO as damage, so the damage it reports is checked
    /// again before it is called corruption (see the re-check fault test of the CLI): real damage
    /// must still come out as `store_corrupted`, with what the check found, and stay untouched.
    @Test("a damaged table page is store_corrupted once the check confirms it, and the file stays as it was")
    func damagedPage() async throws {
        let scratch = try ScratchFolder("sqlite-damaged-page")
        let path = scratch.path + "/a.sqlite"
        let store = try await SQLiteRepository.open(SQLiteOptions(path: path))
        try await store.createUser(
            UserRecord(
                id: UserID(rawValue: String(repeating: "a", count: 32)), email: "leesoon7@example.com", nickname: "이순신",
                passwordHash: "$argon2id$", createdAt: .init(millisecondsSince1970: 5)), initialSession: nil)
        try await store.close()
        // The first byte of a b-tree page says its kind; 0x7B is none.
        let pageSize = try #require(Int(Self.query("PRAGMA page_size", of: path)))
        let root = try #require(Int(Self.query("SELECT rootpage FROM sqlite_master WHERE name = 'users'", of: path)))
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        bytes[(root - 1) * pageSize] = 0x7B
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        let reopened = try await SQLiteRepository.open(SQLiteOptions(path: path))
        let error = await #expect(throws: AccountError.self) { try await reopened.user(email: "leesoon7@example.com") }
        try await reopened.close()
        #expect(error?.code == "store_corrupted", "\(String(describing: error))")
        #expect(error?.message(.english).contains("quick_check:") == true, "\(String(describing: error))")
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) == bytes, "the damaged file was changed")
    }

    /// Reads one after another share one connection: a one-shot command (open, read the store's
    /// stamp, run its query) must not open a second reader for its second read.
    @Test("reads one after another use one reader connection")
    func sequentialReadsShareOneReader() async throws {
        #if os(Linux)
            let scratch = try ScratchFolder("sqlite-one-reader")
            let path = scratch.path + "/a.sqlite"
            let store = try await SQLiteRepository.open(SQLiteOptions(path: path))
            for round in 0..<6 {
                _ = try await store.user(email: "reader\(round)@example.com")
                _ = try await store.userCount()
            }
            // The writer and one reader: each connection holds its own descriptor of the file.
            #expect(try Self.descriptorsOpen(on: path) == 2)
            try await store.close()
            #expect(try Self.descriptorsOpen(on: path) == 0)
        #else
            print("skipped: counting a process's open files needs Linux's /proc/self/fd")
        #endif
    }

    /// A pragma's value in the database at `path`, read on a connection of its own ("" when none).
    private static func pragma(_ name: String, of path: String) -> String {
        query("PRAGMA \(name)", of: path)
    }

    /// The first column of the first row of `sql` on the database at `path`, read-only.
    private static func query(_ sql: String, of path: String) -> String {
        var db: OpaquePointer?
        guard sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { return "" }
        defer { sqlite3_close(db) }
        var statement: OpaquePointer?
        sqlite3_prepare_v2(db, sql, -1, &statement, nil)
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW, let text = sqlite3_column_text(statement, 0) else { return "" }
        return String(cString: text)
    }

    /// How many of this process's file descriptors refer to the file at `path` (same device and
    /// inode), from `/proc/self/fd`.
    private static func descriptorsOpen(on path: String) throws -> Int {
        var file = stat()
        guard stat(path, &file) == 0 else { throw CocoaError(.fileNoSuchFile) }
        let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap(Int32.init)
        return descriptors.filter { descriptor in
            var open = stat()
            return fstat(descriptor, &open) == 0 && open.st_dev == file.st_dev && open.st_ino == file.st_ino
        }.count
    }

    /// Read connections open on first use; one that was never used must not open after `close`.
    @Test("reads after close fail with a typed error instead of opening the file again")
    func readsAfterClose() async throws {
        let scratch = try ScratchFolder("sqlite-closed")
        let store = try await SQLiteRepository.open(SQLiteOptions(path: scratch.path + "/a.sqlite"))
        try await store.close()
        // Several reads at once, so that readers no read had opened yet are tried too.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    let error = await #expect(throws: AccountError.self) {
                        try await store.user(email: "a@example.com")
                    }
                    #expect(error?.code == "store_io", "\(String(describing: error))")
                }
            }
            try await group.waitForAll()
        }
    }
}
