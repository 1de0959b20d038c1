import AccountBackendKit
import AccountCore

/// Edges the other checks pass over, as ASP.NET Identity's and Kratos's persister suites test
/// them: every timestamp at the millisecond (and at the ends of its range), expiry exactly at
/// its instant, and paging that other writers do not disturb.
enum BoundaryChecks {
    /// Instants a store must keep to the millisecond: the epoch, one millisecond after it, a
    /// present-day one ending in 999 and one ending in 001, and the last of year 9999.
    static let instants: [Int64] = [0, 1, 1_700_000_000_999, 1_700_000_000_001, 253_402_300_799_999]

    static let all: [ConformanceCheck] = [
        ConformanceCheck("every timestamp round-trips to the millisecond, from 1970 to 9999") { context in
            let store = try await context.open()
            var users: [UserRecord] = []
            var sessions: [SessionRecord] = []
            for (n, instant) in instants.enumerated() {
                let at = Timestamp(millisecondsSince1970: instant)
                let later = Timestamp(millisecondsSince1970: instants[(n + 1) % instants.count])
                let user = UserRecord(
                    id: Fixtures.id(n + 1), email: Fixtures.email(n + 1), nickname: "n\(n)",
                    passwordHash: Fixtures.passwordHash, createdAt: at, passwordChangedAt: later,
                    failedLoginCount: 3, lastFailedLoginAt: at)
                let session = SessionRecord(
                    tokenHash: Fixtures.tokenHash(n + 1), userID: user.id, createdAt: at, lastSeenAt: at,
                    expiresAt: later, idleTimeoutSeconds: 1, remember: n % 2 == 0)
                try await store.createUser(user, initialSession: session)
                users.append(user)
                sessions.append(session)
            }
            try await expectKept(users, sessions, in: store, context, "as stored")
            // Each write that takes a time keeps it to the millisecond too (a touch only moves
            // a session's time forward: to the next instant, where that is later).
            for (n, instant) in instants.enumerated() {
                let at = Timestamp(millisecondsSince1970: instant)
                let later = Timestamp(millisecondsSince1970: instants[(n + 1) % instants.count])
                let id = users[n].id
                try context.expect(
                    try await store.updatePassword(
                        userID: id, passwordHash: Fixtures.passwordHash, changedAt: at, revoking: .none,
                        ifPasswordHashIs: nil),
                    "user \(n + 1) was not found to change its password")
                users[n].passwordChangedAt = at
                users[n].failedLoginCount = try await store.recordLoginFailure(userID: id, at: at) ?? -1
                users[n].lastFailedLoginAt = at
                try await store.touchSession(tokenHash: sessions[n].tokenHash, lastSeenAt: later)
                sessions[n].lastSeenAt = max(at, later)
            }
            try await expectKept(users, sessions, in: store, context, "after the writes that take a time")
            try await store.close()
            guard context.subject.backend.capabilities.contains(.survivesReopen) else { return }
            let reopened = try await context.open()
            try await expectKept(users, sessions, in: reopened, context, "after reopening")
            try await reopened.close()
        },
        ConformanceCheck("a session read back expires exactly at its instant, not a millisecond before") {
            context in
            let store = try await context.open()
            let user = Fixtures.user(1)
            let created = Timestamp(millisecondsSince1970: 1_700_000_000_123)
            // Absolute expiry first (idle would allow an hour), then idle expiry first.
            let absolute = SessionRecord(
                tokenHash: Fixtures.tokenHash(1), userID: user.id, createdAt: created, lastSeenAt: created,
                expiresAt: created.adding(seconds: 60), idleTimeoutSeconds: 3_600, remember: false)
            let idle = SessionRecord(
                tokenHash: Fixtures.tokenHash(2), userID: user.id, createdAt: created, lastSeenAt: created,
                expiresAt: created.adding(seconds: 3_600), idleTimeoutSeconds: 60, remember: true)
            try await store.createUser(user, initialSession: absolute)
            try context.expect(
                try await store.createSession(idle, ifPasswordHashIs: Fixtures.passwordHash),
                "the second session was not stored")
            let edge = created.adding(seconds: 60)
            let justBefore = Timestamp(millisecondsSince1970: edge.millisecondsSince1970 - 1)
            for stored in [absolute, idle] {
                guard let read = try await store.session(tokenHash: stored.tokenHash) else {
                    throw ConformanceFailure("session \(stored.tokenHash) is missing")
                }
                try context.expect(!read.isExpired(at: justBefore), "\(read) is expired a millisecond early")
                try context.expect(read.isExpired(at: edge), "\(read) is not expired at its instant")
            }
            try await store.close()
        },
        ConformanceCheck("paging lists every user that stays exactly once while others come and go") { context in
            let store = try await context.open()
            // Users that stay (even numbers) and users that go (multiples of 3 among the odd);
            // between pages, new users arrive and the ones that go are deleted, before and
            // after the page's cursor.
            let staying = Array(stride(from: 2, through: 120, by: 2))
            let going = Array(stride(from: 3, through: 120, by: 6))
            for n in staying + going { try await store.createUser(Fixtures.user(n), initialSession: nil) }
            var arriving = Array(stride(from: 1, through: 120, by: 6)).makeIterator()
            var leaving = going.makeIterator()
            var listed: [String] = []
            var cursor: String?
            while true {
                let page = try await store.users(after: cursor, limit: 7).map(\.email)
                guard let last = page.last else { break }
                listed += page
                cursor = last
                if let n = arriving.next() { try await store.createUser(Fixtures.user(n), initialSession: nil) }
                if let n = leaving.next() {
                    try context.expect(try await store.deleteUser(id: Fixtures.id(n)), "user \(n) was not deleted")
                }
            }
            try context.expect(
                listed == listed.sorted() && Set(listed).count == listed.count, "the pages repeat or go back: \(listed)"
            )
            let missing = staying.map(Fixtures.email).filter { !listed.contains($0) }
            try context.expect(missing.isEmpty, "users that stayed were never listed: \(missing)")
            try await store.close()
        },
    ]

    /// Fails unless `store` returns every user and session exactly as `users` and `sessions`
    /// say, through each read that returns them.
    private static func expectKept(
        _ users: [UserRecord], _ sessions: [SessionRecord], in store: any UserRepository,
        _ context: ConformanceContext, _ when: String
    ) async throws {
        let listed = try await store.users(after: nil, limit: users.count + 1)
        for (user, session) in zip(users, sessions) {
            try context.expectIdentical(try await store.user(email: user.email), user, "\(when), by email")
            try context.expectIdentical(try await store.user(id: user.id), user, "\(when), by id")
            try context.expectIdentical(listed.first { $0.id == user.id }, user, "\(when), listed")
            let read = try await store.session(tokenHash: session.tokenHash)
            try context.expect(read == session, "\(when): session \(session) reads back as \(String(describing: read))")
            try context.expect(
                try await store.sessions(userID: user.id) == [session], "\(when): the user's sessions differ")
            let signedIn = try await store.signedIn(tokenHash: session.tokenHash)
            try context.expect(signedIn?.session == session, "\(when): signedIn's session differs")
            try context.expectIdentical(signedIn?.user, user, "\(when), signed in")
        }
    }
}
