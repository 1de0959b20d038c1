import AccountBackendKit
import AccountCore
import AccountTestSupport
import BackendTestSupport
import StandardBackends
import Testing

/// A server's graceful stop closes the store while requests may still reach it, and an
/// embedding application can do the same. A call that loses the race with `close()` must be
/// served or refused with a typed error, never run on a closed handle (libsqlite3 and liblmdb
/// dereference one: the process died with SIGSEGV), and every write reported done must stay.
@Suite("Calls racing close")
struct CloseRaceTests {
    static func user(_ n: Int) -> UserRecord {
        let hex = String(n, radix: 16)
        return UserRecord(
            id: UserID(rawValue: String(repeating: "0", count: 32 - hex.count) + hex), email: "user\(n)@example.com",
            nickname: "nïck\(n)", passwordHash: "$argon2id$", createdAt: .init(millisecondsSince1970: Int64(n)))
    }

    /// Runs `create`; `true` when it was stored, `false` when refused with `store_io`.
    static func stored(_ create: () async throws -> Void) async -> Bool {
        do {
            try await create()
            return true
        } catch let error as AccountError {
            #expect(error.code == "store_io", "\(error)")
            return false
        } catch {
            Issue.record("an untyped error: \(error)")
            return false
        }
    }

    @Test(
        "writes racing a close, and calls after it, are served or refused with store_io; the stored ones stay",
        arguments: BackendRegistry.embedded.descriptors)
    func callsRacingClose(_ backend: any BackendDescriptor) async throws {
        let scratch = try ScratchFolder("close-race-\(backend.name)")
        let configuration = BackendConfiguration(
            location: scratch.path + "/" + backend.defaultStoreName, values: backend.defaultValues)
        try await Self.race { try await BackendRegistry.standard.open(backend, configuration) }
    }

    @Test(
        "PostgreSQL: writes racing a close, and calls after it, are served or refused with store_io",
        .enabled(if: PostgresTestServer.isConfigured, Comment(rawValue: PostgresTestServer.skipReason)))
    func postgresCallsRacingClose() async throws {
        let scratch = try ScratchFolder("close-race-postgres")
        let configuration = PostgresTestServer.configuration(Backends.postgres, folder: scratch.path, name: "a")
        // The suite's own connect deadline, not a short one of its own: a call after close is
        // refused without waiting for a connection, so no deadline is needed to keep the test
        // quick, and a 5 s one made the opens fail on a 2-core machine busy with the whole suite
        // ("no connection could be made within 5000 ms" in CI).
        try await PostgresTestServer.run(
            {
                try await Self.race { try await BackendRegistry.standard.open(Backends.postgres, configuration) }
            }, thenCleanUp: { await PostgresTestServer.cleanUp(Backends.postgres, folder: scratch.path) })
    }

    /// Creates 64 users with a close among them, then calls the closed store; reopened, the store
    /// must hold exactly the creates that reported success.
    static func race(_ open: () async throws -> any UserRepository) async throws {
        let store = try await open()
        var stored = try await withThrowingTaskGroup(of: Int?.self) { group in
            for n in 0..<64 {
                if n == 32 {
                    group.addTask {
                        try await store.close()
                        return nil
                    }
                }
                group.addTask {
                    await Self.stored { try await store.createUser(Self.user(n), initialSession: nil) } ? n : nil
                }
            }
            var stored: [Int] = []
            for try await n in group { if let n { stored.append(n) } }
            return stored
        }
        if await Self.stored({ try await store.createUser(Self.user(100), initialSession: nil) }) { stored.append(100) }
        _ = await Self.stored { _ = try await store.userCount() }
        let reopened = try await open()
        #expect(try await reopened.userCount() == stored.count)
        for n in stored { #expect(try await reopened.user(id: Self.user(n).id)?.unnumbered == Self.user(n)) }
        #expect(try await reopened.integrityCheck() == ["ok"])
        try await reopened.close()
    }
}
