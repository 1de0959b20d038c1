import AccountBackendKit
import AccountCore

/// Writes to one user's sessions that race each other, as Kratos's and better-auth's adapter
/// suites race them: whichever lands first, the end is a state the contract allows, and never
/// one that no order of the two calls gives.
enum RaceChecks {
    /// Rounds per race: enough for either call to land first on a two-core machine.
    static let rounds = 20

    static let all: [ConformanceCheck] = [
        ConformanceCheck("a revoke racing touchSession leaves the session revoked, never brought back") { context in
            let store = try await context.open()
            let user = Fixtures.user(1)
            try await store.createUser(user, initialSession: nil)
            for round in 1...rounds {
                let session = Fixtures.session(round, user: user.id)
                try context.expect(
                    try await store.createSession(session, ifPasswordHashIs: Fixtures.passwordHash),
                    "round \(round): not stored")
                let seen = session.lastSeenAt.adding(seconds: 5)
                let deleted = try await withThrowingTaskGroup(of: Bool?.self) { group in
                    group.addTask {
                        try await store.touchSession(tokenHash: session.tokenHash, lastSeenAt: seen)
                        return nil
                    }
                    group.addTask { try await store.deleteSession(tokenHash: session.tokenHash) }
                    return try await group.reduce(into: [Bool]()) { outcomes, outcome in
                        if let outcome { outcomes.append(outcome) }
                    }
                }
                try context.expect(deleted == [true], "round \(round): the revoke did not find the session")
                try context.expect(
                    try await store.session(tokenHash: session.tokenHash) == nil,
                    "round \(round): a touch brought the revoked session back")
                try await store.touchSession(tokenHash: session.tokenHash, lastSeenAt: seen)
                try context.expect(
                    try await store.session(tokenHash: session.tokenHash) == nil,
                    "round \(round): touching a revoked session made one")
            }
            try context.expect(try await store.sessions(userID: user.id).isEmpty, "sessions are left")
            try await store.close()
        },
        ConformanceCheck(
            "a login racing a password change never outlives it: its session is revoked with the rest or refused"
        ) { context in
            let store = try await context.open()
            let user = Fixtures.user(1)
            let kept = Fixtures.session(1, user: user.id)
            try await store.createUser(user, initialSession: kept)
            var current = user.passwordHash
            for round in 1...rounds {
                // An older session, which the change must revoke, and a login that verified the old
                // password landing meanwhile: stored before the change (then revoked with the
                // rest) or refused after it, never outliving it.
                let older = Fixtures.session(1_000 + round, user: user.id)
                let login = Fixtures.session(2_000 + round, user: user.id)
                try context.expect(
                    try await store.createSession(older, ifPasswordHashIs: current),
                    "round \(round): older session not stored")
                let verified = current
                let hash = Fixtures.passwordHash + "\(round)"
                let changedAt = Timestamp(millisecondsSince1970: 1_800_000_000_000 + Int64(round))
                let changed = try await withThrowingTaskGroup(of: Bool?.self) { group in
                    group.addTask {
                        try await store.updatePassword(
                            userID: user.id, passwordHash: hash, changedAt: changedAt,
                            revoking: .allExcept(tokenHash: kept.tokenHash), ifPasswordHashIs: verified)
                    }
                    group.addTask {
                        _ = try await store.createSession(login, ifPasswordHashIs: verified)
                        return nil
                    }
                    return try await group.reduce(into: [Bool]()) { outcomes, outcome in
                        if let outcome { outcomes.append(outcome) }
                    }
                }
                try context.expect(changed == [true], "round \(round): the change did not find the user")
                current = hash
                let left = Set(try await store.sessions(userID: user.id).map(\.tokenHash))
                try context.expect(left.contains(kept.tokenHash), "round \(round): the changing session was revoked")
                try context.expect(!left.contains(older.tokenHash), "round \(round): an older session survived")
                try context.expect(
                    !left.contains(login.tokenHash),
                    "round \(round): a login that verified the old password outlived the change")
                let stored = try await store.user(id: user.id)
                try context.expect(
                    stored?.passwordHash == hash && stored?.passwordChangedAt == changedAt,
                    "round \(round): the new password did not land whole")
            }
            try await store.close()
        },
        ConformanceCheck("a session or a change of password waits for the hash it was verified against") { context in
            let store = try await context.open()
            let user = Fixtures.user(1)
            try await store.createUser(user, initialSession: nil)
            let changedAt = Timestamp(millisecondsSince1970: 1_800_000_000_000)
            try context.expect(
                try await store.updatePassword(
                    userID: user.id, passwordHash: "$second$", changedAt: changedAt, revoking: .none,
                    ifPasswordHashIs: user.passwordHash), "a change from the current hash was refused")
            let stale = Fixtures.session(2, user: user.id)
            try context.expect(
                try await store.createSession(stale, ifPasswordHashIs: user.passwordHash) == false,
                "a session was stored for a password that is no longer the user's")
            try context.expect(
                try await store.session(tokenHash: stale.tokenHash) == nil, "the refused session is there")
            try context.expect(
                try await store.updatePassword(
                    userID: user.id, passwordHash: "$third$", changedAt: changedAt.adding(seconds: 1), revoking: .all,
                    ifPasswordHashIs: user.passwordHash) == false,
                "a change from a hash that is no longer the user's landed")
            try context.expect(
                try await store.user(id: user.id)?.passwordHash == "$second$", "the refused change changed the hash")
            try context.expect(
                try await store.createSession(Fixtures.session(3, user: user.id), ifPasswordHashIs: "$second$"),
                "a session for the current hash was refused")
            try await store.close()
        },
        ConformanceCheck("a withdrawal racing a password change and a touch leaves nothing of the user") { context in
            let store = try await context.open()
            for round in 1...rounds {
                let user = Fixtures.user(round)
                let session = Fixtures.session(round, user: user.id)
                try await store.createUser(user, initialSession: session)
                let outcomes = try await withThrowingTaskGroup(of: (String, Bool).self) { group in
                    group.addTask { ("delete", try await store.deleteUser(id: user.id)) }
                    group.addTask {
                        let found = try await store.updatePassword(
                            userID: user.id, passwordHash: Fixtures.passwordHash + "x",
                            changedAt: session.createdAt.adding(seconds: 1), revoking: .all, ifPasswordHashIs: nil)
                        return ("change", found)
                    }
                    group.addTask {
                        try await store.touchSession(
                            tokenHash: session.tokenHash, lastSeenAt: session.lastSeenAt.adding(seconds: 1))
                        return ("touch", true)
                    }
                    return try await group.reduce(into: [String: Bool]()) { $0[$1.0] = $1.1 }
                }
                try context.expect(outcomes["delete"] == true, "round \(round): the withdrawal did not find the user")
                try context.expect(try await store.user(id: user.id) == nil, "round \(round): the user is back")
                try context.expect(
                    try await store.user(email: user.email) == nil, "round \(round): the email still finds the user")
                try context.expect(
                    try await store.session(tokenHash: session.tokenHash) == nil, "round \(round): the session is back")
            }
            try context.expect(try await store.userCount() == 0, "users are left")
            try context.expect(try await store.deleteOrphanedSessions() == 0, "orphaned sessions are left")
            try await store.close()
        },
    ]
}
