import AccountCore
import AccountTestSupport
import MemoryBackend
import Testing

@Suite("Paging over a store")
struct UserPagesTests {
    func store(users count: Int) async throws -> MemoryUserRepository {
        let store = MemoryUserRepository()
        let random = SeededRandom()
        let users = (0..<count).map { index in
            UserRecord(
                id: .random(using: random), email: "user\(1000 + index)@example.com", nickname: "이순신",
                passwordHash: "$argon2id$v=19$m=8,t=1,p=1$c2FsdA$aGFzaA", createdAt: Timestamp(millisecondsSince1970: 0)
            )
        }
        #expect(try await store.createUsers(users).isEmpty)
        return store
    }

    @Test(
        "every user exactly once, in email order, whatever the page size",
        arguments: [(users: 0, size: 3), (5, 2), (6, 3), (6, 6), (5, 500), (7, 1)])
    func walk(_ shape: (users: Int, size: Int)) async throws {
        let store = try await store(users: shape.users)
        var pages: [[UserRecord]] = []
        for try await page in store.userPages(size: shape.size) { pages.append(page) }
        let emails = pages.flatMap { $0.map(\.email) }
        #expect(emails == (0..<shape.users).map { "user\(1000 + $0)@example.com" })
        #expect(pages.allSatisfy { !$0.isEmpty && $0.count <= shape.size }, "no empty or oversized page")
        #expect(pages.count == (shape.users + shape.size - 1) / shape.size)
    }
}
