import AccountBackendKit
import AccountCore
import BackendTestSupport
import Foundation
import Testing

@testable import PostgresBackend

/// A `host` that is a folder reaches the server through its Unix socket, as libpq does; the
/// store is the same one TCP reaches, and a missing socket is a typed error naming it.
@Suite(
    "PostgreSQL over a Unix socket",
    .enabled(if: PostgresTestServer.socketFolder != nil, Comment(rawValue: PostgresTestServer.socketSkipReason)))
struct PostgresUnixSocketTests {
    static let digest = String(repeating: "cd", count: 32)

    static func options(schema: String, host: String) throws -> PostgresOptions {
        var values = PostgresTestServer.values
        values["host"] = .word(host)
        return try PostgresBackendDescriptor.connectionOptions(BackendConfiguration(location: schema, values: values))
    }

    @Test("a store opened through the socket is the one TCP reaches: writes through either are seen at once")
    func sameStoreBothWays() async throws {
        let folder = try #require(PostgresTestServer.socketFolder)
        let schema = PostgresTestServer.uniqueSchema("socket")
        try await PostgresTestServer.run {
            let socketOptions = try Self.options(schema: schema, host: folder)
            #expect(socketOptions.unixSocketPath == folder + "/.s.PGSQL.\(socketOptions.port)")
            #expect(socketOptions.location.contains("?host=\(folder)"))
            let overSocket = try await PostgresRepository.open(socketOptions)
            let overTCP = try await PostgresRepository.open(
                try Self.options(schema: schema, host: PostgresTestServer.environment["TEST_POSTGRES_HOST"] ?? ""))
            let user = UserRecord(
                id: UserID(rawValue: String(repeating: "2", count: 32)), email: "socket7@example.com",
                nickname: "소켓", passwordHash: "$argon2id$", createdAt: Timestamp(millisecondsSince1970: 7))
            let session = SessionRecord(
                tokenHash: Self.digest, userID: user.id, createdAt: user.createdAt, lastSeenAt: user.createdAt,
                expiresAt: Timestamp(millisecondsSince1970: 9_000_000_000_000), idleTimeoutSeconds: 3_600,
                remember: true)
            try await overSocket.createUser(user, initialSession: session)
            #expect(try await overTCP.signedIn(tokenHash: Self.digest)?.user?.nickname == "소켓")
            #expect(try await overSocket.signedIn(tokenHash: Self.digest)?.user?.nickname == "소켓")
            #expect(try await overTCP.deleteSession(tokenHash: Self.digest))
            #expect(try await overSocket.signedIn(tokenHash: Self.digest) == nil, "a logout over TCP is seen at once")
            try await overSocket.close()
            try await overTCP.close()
        } thenCleanUp: {
            await PostgresTestServer.drop(schema: schema)
        }
    }

    @Test("a folder with no server's socket in it is store_io naming the socket, at once")
    func missingSocket() async throws {
        let empty = FileManager.default.temporaryDirectory.path + "/accounts-nosocket-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: empty) }
        do {
            let store = try await PostgresRepository.open(try Self.options(schema: "accounts", host: empty))
            try await store.close()
            Issue.record("a store opened through a socket that does not exist")
        } catch let error as AccountError {
            #expect(error.code == "store_io")
            #expect(error.message(.english).contains(empty), "the message names the folder")
            #expect(!error.message(.english).contains(PostgresTestServer.environment["TEST_POSTGRES_PASSWORD"] ?? "-"))
        }
    }
}
