import AccountCore

/// Users: round trips, uniqueness, updates, counters, withdrawal, listing.
enum RecordChecks {
    static let all: [ConformanceCheck] = [
        ConformanceCheck("every field round-trips byte-for-byte with hostile Unicode") { context in
            let store = try await context.open()
            var expected: [UserRecord] = []
            for (n, nickname) in Fixtures.hostileNicknames.enumerated() {
                var user = Fixtures.user(n + 1, nickname: nickname)
                user.failedLoginCount = n
                user.lastFailedLoginAt = n.isMultiple(of: 2) ? nil : Timestamp(millisecondsSince1970: -5 + Int64(n))
                user.passwordChangedAt = Timestamp(millisecondsSince1970: Int64.max - Int64(n))
                try await store.createUser(user, initialSession: nil)
                expected.append(user)
            }
            for user in expected {
                try context.expectIdentical(try await store.user(email: user.email), user, "by email")
                try context.expectIdentical(try await store.user(id: user.id), user, "by id")
            }
            let session = Fixtures.session(1, user: expected[0].id, remember: true)
            try context.expect(
                try await store.createSession(session, ifPasswordHashIs: Fixtures.passwordHash),
                "createSession refused an existing user")
            try context.expect(
                try await store.session(tokenHash: session.tokenHash) == session, "session fields changed")
            try await store.close()
        },
        ConformanceCheck("a duplicate email gives email_taken and leaves the original intact") { context in
            let store = try await context.open()
            let original = Fixtures.user(1)
            try await store.createUser(original, initialSession: Fixtures.session(1, user: original.id))
            let intruder = Fixtures.user(2, email: original.email, nickname: "intruder")
            try await context.expectError("email_taken", "second create of one email") {
                try await store.createUser(intruder, initialSession: Fixtures.session(2, user: intruder.id))
            }
            try context.expectIdentical(try await store.user(email: original.email), original, "after the duplicate")
            try context.expect(try await store.user(id: intruder.id) == nil, "the rejected user was stored")
            try context.expect(
                try await store.session(tokenHash: Fixtures.tokenHash(2)) == nil,
                "the rejected user's session was stored")
            try context.expect(try await store.userCount() == 1, "count is not 1 after a rejected duplicate")
            try await store.close()
        },
        ConformanceCheck("a stored user id or session token hash is never reused by a new user or session") {
            context in
            let store = try await context.open()
            let (resident, residentSession) = try await storeResident(in: store)
            // Storing either would replace the resident or hand its session to the newcomer.
            let idClash = Fixtures.user(2, reusingIDOf: resident)
            try await context.expectError("store_io", "a new user under a stored id", naming: resident.id) {
                try await store.createUser(idClash, initialSession: Fixtures.session(2, user: resident.id))
            }
            let newcomer = Fixtures.user(3)
            let stolen = Fixtures.session(1, user: newcomer.id)
            try await context.expectError(
                "store_io", "a new user whose first session has a stored token hash", hiding: [stolen.tokenHash],
                naming: newcomer.id
            ) {
                try await store.createUser(newcomer, initialSession: stolen)
            }
            try await store.createUser(newcomer, initialSession: nil)
            try await context.expectError(
                "store_io", "a new session with a stored token hash", hiding: [stolen.tokenHash], naming: newcomer.id
            ) {
                try await store.createSession(stolen, ifPasswordHashIs: Fixtures.passwordHash)
            }
            try await expectUntouched(resident, residentSession, in: store, context, by: "the refusals")
            try context.expect(
                try await store.user(email: idClash.email) == nil, "the user under a stored id was stored")
            try context.expect(
                try await store.session(tokenHash: Fixtures.tokenHash(2)) == nil, "a refused user's session was stored")
            try context.expect(try await store.sessions(userID: newcomer.id).isEmpty, "the newcomer got a session")
            try context.expect(
                try await store.integrityCheck() == ["ok"], "the refused records left the store inconsistent")
            try await store.close()
        },
        ConformanceCheck("updating the password hash changes nothing else") { context in
            let store = try await context.open()
            let user = Fixtures.user(1)
            let other = Fixtures.user(2)
            try await store.createUser(user, initialSession: Fixtures.session(1, user: user.id))
            try await store.createUser(other, initialSession: Fixtures.session(2, user: other.id))
            _ = try await store.createSession(
                Fixtures.session(3, user: user.id), ifPasswordHashIs: Fixtures.passwordHash)
            let changed = Timestamp(millisecondsSince1970: 1_800_000_000_000)
            try context.expect(
                try await store.updatePassword(
                    userID: user.id, passwordHash: "$new$", changedAt: changed, revoking: .none, ifPasswordHashIs: nil),
                "updatePassword did not find the user")
            var expected = user
            expected.passwordHash = "$new$"
            expected.passwordChangedAt = changed
            try context.expectIdentical(try await store.user(id: user.id), expected, "after updatePassword")
            try context.expectIdentical(try await store.user(id: other.id), other, "the other user")
            try context.expect(
                try await store.sessions(userID: user.id).count == 2, "sessions changed without revocation")
            _ = try await store.updatePassword(
                userID: user.id, passwordHash: "$newer$", changedAt: changed,
                revoking: .allExcept(tokenHash: Fixtures.tokenHash(3)), ifPasswordHashIs: nil)
            let left = try await store.sessions(userID: user.id).map(\.tokenHash)
            try context.expect(
                left == [Fixtures.tokenHash(3)], "revocation kept \(left.count) sessions, expected only the current one"
            )
            try context.expect(
                try await store.sessions(userID: other.id).count == 1, "another user's session was revoked")
            try context.expect(
                try await store.updatePassword(
                    userID: Fixtures.id(99), passwordHash: "x", changedAt: changed, revoking: .none,
                    ifPasswordHashIs: nil) == false,
                "updatePassword reported success for a missing user")
            try await store.close()
        },
        ConformanceCheck("the failed-login counter counts, survives reads and resets") { context in
            let store = try await context.open()
            let user = Fixtures.user(1)
            try await store.createUser(user, initialSession: nil)
            for expected in 1...3 {
                let at = Timestamp(millisecondsSince1970: 1_000 * Int64(expected))
                let count = try await store.recordLoginFailure(userID: user.id, at: at)
                try context.expect(count == expected, "failure \(expected) returned count \(String(describing: count))")
            }
            let stored = try await store.user(id: user.id)
            try context.expect(stored?.failedLoginCount == 3, "stored count is not 3")
            try context.expect(
                stored?.lastFailedLoginAt == Timestamp(millisecondsSince1970: 3_000), "last failure time not kept")
            try context.expect(stored?.passwordHash == user.passwordHash, "counting changed the hash")
            try await store.resetLoginFailures(userID: user.id)
            let reset = try await store.user(id: user.id)
            try context.expect(
                reset?.failedLoginCount == 0 && reset?.lastFailedLoginAt == nil, "reset did not clear the counter")
            try context.expect(
                try await store.recordLoginFailure(userID: Fixtures.id(99), at: .init(millisecondsSince1970: 0)) == nil,
                "a failure was counted for a missing user")
            try await store.close()
        },
        ConformanceCheck("withdraw removes the user and all its sessions at once and frees the email") { context in
            let store = try await context.open()
            let user = Fixtures.user(1)
            let bystander = Fixtures.user(2)
            try await store.createUser(user, initialSession: Fixtures.session(1, user: user.id))
            try await store.createUser(bystander, initialSession: Fixtures.session(2, user: bystander.id))
            for n in 3...6 {
                _ = try await store.createSession(
                    Fixtures.session(n, user: user.id), ifPasswordHashIs: Fixtures.passwordHash)
            }
            try context.expect(try await store.deleteUser(id: user.id), "deleteUser did not find the user")
            try context.expect(try await store.user(email: user.email) == nil, "user still found by email")
            try context.expect(try await store.user(id: user.id) == nil, "user still found by id")
            try context.expect(try await store.sessions(userID: user.id).isEmpty, "sessions survived the withdrawal")
            for n in [1, 3, 4, 5, 6] {
                try context.expect(
                    try await store.session(tokenHash: Fixtures.tokenHash(n)) == nil, "session \(n) survived")
            }
            try context.expect(
                try await store.session(tokenHash: Fixtures.tokenHash(2)) != nil, "a bystander's session went")
            try context.expect(try await store.deleteUser(id: user.id) == false, "a second delete reported success")
            let again = Fixtures.user(3, email: user.email, nickname: "returning")
            try await store.createUser(again, initialSession: nil)
            try context.expectIdentical(
                try await store.user(email: user.email), again, "re-sign-up with the freed email")
            try await store.close()
        },
        ConformanceCheck("a batch of users lands in one go; taken emails are skipped and named") { context in
            let store = try await context.open()
            let resident = Fixtures.user(1)
            try await store.createUser(resident, initialSession: nil)
            var batch = (2...300).map { Fixtures.user($0) }
            batch.insert(Fixtures.user(1_001, email: resident.email, nickname: "intruder"), at: 100)
            batch.append(Fixtures.user(1_002, email: Fixtures.email(7), nickname: "twin"))
            let skipped = try await store.createUsers(batch)
            try context.expect(
                skipped == [resident.email, Fixtures.email(7)],
                "skipped \(skipped), expected the resident's and the twin's")
            try context.expect(try await store.userCount() == 300, "the store does not hold 300 users")
            try context.expectIdentical(try await store.user(email: resident.email), resident, "the resident")
            try context.expectIdentical(
                try await store.user(email: Fixtures.email(7)), Fixtures.user(7), "the first of twins")
            try context.expectIdentical(
                try await store.user(email: Fixtures.email(300)), Fixtures.user(300), "the last")
            try context.expect(try await store.createUsers([]).isEmpty, "an empty batch skipped something")
            try await store.close()
        },
        ConformanceCheck("a batch of users lands with their sessions; a skipped user's sessions are skipped too") {
            context in
            let store = try await context.open()
            let resident = Fixtures.user(1)
            try await store.createUser(resident, initialSession: nil)
            let intruder = Fixtures.user(1_001, email: resident.email, nickname: "intruder")
            let batch = [Fixtures.user(2), intruder, Fixtures.user(3)]
            let sessions = [
                Fixtures.session(21, user: Fixtures.user(2).id), Fixtures.session(22, user: Fixtures.user(2).id),
                Fixtures.session(23, user: intruder.id), Fixtures.session(24, user: Fixtures.user(3).id),
            ]
            let skipped = try await store.createUsers(batch, sessions: sessions)
            try context.expect(skipped == [resident.email], "skipped \(skipped), expected the resident's email")
            for n in [21, 22, 24] {
                let stored = try await store.session(tokenHash: Fixtures.tokenHash(n))
                try context.expect(
                    stored == sessions.first { $0.tokenHash == Fixtures.tokenHash(n) },
                    "session \(n) of a stored user came back as \(String(describing: stored))")
            }
            try context.expect(
                try await store.session(tokenHash: Fixtures.tokenHash(23)) == nil,
                "the skipped user's session was stored")
            try context.expect(
                try await store.sessions(userID: resident.id).isEmpty, "the resident was given the intruder's session")
            try await store.close()
        },
        ConformanceCheck("a batch that reuses a stored user id or session is refused whole, with nothing written") {
            context in
            let store = try await context.open()
            let (resident, residentSession) = try await storeResident(in: store)
            // Another email under the resident's id; the resident's token hash for a newcomer;
            // one token hash twice in the batch. Only a hand-made export file holds such records.
            let idClash = Fixtures.user(2, reusingIDOf: resident)
            let newcomer = Fixtures.user(3)
            // Each with the user its refusal must name.
            let refusedBatches: [(String, [UserRecord], [SessionRecord], UserID)] = [
                ("a stored user id", [Fixtures.user(4), idClash], [], resident.id),
                ("a stored session", [newcomer], [Fixtures.session(1, user: newcomer.id)], newcomer.id),
                (
                    "one session twice",
                    [newcomer], [Fixtures.session(5, user: newcomer.id), Fixtures.session(5, user: newcomer.id)],
                    newcomer.id
                ),
            ]
            for (what, users, sessions, named) in refusedBatches {
                try await context.expectError(
                    "store_io", "a batch with \(what)", hiding: [Fixtures.tokenHash(1), Fixtures.tokenHash(5)],
                    naming: named
                ) {
                    try await store.createUsers(users, sessions: sessions)
                }
                try context.expect(try await store.userCount() == 1, "a batch with \(what) left users behind")
                try await expectUntouched(resident, residentSession, in: store, context, by: "a batch with \(what)")
                try context.expect(
                    try await store.session(tokenHash: Fixtures.tokenHash(5)) == nil,
                    "a batch with \(what) left a session")
            }
            try context.expect(
                try await store.integrityCheck() == ["ok"], "the refused batches left the store inconsistent")
            try await store.close()
        },
        ConformanceCheck("users are counted and listed in email order, page by page") { context in
            let store = try await context.open()
            try context.expect(try await store.userCount() == 0, "a new store is not empty")
            for n in [5, 3, 9, 1, 7, 2] { try await store.createUser(Fixtures.user(n), initialSession: nil) }
            try context.expect(try await store.userCount() == 6, "count is not 6")
            let first = try await store.users(after: nil, limit: 4).map(\.email)
            try context.expect(first == [1, 2, 3, 5].map(Fixtures.email), "first page is \(first)")
            let second = try await store.users(after: first.last, limit: 4).map(\.email)
            try context.expect(second == [7, 9].map(Fixtures.email), "second page is \(second)")
            try context.expect(
                try await store.users(after: Fixtures.email(9), limit: 4).isEmpty, "a page after the last is not empty")
            try await store.close()
        },
    ]

    /// User 1 and its session 1, stored: what a record reusing its id or token hash must leave be.
    private static func storeResident(in store: any UserRepository) async throws -> (UserRecord, SessionRecord) {
        let resident = Fixtures.user(1)
        let session = Fixtures.session(1, user: resident.id)
        try await store.createUser(resident, initialSession: session)
        return (resident, session)
    }

    private static func expectUntouched(
        _ resident: UserRecord, _ session: SessionRecord, in store: any UserRepository,
        _ context: ConformanceContext, by what: String
    ) async throws {
        try context.expectIdentical(try await store.user(email: resident.email), resident, "the resident after \(what)")
        try context.expect(
            try await store.session(tokenHash: session.tokenHash) == session, "\(what) changed the resident's session")
        try context.expect(
            try await store.sessions(userID: resident.id) == [session], "\(what) changed the resident's sessions")
    }
}
