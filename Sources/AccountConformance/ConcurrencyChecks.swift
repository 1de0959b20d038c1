import AccountBackendKit
import AccountCore

/// Races: the uniqueness promise under concurrent creators, and no lost writes.
enum ConcurrencyChecks {
    static let all: [ConformanceCheck] = [
        ConformanceCheck(
            "8 instances opening one new store at once all succeed and see one store", requires: .sharedInstances
        ) {
            context in
            // Each opens the same missing store at once: creation must never show a half-made
            // store to another opener (which would call it foreign or damaged).
            let infos = try await withThrowingTaskGroup(of: StoreInfo.self) { group in
                for n in 1...8 {
                    group.addTask {
                        let store = try await context.open()
                        try await store.createUser(Fixtures.user(n), initialSession: nil)
                        let info = try await store.storeInfo()
                        try await store.close()
                        return info
                    }
                }
                return try await group.reduce(into: [StoreInfo]()) { $0.append($1) }
            }
            try context.expect(Set(infos).count == 1, "the openers saw \(Set(infos).count) different stores")
            let store = try await context.open()
            try context.expect(try await store.userCount() == 8, "not every opener's user landed")
            try await store.close()
        },
        ConformanceCheck("8 processes creating one new store at once all succeed and share it", requires: .multiProcess)
        { context in
            guard let processes = context.subject.processes else {
                throw ConformanceFailure(
                    "no way to start other processes was given (ConformanceSubject's processes), so this multi-process check cannot run"
                )
            }
            let location = context.subject.configuration(at: context.storePath).location
            let results = try await withThrowingTaskGroup(of: (Int, Int32, String).self) { group in
                for n in 1...8 {
                    group.addTask {
                        let (status, output) = try await processes.signUp(location, n)
                        return (n, status, output)
                    }
                }
                return try await group.reduce(into: [(Int, Int32, String)]()) { $0.append($1) }
            }
            for (n, status, output) in results.sorted(by: { $0.0 < $1.0 }) {
                try context.expect(status == 0, "process \(n) exited \(status): \(output)")
            }
            let store = try await context.open(createIfMissing: false)
            try context.expect(try await store.userCount() == 8, "not every process's user landed")
            try await store.close()
        },
        ConformanceCheck("50 concurrent creates of one email give exactly one success") { context in
            let store = try await context.open()
            let email = Fixtures.email(42)
            let outcomes = try await withThrowingTaskGroup(of: String.self) { group in
                for n in 1...50 {
                    group.addTask {
                        do {
                            try await store.createUser(
                                Fixtures.user(n, email: email),
                                initialSession: Fixtures.session(n, user: Fixtures.id(n)))
                            return "ok"
                        } catch let error as AccountError {
                            return error.code
                        }
                    }
                }
                return try await group.reduce(into: [String]()) { $0.append($1) }
            }
            let successes = outcomes.filter { $0 == "ok" }.count
            let taken = outcomes.filter { $0 == "email_taken" }.count
            try context.expect(successes == 1, "\(successes) creators succeeded, expected exactly 1")
            try context.expect(taken == 49, "\(taken) got email_taken, expected 49 (others: \(Set(outcomes)))")
            let count = try await store.userCount()
            try context.expect(count == 1, "the store holds \(count) users")
            guard let winner = try await store.user(email: email) else { throw ConformanceFailure("no user stored") }
            let sessions = try await store.sessions(userID: winner.id)
            try context.expect(sessions.count == 1, "the winner has \(sessions.count) sessions, expected 1")
            try await store.close()
        },
        ConformanceCheck("sessions opened while their user withdraws are never left behind") { context in
            let store = try await context.open()
            for n in 1...20 {
                let user = Fixtures.user(n)
                try await store.createUser(user, initialSession: Fixtures.session(n, user: user.id))
                // Logins racing the withdrawal: each either lands before it (and goes with the
                // user) or finds the user gone; none may outlive the user.
                let sessions = (1...4).map { Fixtures.session(1_000 + n * 10 + $0, user: user.id) }
                let deleted = try await withThrowingTaskGroup(of: Bool?.self) { group in
                    for session in sessions {
                        group.addTask {
                            _ = try await store.createSession(session, ifPasswordHashIs: Fixtures.passwordHash)
                            return nil
                        }
                    }
                    group.addTask { try await store.deleteUser(id: user.id) }
                    return try await group.reduce(into: [Bool]()) { deleted, outcome in
                        if let outcome { deleted.append(outcome) }
                    }
                }
                try context.expect(deleted == [true], "round \(n): the withdrawal did not delete the user")
                for session in sessions {
                    try context.expect(
                        try await store.session(tokenHash: session.tokenHash) == nil,
                        "round \(n): a session outlived its withdrawn user")
                }
            }
            try context.expect(try await store.deleteOrphanedSessions() == 0, "the store holds orphaned sessions")
            try await store.close()
        },
        ConformanceCheck("200 concurrent creates of distinct emails all land", requires: .survivesReopen) { context in
            let store = try await context.open()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for n in 1...200 {
                    group.addTask { try await store.createUser(Fixtures.user(n), initialSession: nil) }
                }
                try await group.waitForAll()
            }
            let count = try await store.userCount()
            try context.expect(count == 200, "count is \(count), expected 200")
            for n in 1...200 {
                try context.expectIdentical(
                    try await store.user(email: Fixtures.email(n)), Fixtures.user(n), "user \(n)")
            }
            try await store.close()
            let reopened = try await context.open()
            try context.expect(try await reopened.userCount() == 200, "after reopening, count is not 200")
            try await reopened.close()
        },
        ConformanceCheck("two instances on one path race on one email: one wins", requires: .sharedInstances) {
            context in
            let first = try await context.open()
            let second = try await context.open()
            let email = Fixtures.email(7)
            async let a: String = attempt(first, Fixtures.user(1, email: email))
            async let b: String = attempt(second, Fixtures.user(2, email: email))
            let results = try await [a, b].sorted()
            try context.expect(
                results == ["email_taken", "ok"], "results were \(results), expected one ok and one email_taken")
            let counts = [try await first.userCount(), try await second.userCount()]
            try context.expect(counts == [1, 1], "the instances count \(counts) users")
            try await first.close()
            try await second.close()
        },
    ]

    private static func attempt(_ store: any UserRepository, _ user: UserRecord) async throws -> String {
        do {
            try await store.createUser(user, initialSession: nil)
            return "ok"
        } catch let error as AccountError {
            return error.code
        }
    }
}
