import AccountCore

/// An account's state (blocked, a temporary password, a proven email) and the services' values.
enum StateChecks {
    static let all: [ConformanceCheck] = [
        ConformanceCheck("an account's state round-trips, one by one and in a batch") { context in
            let store = try await context.open()
            var states: [UserRecord] = []
            for n in 1...8 {
                var user = Fixtures.user(n)
                user.isBlocked = n & 1 != 0
                user.mustChangePassword = n & 2 != 0
                user.emailVerifiedAt = n & 4 != 0 ? Timestamp(millisecondsSince1970: -1_000 + Int64(n)) : nil
                states.append(user)
            }
            for user in states.prefix(4) { try await store.createUser(user, initialSession: nil) }
            try context.expect(
                try await store.createUsers(Array(states.suffix(4)), sessions: []).isEmpty, "the batch skipped a user")
            for user in states {
                try context.expectIdentical(try await store.user(email: user.email), user, "by email")
                try context.expectIdentical(try await store.user(id: user.id), user, "by id")
            }
            let listed = try await store.users(after: nil, limit: 10)
            for user in states {
                try context.expectIdentical(listed.first { $0.id == user.id }, user, "listed")
            }
            try await store.close()
            let reopened = try await context.open()
            for user in states {
                try context.expectIdentical(try await reopened.user(id: user.id), user, "after reopening")
            }
            try await reopened.close()
        },
        ConformanceCheck("blocking signs the user out everywhere at once and changes nothing else") { context in
            let store = try await context.open()
            let user = Fixtures.user(1)
            let other = Fixtures.user(2)
            try await store.createUser(user, initialSession: Fixtures.session(1, user: user.id))
            try await store.createUser(other, initialSession: Fixtures.session(2, user: other.id))
            try context.expect(
                try await store.createSession(Fixtures.session(3, user: user.id), ifPasswordHashIs: user.passwordHash),
                "a second session was refused")
            try context.expect(try await store.setBlocked(userID: user.id, true), "setBlocked found no user")
            var blocked = user
            blocked.isBlocked = true
            try context.expectIdentical(try await store.user(id: user.id), blocked, "blocked")
            try context.expect(try await store.sessions(userID: user.id).isEmpty, "a blocked user kept a session")
            try context.expect(
                try await store.session(tokenHash: Fixtures.tokenHash(3)) == nil, "a blocked user's session answers")
            try context.expect(
                try await store.sessions(userID: other.id) == [Fixtures.session(2, user: other.id)],
                "another user's session went too")
            try context.expect(try await store.setBlocked(userID: user.id, false), "unblocking found no user")
            try context.expectIdentical(try await store.user(id: user.id), user, "unblocked")
            try context.expect(try await store.sessions(userID: user.id).isEmpty, "unblocking brought a session back")
            try context.expect(
                try await store.setBlocked(userID: Fixtures.id(99), true) == false, "blocking a missing user succeeded")
            try context.expect(try await store.userCount() == 2, "blocking changed the count")
            try context.expect(try await store.integrityCheck() == ["ok"], "blocking left the store inconsistent")
            try await store.close()
        },
        ConformanceCheck("a proven email is recorded and cleared, and a password change ends a temporary password") {
            context in
            let store = try await context.open()
            var user = Fixtures.user(1)
            user.mustChangePassword = true
            try await store.createUser(user, initialSession: nil)
            let proven = Timestamp(millisecondsSince1970: 1_700_000_500_000)
            try context.expect(try await store.setEmailVerified(userID: user.id, at: proven), "no user to prove")
            user.emailVerifiedAt = proven
            try context.expectIdentical(try await store.user(id: user.id), user, "proven")
            try context.expect(
                try await store.setEmailVerified(userID: Fixtures.id(99), at: proven) == false,
                "proving a missing user's email succeeded")
            let changed = Timestamp(millisecondsSince1970: 1_700_000_600_000)
            try context.expect(
                try await store.updatePassword(
                    userID: user.id, passwordHash: Fixtures.passwordHash + "2", changedAt: changed, revoking: .none,
                    ifPasswordHashIs: user.passwordHash), "the change was refused")
            user.passwordHash = Fixtures.passwordHash + "2"
            user.passwordChangedAt = changed
            user.mustChangePassword = false
            try context.expectIdentical(try await store.user(id: user.id), user, "after the change")
            try context.expect(try await store.setEmailVerified(userID: user.id, at: nil), "no user to unprove")
            user.emailVerifiedAt = nil
            try context.expectIdentical(try await store.user(id: user.id), user, "unproven")
            try await store.close()
        },
        ConformanceCheck("the services' values are kept apart from the store's own, replaced, removed, and durable") {
            context in
            let store = try await context.open()
            let info = try await store.storeInfo()
            try context.expect(try await store.storeValue(forKey: "format") == nil, "a value nobody set answers")
            // Keys a backend may use for itself: setting them must not touch the store's own.
            let text = "{\"users\": 3} ✓ 한국 \\ \n\u{1}"
            for key in ["format", "store_id", "format_version", "last_user_number", "import:django:ab12"] {
                try await store.setStoreValue(text + key, forKey: key)
            }
            try context.expect(try await store.storeInfo() == info, "a value changed the store's own description")
            try await store.setStoreValue("second", forKey: "format")
            try await store.setStoreValue(nil, forKey: "store_id")
            try await store.setStoreValue(nil, forKey: "never-set")
            let user = Fixtures.user(1)
            try await store.createUser(user, initialSession: nil)
            try await store.close()
            let reopened = try await context.open()
            try context.expect(try await reopened.storeInfo() == info, "after reopening, the store is another")
            try context.expect(try await reopened.storeValue(forKey: "format") == "second", "a replaced value")
            try context.expect(try await reopened.storeValue(forKey: "store_id") == nil, "a removed value came back")
            try context.expect(
                try await reopened.storeValue(forKey: "import:django:ab12") == text + "import:django:ab12",
                "a value's bytes changed")
            try context.expect(try await reopened.lastUserNumber() == 1, "the values moved the numbering")
            try context.expect(try await reopened.integrityCheck() == ["ok"], "values left the store inconsistent")
            try await reopened.close()
        },
    ]
}
