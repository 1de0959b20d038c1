import AccountBackendKit
import AccountCore
import AccountTestSupport
import BackendTestSupport
import CSQLite
import Foundation
import StandardBackends
import Testing

/// A writer that cannot get the store's lock within its timeout fails with `store_busy`,
/// cleanly, and writes nothing; once the lock is free the same write succeeds.
@Suite("Busy store")
struct BusyStoreTests {
    /// Backends with a write-lock timeout. LMDB has none: its writers queue on LMDB's own
    /// cross-process mutex and never give `store_busy`.
    static let timedBackends = BackendRegistry.embedded.descriptors.filter { backend in
        backend.options.contains { $0.name.hasSuffix("timeout_ms") }
    }

    @Test(
        "a write blocked past the timeout gives store_busy and loses nothing",
        arguments: timedBackends)
    func busy(_ backend: any BackendDescriptor) async throws {
        let scratch = try ScratchFolder("busy-\(backend.name)")
        let path = scratch.path + "/" + backend.defaultStoreName
        var values = backend.defaultValues
        for option in backend.options where option.name.hasSuffix("timeout_ms") { values[option.name] = .integer(100) }
        let store = try await BackendRegistry.standard.open(
            backend, BackendConfiguration(location: path, values: values))
        let user = UserRecord(
            id: UserID(rawValue: String(repeating: "1", count: 32)), email: "leesoon7@example.com", nickname: "이순신",
            passwordHash: "$argon2id$x", createdAt: Timestamp(millisecondsSince1970: 1))
        let holder = try ForeignWriter(backend: backend.name, storePath: path)
        let error = await accountError { try await store.createUser(user, initialSession: nil) }
        #expect(error?.code == "store_busy", "\(String(describing: error))")
        #expect(error?.message(.english).contains(path) == true, "the message names the store")
        holder.release()
        #expect(try await store.userCount() == 0, "the refused write left nothing")
        try await store.createUser(user, initialSession: nil)
        #expect(try await store.user(email: user.email)?.unnumbered == user)
        try await store.close()
    }

    @Test(
        "an LMDB write blocked past a timeout gives store_busy",
        .disabled("LMDB has no write-lock timeout: its writers queue on LMDB's own mutex, so store_busy never occurs"))
    func lmdbHasNoTimeout() {}
}
