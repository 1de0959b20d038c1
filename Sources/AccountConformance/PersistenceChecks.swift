import AccountBackendKit
import AccountCore

/// Durability across instances: reopening, and two open instances on one path.
enum PersistenceChecks {
    static let all: [ConformanceCheck] = [
        ConformanceCheck("reopening after close keeps everything", requires: .survivesReopen) { context in
            let store = try await context.open()
            let users = (1...20).map {
                Fixtures.user($0, nickname: Fixtures.hostileNicknames[$0 % Fixtures.hostileNicknames.count])
            }
            for user in users {
                try await store.createUser(
                    user,
                    initialSession: Fixtures.session(Int(user.createdAt.millisecondsSince1970 % 100_000), user: user.id)
                )
            }
            let info = try await store.storeInfo()
            try await store.close()
            let reopened = try await context.open()
            try context.expect(try await reopened.storeInfo() == info, "the store id or format changed on reopen")
            try context.expect(try await reopened.userCount() == 20, "count changed on reopen")
            for user in users {
                try context.expectIdentical(try await reopened.user(email: user.email), user, "after reopen")
                try context.expect(
                    try await reopened.sessions(userID: user.id).count == 1, "a session was lost on reopen")
            }
            try await reopened.close()
        },
        ConformanceCheck("two instances on one path see each other's commits", requires: .sharedInstances) { context in
            let first = try await context.open()
            let second = try await context.open()
            let infos = [try await first.storeInfo(), try await second.storeInfo()]
            try context.expect(infos[0] == infos[1], "two instances report different stores")
            try await first.createUser(Fixtures.user(1), initialSession: nil)
            try context.expectIdentical(
                try await second.user(email: Fixtures.email(1)), Fixtures.user(1), "second sees first's user")
            try await second.createUser(Fixtures.user(2), initialSession: Fixtures.session(2, user: Fixtures.id(2)))
            try context.expect(
                try await first.session(tokenHash: Fixtures.tokenHash(2)) != nil, "first sees second's session")
            try context.expect(try await first.deleteUser(id: Fixtures.id(2)), "first could not delete second's user")
            try context.expect(try await second.user(id: Fixtures.id(2)) == nil, "second still sees a deleted user")
            let counts = [try await first.userCount(), try await second.userCount()]
            try context.expect(counts == [1, 1], "the instances count \(counts) users")
            try await first.close()
            try await second.close()
        },
        ConformanceCheck("a missing store is store_not_found when it may not be created, and nothing is made") {
            context in
            let before = try await context.snapshot()
            try await context.expectError("store_not_found", "opening a missing store without creating it") {
                try await context.open(createIfMissing: false)
            }
            try context.expect(try await context.snapshot() == before, "opening a missing store left something behind")
            let created = try await context.open()
            try await created.createUser(Fixtures.user(1), initialSession: nil)
            try await created.close()
            let existing = try await context.open(createIfMissing: false)
            try context.expect(try await existing.userCount() == 1, "an existing store did not open without create")
            try await existing.close()
        },
        ConformanceCheck("every store records a format, a version and its own id") { context in
            let store = try await context.open()
            let info = try await store.storeInfo()
            try context.expect(!info.formatName.isEmpty, "no format name")
            try context.expect(
                info.formatVersion == context.subject.currentFormatVersion, "format version \(info.formatVersion)")
            try context.expect(info.storeID.count >= 16, "store id '\(info.storeID)' is too short to be unique")
            try await store.close()
            let other = try await context.open(context.path("second-" + context.subject.storeFileName))
            try context.expect(try await other.storeInfo().storeID != info.storeID, "two new stores share an id")
            try await other.close()
        },
    ]
}
