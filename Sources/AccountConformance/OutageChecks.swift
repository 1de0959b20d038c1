import AccountBackendKit
import AccountCore

/// A store that becomes unreachable in the middle of a write, as a network failure or a
/// restarted database server makes it: every write fails closed, with a typed error, leaves
/// nothing of itself behind, and once the store is back the same repository works again.
enum OutageChecks {
    static let all: [ConformanceCheck] = [
        ConformanceCheck(
            "a store that becomes unreachable mid-operation fails closed and changes nothing", needsCutOff: true
        ) { context in
            guard let cutOff = context.subject.storeFixtures.cutOff else {
                throw ConformanceFailure("the backend's fixtures give no way to cut a store off")
            }
            let store = try await context.open()
            let first = Fixtures.user(1)
            let kept = Fixtures.session(1, user: first.id)
            try await store.createUser(first, initialSession: kept)
            try await store.createUser(Fixtures.user(2), initialSession: Fixtures.session(2, user: Fixtures.id(2)))
            let before = try await context.snapshot()
            // Each write is cut off three times: where the cut lands in a driver's handling of a
            // dead connection varies (a ROLLBACK sent after the server's FATAL once hung at some
            // cut in 7 of 13 runs of nine cuts each).
            for (name, write) in Array(repeating: writes(store, first: first.id, kept: kept), count: 3).joined() {
                switch try await cutOff.run(context.storePath, write) {
                case .success:
                    throw ConformanceFailure("\(name), cut off mid-write: it reported success")
                case .failure(let error as StoreCutOff.StillRunning):
                    throw ConformanceFailure("\(name), cut off mid-write: \(error); a call must fail, not hang")
                case .failure(let error as AccountError):
                    // The store is out of reach, not damaged: saying it is corrupt would send an
                    // operator to restore a backup of a sound store.
                    try context.expect(
                        error.code != AccountError.storeCorrupted(detail: "").code,
                        "\(name), cut off mid-write: reported as \(error.code) (\(error.message(.english)))")
                case .failure(let error):
                    throw ConformanceFailure("\(name), cut off mid-write: a non-typed error: \(error)")
                }
                let after = try await context.snapshot()
                try context.expect(
                    after == before,
                    "\(name), cut off mid-write: the store changed (\(after.keys.filter { after[$0] != before[$0] }.sorted()))"
                )
            }
            // The store is back: the same repository reads and writes, and the number the cut
            // sign-ups would have taken is the next one given.
            let next = try await store.createUser(Fixtures.user(3), initialSession: nil)
            try context.expect(next == 3, "after the cut sign-ups, the next user got number \(next), expected 3")
            try context.expect(
                try await store.session(tokenHash: kept.tokenHash) == kept,
                "after the cuts, a session reads differently")
            try await store.close()
        }
    ]

    /// One call of every write of the contract, each named, on a store holding users 1 and 2
    /// (user 1 signed in with `kept`).
    private static func writes(_ store: any UserRepository, first: UserID, kept: SessionRecord) -> [(
        String, @Sendable () async throws -> Void
    )] {
        let later = kept.lastSeenAt.adding(seconds: 60)
        return [
            (
                "createUser",
                {
                    _ = try await store.createUser(
                        Fixtures.user(3), initialSession: Fixtures.session(3, user: Fixtures.id(3)))
                }
            ),
            ("createUsers", { _ = try await store.createUsers([Fixtures.user(4), Fixtures.user(5)], sessions: []) }),
            ("raiseLastUserNumber", { try await store.raiseLastUserNumber(to: 100) }),
            (
                "createSession",
                {
                    _ = try await store.createSession(
                        Fixtures.session(6, user: first), ifPasswordHashIs: Fixtures.passwordHash)
                }
            ),
            ("touchSession", { try await store.touchSession(tokenHash: kept.tokenHash, lastSeenAt: later) }),
            (
                "updatePassword",
                {
                    _ = try await store.updatePassword(
                        userID: first, passwordHash: Fixtures.passwordHash + "x", changedAt: later,
                        revoking: .allExcept(tokenHash: kept.tokenHash), ifPasswordHashIs: nil)
                }
            ),
            ("recordLoginFailure", { _ = try await store.recordLoginFailure(userID: first, at: later) }),
            ("deleteSession", { _ = try await store.deleteSession(tokenHash: kept.tokenHash) }),
            ("deleteUser", { _ = try await store.deleteUser(id: Fixtures.id(2)) }),
        ]
    }
}
