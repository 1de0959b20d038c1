import AccountBackendKit
import AccountCore
import BackendTestSupport
import Foundation
import PostgresNIO
import Synchronization
import Testing

@testable import PostgresBackend

/// The prepared session lookup names its tables without a schema and relies on the pooled
/// connections' search path; these checks pin that it never reads another store's schema.
@Suite(
    "PostgreSQL session lookup",
    .enabled(if: PostgresTestServer.isConfigured, Comment(rawValue: PostgresTestServer.skipReason)))
struct PostgresSessionLookupTests {
    static let digest = String(repeating: "ab", count: 32)

    /// Tells the reading tasks to stop.
    final class StopSignal: Sendable {
        private let raised = Atomic<Bool>(false)
        var isRaised: Bool { raised.load(ordering: .acquiring) }
        func raise() { raised.store(true, ordering: .releasing) }
    }

    static func options(schema: String) throws -> PostgresOptions {
        try PostgresBackendDescriptor.connectionOptions(
            BackendConfiguration(location: schema, values: PostgresTestServer.values))
    }

    /// A store holding one user signed in with `digest`.
    static func store(schema: String, nickname: String) async throws -> PostgresRepository {
        let store = try await PostgresRepository.open(try options(schema: schema))
        let user = UserRecord(
            id: UserID(rawValue: String(repeating: "1", count: 32)), email: "leesoon7@example.com", nickname: nickname,
            passwordHash: "$argon2id$", createdAt: Timestamp(millisecondsSince1970: 5))
        let session = SessionRecord(
            tokenHash: digest, userID: user.id, createdAt: user.createdAt, lastSeenAt: user.createdAt,
            expiresAt: Timestamp(millisecondsSince1970: 9_000_000_000_000), idleTimeoutSeconds: 3_600, remember: false)
        try await store.createUser(user, initialSession: session)
        return store
    }

    static func count(_ lookup: SignedInLookup, on connection: PostgresConnection) async throws -> Int {
        var rows = 0
        for try await _ in try await connection.execute(lookup, logger: PostgresConnector.logger) { rows += 1 }
        return rows
    }

    @Test("two stores in two schemas of one database, in one process, each reads its own session")
    func storesStayApart() async throws {
        let first = PostgresTestServer.uniqueSchema("lookup_a")
        let second = PostgresTestServer.uniqueSchema("lookup_b")
        try await PostgresTestServer.run {
            let a = try await Self.store(schema: first, nickname: "first")
            let b = try await Self.store(schema: second, nickname: "second")
            // Several rounds, so that each pool prepares the statement on more than one connection.
            for _ in 0..<20 {
                #expect(try await a.signedIn(tokenHash: Self.digest)?.user?.nickname == "first")
                #expect(try await b.signedIn(tokenHash: Self.digest)?.user?.nickname == "second")
            }
            _ = try await b.deleteSession(tokenHash: Self.digest)
            #expect(try await b.signedIn(tokenHash: Self.digest) == nil)
            #expect(try await a.signedIn(tokenHash: Self.digest)?.user?.nickname == "first")
            try await a.close()
            try await b.close()
        } thenCleanUp: {
            await PostgresTestServer.drop(schema: first)
            await PostgresTestServer.drop(schema: second)
        }
    }

    @Test("many lookups at once, folded into shared queries, each get their own session and user")
    func concurrentLookupsGetTheirOwn() async throws {
        let schema = PostgresTestServer.uniqueSchema("lookup_many")
        try await PostgresTestServer.run {
            let store = try await PostgresRepository.open(try Self.options(schema: schema))
            let digests = (0..<20).map { n in String(repeating: (n < 16 ? "0" : "") + String(n, radix: 16), count: 32) }
            // Sessions for the first 16 digests; the last 4 belong to nobody.
            for n in 0..<16 {
                let user = UserRecord(
                    id: UserID(rawValue: String(repeating: String(n, radix: 16), count: 32)),
                    email: "user\(n)@example.com", nickname: "닉\(n)", passwordHash: "$argon2id$",
                    createdAt: Timestamp(millisecondsSince1970: Int64(n)))
                let session = SessionRecord(
                    tokenHash: digests[n], userID: user.id, createdAt: user.createdAt, lastSeenAt: user.createdAt,
                    expiresAt: Timestamp(millisecondsSince1970: 9_000_000_000_000), idleTimeoutSeconds: 60,
                    remember: n.isMultiple(of: 2))
                try await store.createUser(user, initialSession: session)
            }
            let answers = try await withThrowingTaskGroup(of: (Int, String?, String?, Bool?).self) { group in
                for request in 0..<400 {
                    group.addTask {
                        let found = try await store.signedIn(tokenHash: digests[request % 20])
                        return (request, found?.session.tokenHash, found?.user?.nickname, found?.session.remember)
                    }
                }
                return try await group.reduce(into: [:]) { $0[$1.0] = ($1.1, $1.2, $1.3) }
            }
            #expect(answers.count == 400)
            for (request, answer) in answers {
                let n = request % 20
                if n < 16 {
                    #expect(answer.0 == digests[n] && answer.1 == "닉\(n)" && answer.2 == n.isMultiple(of: 2))
                } else {
                    #expect(answer.0 == nil && answer.1 == nil)
                }
            }
            try await store.close()
        } thenCleanUp: {
            await PostgresTestServer.drop(schema: schema)
        }
    }

