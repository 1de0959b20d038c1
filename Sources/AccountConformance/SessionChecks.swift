import AccountCore

/// Sessions: create, find, touch, revoke, revoke-all-others, and the owner's existence.
enum SessionChecks {
    static let all: [ConformanceCheck] = [
        ConformanceCheck("sessions are created, found, touched and revoked") { context in
            let store = try await context.open()
            let user = Fixtures.user(1)
            let first = Fixtures.session(1, user: user.id)
            try await store.createUser(user, initialSession: first)
            try context.expect(
                try await store.session(tokenHash: first.tokenHash) == first, "initial session not found intact")
            let second = Fixtures.session(2, user: user.id, remember: true)
            try context.expect(
                try await store.createSession(second, ifPasswordHashIs: Fixtures.passwordHash), "createSession refused")
            try context.expect(
                try await store.sessions(userID: user.id) == [first, second], "sessions(userID:) is wrong")
            let later = first.lastSeenAt.adding(seconds: 120)
            try await store.touchSession(tokenHash: first.tokenHash, lastSeenAt: later)
            var touched = first
            touched.lastSeenAt = later
            try context.expect(
                try await store.session(tokenHash: first.tokenHash) == touched, "touch did not move lastSeenAt alone")
            try context.expect(
                try await store.deleteSession(tokenHash: first.tokenHash), "deleteSession did not find it")
            try context.expect(
                try await store.session(tokenHash: first.tokenHash) == nil, "a revoked session is still found")
            try context.expect(
                try await store.deleteSession(tokenHash: first.tokenHash) == false, "a second revoke reported success")
            try context.expect(
                try await store.session(tokenHash: second.tokenHash) == second, "revoking one session hit another")
            try context.expect(try await store.user(id: user.id) != nil, "revoking a session removed the user")
            try await store.close()
        },
        ConformanceCheck("a session's device name comes back byte for byte, through every read and a reopen") {
            context in
            let store = try await context.open()
            let user = Fixtures.user(1)
            let sessions = Fixtures.deviceNames.indices.map { Fixtures.session($0 + 1, user: user.id) }
            try await store.createUser(user, initialSession: sessions[0])
            for session in sessions.dropFirst() {
                try context.expect(
                    try await store.createSession(session, ifPasswordHashIs: Fixtures.passwordHash),
                    "createSession refused")
            }
            _ = try await store.createUsers(
                [Fixtures.user(2)], sessions: [Fixtures.session(sessions.count + 1, user: Fixtures.id(2))])
            let expected = sessions + [Fixtures.session(sessions.count + 1, user: Fixtures.id(2))]
            try await store.close()
            let reopened = try await context.open()
            for session in expected {
                try context.expect(
                    try await reopened.session(tokenHash: session.tokenHash)?.device == session.device,
                    "the device name \(session.device.debugDescription) changed")
                try context.expect(
                    try await reopened.signedIn(tokenHash: session.tokenHash)?.session == session,
                    "signedIn changed the session of \(session.device.debugDescription)")
            }
            try context.expect(
                try await reopened.sessions(userID: user.id) == sessions, "sessions(userID:) changed a device name")
            try await reopened.close()
        },
        ConformanceCheck("signedIn(tokenHash:) reads the session with its user, and nothing for a revoked one") {
            context in
            let store = try await context.open()
            let user = Fixtures.user(1)
            let session = Fixtures.session(1, user: user.id, remember: true)
            var numbered = user
            numbered.number = try await store.createUser(user, initialSession: session)
            try await store.createUser(Fixtures.user(2), initialSession: Fixtures.session(2, user: Fixtures.id(2)))
            let found = try await store.signedIn(tokenHash: session.tokenHash)
            try context.expect(found?.session == session, "signedIn returned another session")
            try context.expect(found?.user == numbered, "signedIn returned another user")
            try context.expect(
                try await store.signedIn(tokenHash: Fixtures.session(9, user: user.id).tokenHash) == nil,
                "signedIn found a session that was never stored")
            _ = try await store.deleteSession(tokenHash: session.tokenHash)
            try context.expect(
                try await store.signedIn(tokenHash: session.tokenHash) == nil, "signedIn found a revoked session")
            try await store.close()
        },
        ConformanceCheck("a password change revokes every other session of that user only") { context in
            let store = try await context.open()
            let user = Fixtures.user(1)
            let other = Fixtures.user(2)
            try await store.createUser(user, initialSession: Fixtures.session(1, user: user.id))
            try await store.createUser(other, initialSession: Fixtures.session(2, user: other.id))
            for n in 3...5 {
                _ = try await store.createSession(
                    Fixtures.session(n, user: user.id), ifPasswordHashIs: Fixtures.passwordHash)
            }
            _ = try await store.updatePassword(
                userID: user.id, passwordHash: "$x$", changedAt: .init(millisecondsSince1970: 5),
                revoking: .all, ifPasswordHashIs: nil)
            try context.expect(try await store.sessions(userID: user.id).isEmpty, "revoke-all left sessions")
            try context.expect(try await store.sessions(userID: other.id).count == 1, "revoke-all hit another user")
            try await store.close()
        },
        ConformanceCheck("a session for a missing user is refused") { context in
            let store = try await context.open()
            let orphan = Fixtures.session(1, user: Fixtures.id(77))
            try context.expect(
                try await store.createSession(orphan, ifPasswordHashIs: Fixtures.passwordHash) == false,
                "a session was stored for a missing user")
            try context.expect(
                try await store.session(tokenHash: orphan.tokenHash) == nil, "the refused session is findable")
            try await store.close()
        },
        ConformanceCheck("removing orphaned sessions from a sound store removes nothing") { context in
            let store = try await context.open()
            for n in 1...3 {
                try await store.createUser(Fixtures.user(n), initialSession: Fixtures.session(n, user: Fixtures.id(n)))
            }
            _ = try await store.deleteUser(id: Fixtures.id(2))
            try context.expect(try await store.deleteOrphanedSessions() == 0, "a sound store had orphaned sessions")
            for n in [1, 3] {
                try context.expect(
                    try await store.sessions(userID: Fixtures.id(n)).count == 1, "a live user's session was removed")
            }
            try await store.close()
        },
    ]
}
