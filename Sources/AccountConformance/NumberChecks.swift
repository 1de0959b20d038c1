import AccountBackendKit
import AccountCore

/// User numbers: given by the store, unique, one past the highest ever given, never given
/// again, kept when an import gives them.
enum NumberChecks {
    static let all: [ConformanceCheck] = [
        ConformanceCheck("each new user gets the next number, which createUser returns") { context in
            let store = try await context.open()
            for n in 1...5 {
                let number = try await store.createUser(Fixtures.user(n), initialSession: nil)
                try context.expect(number == n, "user \(n) got number \(number), expected \(n)")
                let stored = try await store.user(id: Fixtures.id(n))
                try context.expect(
                    stored?.number == n, "user \(n) is stored with number \(String(describing: stored?.number))")
            }
            try await store.close()
        },
        ConformanceCheck("a withdrawn user's number is never given again, even after reopening") { context in
            let store = try await context.open()
            for n in 1...3 { try await store.createUser(Fixtures.user(n), initialSession: nil) }
            try context.expect(try await store.deleteUser(id: Fixtures.id(3)), "user 3 was not deleted")
            let fourth = try await store.createUser(Fixtures.user(4), initialSession: nil)
            try context.expect(fourth == 4, "after the highest withdrew, the next user got \(fourth), expected 4")
            try context.expect(try await store.deleteUser(id: Fixtures.id(4)), "user 4 was not deleted")
            try await store.close()
            guard context.subject.backend.capabilities.contains(.survivesReopen) else { return }
            let reopened = try await context.open()
            let fifth = try await reopened.createUser(Fixtures.user(5), initialSession: nil)
            try context.expect(fifth == 5, "after reopening, the next user got \(fifth), expected 5")
            try await reopened.close()
        },
        ConformanceCheck("given numbers are kept, and later users come after the highest") { context in
            let store = try await context.open()
            var tenth = Fixtures.user(1)
            tenth.number = 10
            var seventh = Fixtures.user(3)
            seventh.number = 7
            // The user without a number comes after every number the batch gives, wherever it is.
            let skipped = try await store.createUsers([tenth, Fixtures.user(2), seventh], sessions: [])
            try context.expect(skipped.isEmpty, "the batch skipped \(skipped)")
            let numbers = try await [1, 2, 3].asyncMap { try await store.user(id: Fixtures.id($0))?.number }
            try context.expect(numbers == [10, 11, 7], "the batch stored numbers \(numbers), expected [10, 11, 7]")
            var twentieth = Fixtures.user(4)
            twentieth.number = 20
            try context.expect(
                try await store.createUser(twentieth, initialSession: nil) == 20, "a given number was not kept")
            let next = try await store.createUser(Fixtures.user(5), initialSession: nil)
            try context.expect(next == 21, "the next user got \(next), expected 21")
            try await store.close()
        },
        ConformanceCheck("the highest number given is raised, never lowered, and kept across a reopen") { context in
            let store = try await context.open()
            try context.expect(try await store.lastUserNumber() == 0, "a new store's highest number is not 0")
            for n in 1...2 { try await store.createUser(Fixtures.user(n), initialSession: nil) }
            try context.expect(try await store.lastUserNumber() == 2, "after two sign-ups the highest number is not 2")
            try await store.raiseLastUserNumber(to: 10)
            try await store.raiseLastUserNumber(to: 5)
            try context.expect(try await store.lastUserNumber() == 10, "raising to 10, then to 5, did not leave 10")
            let next = try await store.createUser(Fixtures.user(3), initialSession: nil)
            try context.expect(next == 11, "after raising to 10 the next user got \(next), expected 11")
            try context.expect(try await store.deleteUser(id: Fixtures.id(3)), "user 3 was not deleted")
            try context.expect(try await store.lastUserNumber() == 11, "a withdrawal lowered the highest number")
            try await store.close()
            guard context.subject.backend.capabilities.contains(.survivesReopen) else { return }
            let reopened = try await context.open()
            try context.expect(
                try await reopened.lastUserNumber() == 11, "after reopening the highest number is not 11")
            try await reopened.close()
        },
        ConformanceCheck("a taken, repeated or non-positive number is refused and stores nothing") { context in
            let store = try await context.open()
            try await store.createUser(Fixtures.user(1), initialSession: nil)
            func refused(_ what: String, _ attempt: () async throws -> Void) async throws {
                do {
                    try await attempt()
                    throw ConformanceFailure("\(what) was accepted")
                } catch let error as AccountError {
                    try context.expect(error.code == "store_io", "\(what) gave \(error.code), expected store_io")
                }
                try context.expect(try await store.userCount() == 1, "\(what) stored a user")
            }
            var taken = Fixtures.user(2)
            taken.number = 1
            try await refused("a taken number") { try await store.createUser(taken, initialSession: nil) }
            try await refused("a batch with a taken number") {
                _ = try await store.createUsers([Fixtures.user(3), taken], sessions: [])
            }
            var first = Fixtures.user(4)
            first.number = 8
            var second = Fixtures.user(5)
            second.number = 8
            try await refused("a batch repeating a number") {
                _ = try await store.createUsers([first, second], sessions: [])
            }
            var zero = Fixtures.user(6)
            zero.number = 0
            try await refused("number 0") { try await store.createUser(zero, initialSession: nil) }
            // Nothing refused may have moved the numbering on.
            let next = try await store.createUser(Fixtures.user(7), initialSession: nil)
            try context.expect(next == 2, "after the refusals, the next user got \(next), expected 2")
            try await store.close()
        },
        ConformanceCheck("100 concurrent sign-ups get 100 distinct numbers") { context in
            let store = try await context.open()
            let numbers = try await withThrowingTaskGroup(of: Int.self) { group in
                for n in 1...100 {
                    group.addTask { try await store.createUser(Fixtures.user(n), initialSession: nil) }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            try context.expect(Set(numbers) == Set(1...100), "the racers got \(Set(numbers).count) distinct numbers")
            let stored = try await store.users(after: nil, limit: 1_000).compactMap(\.number)
            try context.expect(Set(stored) == Set(1...100), "the store holds numbers other than 1…100")
            try await store.close()
        },
        ConformanceCheck("8 processes signing up at once get distinct numbers", requires: .multiProcess) { context in
            guard let processes = context.subject.processes else {
                throw ConformanceFailure(
                    "no way to start other processes was given (ConformanceSubject's processes), so this multi-process check cannot run"
                )
            }
            let store = try await context.open()
            try await store.createUser(Fixtures.user(1), initialSession: nil)
            try await store.close()
            let location = context.subject.configuration(at: context.storePath).location
            try await withThrowingTaskGroup(of: Void.self) { group in
                for n in 1...8 {
                    group.addTask {
                        let (status, output) = try await processes.signUp(location, n)
                        try context.expect(status == 0, "process \(n) exited \(status): \(output)")
                    }
                }
                try await group.waitForAll()
            }
            let reopened = try await context.open(createIfMissing: false)
            let numbers = try await reopened.users(after: nil, limit: 100).compactMap(\.number)
            try context.expect(numbers.count == 9, "\(numbers.count) users have numbers, expected 9")
            try context.expect(Set(numbers) == Set(1...9), "the processes' users got numbers \(numbers.sorted())")
            try await reopened.close()
        },
    ]
}

extension Sequence where Element: Sendable {
    /// The elements mapped one after another by an async call.
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var mapped: [T] = []
        for element in self { mapped.append(try await transform(element)) }
        return mapped
    }
}