    /// Under a steady stream of reads a lookup connection serves batch after batch without going
    /// back to the pool: each batch is still a query of its own, which sees every change another
    /// host committed before it, and writes still get a connection.
    @Test(
        "while lookups keep a pool's connections busy, another host's logout and touch are seen at once",
        arguments: [2, 3, 8])
    func heldConnectionsSeeOtherHosts(poolSize: Int) async throws {
        let schema = PostgresTestServer.uniqueSchema("lookup_held")
        try await PostgresTestServer.run {
            var values = PostgresTestServer.values
            values["pool_size"] = .integer(poolSize)
            let reader = try await PostgresRepository.open(
                try PostgresBackendDescriptor.connectionOptions(BackendConfiguration(location: schema, values: values)))
            let otherHost = try await PostgresRepository.open(try Self.options(schema: schema))
            let digests = (0..<20).map { n in String(format: "%064x", n + 1) }
            for n in 0..<20 {
                let user = UserRecord(
                    id: UserID(rawValue: String(format: "%032x", n + 1)), email: "held\(n)@example.com",
                    nickname: "held\(n)", passwordHash: "$argon2id$", createdAt: Timestamp(millisecondsSince1970: 1))
                try await otherHost.createUser(
                    user,
                    initialSession: SessionRecord(
                        tokenHash: digests[n], userID: user.id, createdAt: user.createdAt, lastSeenAt: user.createdAt,
                        expiresAt: Timestamp(millisecondsSince1970: 9_000_000_000_000), idleTimeoutSeconds: 60,
                        remember: false))
            }
            let stop = StopSignal()
            let readers = Task {
                try await withThrowingTaskGroup(of: Int.self) { group in
                    for stream in 0..<16 {
                        group.addTask {
                            var reads = 0
                            while !stop.isRaised {
                                let found = try await reader.signedIn(tokenHash: digests[stream % 10])
                                #expect(found?.user?.nickname == "held\(stream % 10)")
                                reads += 1
                            }
                            return reads
                        }
                    }
                    return try await group.reduce(0, +)
                }
            }
            for n in 10..<20 {
                let seen = Timestamp(millisecondsSince1970: Int64(1_000 + n))
                try await otherHost.touchSession(tokenHash: digests[n], lastSeenAt: seen)
                #expect(try await reader.signedIn(tokenHash: digests[n])?.session.lastSeenAt == seen)
                #expect(try await otherHost.deleteSession(tokenHash: digests[n]))
                #expect(try await reader.signedIn(tokenHash: digests[n]) == nil)
                // A write through the reading store itself still gets a pooled connection.
                try await reader.touchSession(tokenHash: digests[0], lastSeenAt: seen)
            }
            stop.raise()
            #expect(try await readers.value > 0)
            #expect(try await reader.userCount() == 20)
            try await reader.close()
            try await otherHost.close()
        } thenCleanUp: {
            await PostgresTestServer.drop(schema: schema)
        }
    }

    @Test("on a connection whose search path is not the store's schema, the lookup finds nothing")
    func otherSearchPathFindsNothing() async throws {
        let schema = PostgresTestServer.uniqueSchema("lookup_path")
        try await PostgresTestServer.run {
            let store = try await Self.store(schema: schema, nickname: "kept")
            try await store.close()
            let connector = try PostgresConnector(try Self.options(schema: schema))
            let lookup = SignedInLookup(tokenHashes: [Self.digest], schema: schema)
            // A direct connection has the server's default search path, which has no such tables in
            // this database: PostgreSQL refuses the statement outright.
            let refused = try await connector.withConnection { connection in
                await #expect(throws: (any Error).self) { try await Self.count(lookup, on: connection) }
            }
            #expect(refused != nil)
            // The store's tables in the path, but another schema first: the guard finds nothing.
            let decoyed = try await connector.withConnection { connection in
                try await connection.run("CREATE SCHEMA IF NOT EXISTS \(unescaped: schema)_decoy")
                try await connection.run("SET search_path = \(unescaped: schema)_decoy, \(unescaped: schema)")
                return try await Self.count(lookup, on: connection)
            }
            #expect(decoyed == 0)
            let right = try await connector.withConnection { connection in
                try await connection.run("SET search_path = \(unescaped: schema)")
                return try await Self.count(lookup, on: connection)
            }
            #expect(right == 1)
        } thenCleanUp: {
            await PostgresTestServer.drop(schema: schema)
        }
    }

    /// PostgresNIO remembers a failed preparation for the connection's life; the repository hands
    /// such a connection back closed, so the store recovers with the next request.
    @Test("a lookup that fails to prepare does not leave a connection that fails every lookup after it")
    func failedPreparationRecovers() async throws {
        let schema = PostgresTestServer.uniqueSchema("lookup_prepare")
        try await PostgresTestServer.run {
            try await (try await Self.store(schema: schema, nickname: "kept")).close()
            let connector = try PostgresConnector(try Self.options(schema: schema))
            // A fresh pool, whose first preparation meets a missing table.
            let store = try await PostgresRepository.open(try Self.options(schema: schema))
            try await connector.withConnection { connection in
                try await connection.run("ALTER TABLE \(unescaped: schema).sessions RENAME TO sessions_away")
            }
            await #expect(throws: (any Error).self) { try await store.signedIn(tokenHash: Self.digest) }
            try await connector.withConnection { connection in
                try await connection.run("ALTER TABLE \(unescaped: schema).sessions_away RENAME TO sessions")
            }
            for _ in 0..<5 {
                #expect(try await store.signedIn(tokenHash: Self.digest)?.user?.nickname == "kept")
            }
            try await store.close()
        } thenCleanUp: {
            await PostgresTestServer.drop(schema: schema)
        }
    }
}
