import AccountBackendKit
import AccountCore
import AccountTestSupport
import BackendTestSupport
import Foundation
import PostgresNIO
import Testing

@testable import PostgresBackend

/// `postgres.tls` and `postgres.tls_ca_file` against a server that really serves TLS, and what is
/// refused before anything connects.
// Ten minutes: alone the suite takes 3 s, but in the whole run its tests start with every other
// and wait for the two cores: in CI one reported 213 s, too near the 5 minutes other suites allow.
@Suite("PostgreSQL TLS", .timeLimit(.minutes(10)))
struct PostgresTLSTests {
    /// Opens a store with `values`, counts its users (so the pool makes a connection), runs
    /// `body`, and closes the store, whether `body` threw or not.
    static func withOpenStore<T>(
        _ values: [String: BackendOptionValue], schema: String, _ body: () async throws -> T
    ) async throws -> T {
        let repository = try await PostgresRepository.open(
            try PostgresBackendDescriptor.connectionOptions(BackendConfiguration(location: schema, values: values)))
        let result: T
        do {
            _ = try await repository.userCount()
            result = try await body()
        } catch {
            try? await repository.close()
            throw error
        }
        try await repository.close()
        return result
    }

    /// The `AccountError` that opening a store with `values` and reading it throws, or a recorded
    /// issue (and `nil`) when it opens.
    static func refusal(_ values: [String: BackendOptionValue], schema: String) async -> AccountError? {
        await #expect(throws: AccountError.self) { try await withOpenStore(values, schema: schema) {} }
    }

    /// Runs `sql` on one connection made with `values`; its first column, as a `Bool`, per row.
    static func flags(_ sql: PostgresQuery, _ values: [String: BackendOptionValue]) async throws -> [Bool] {
        try await PostgresTestServer.withDirectConnection(values) { connection in
            try await connection.rows(sql).map { try $0.decode(Bool.self) }
        }
    }

    /// The server's clock, as text PostgreSQL reads back as a `timestamptz`.
    static func serverTime(_ values: [String: BackendOptionValue]) async throws -> String {
        try await PostgresTestServer.withDirectConnection(values) { connection in
            try await connection.rows("SELECT clock_timestamp()::text").first?.decode(String.self) ?? ""
        }
    }

    @Test(
        "verify-full trusts only tls_ca_file's roots and the certificate's name; require and prefer encrypt; disable does not",
        .enabled(if: PostgresTestServer.isConfigured, Comment(rawValue: PostgresTestServer.skipReason)),
        .enabled(if: TestCertificate.isAvailable, Comment(rawValue: TestCertificate.skipReason)))
    func againstATLSServer() async throws {
        let scratch = try ScratchFolder("postgres-tls")
        // The server's certificate names `localhost` only; `other` is a root it does not chain to.
        let server = try await TestCertificate.make(in: scratch.path, name: "server", subjectAltName: "DNS:localhost")
        let other = try await TestCertificate.make(in: scratch.path, name: "other", subjectAltName: "DNS:localhost")
        let cluster = try await PostgresTLSCluster.start(server)
        try await PostgresTestServer.run(
            { try await Self.checkModes(cluster, server: server, other: other) }, thenCleanUp: { await cluster.stop() })
    }

    /// The checks of `againstATLSServer`, on its cluster.
    static func checkModes(_ cluster: PostgresTLSCluster, server: TestCertificate, other: TestCertificate) async throws
    {
        let trusted = cluster.values(host: "localhost", tls: "verify-full", caFile: server.certificate)
        let encrypted = "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()" as PostgresQuery
        func schemaExists(_ name: String) async throws -> Bool {
            try await Self.flags(
                "SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = \(name))", trusted
            ) == [true]
        }

        let untrusted = "does not chain to a trusted root"
        let refusals: [(label: String, values: [String: BackendOptionValue], says: String)] = [
            ("the system's roots", cluster.values(host: "localhost", tls: "verify-full"), untrusted),
            (
                "another root", cluster.values(host: "localhost", tls: "verify-full", caFile: other.certificate),
                untrusted
            ),
            (
                "a name the certificate does not hold",
                cluster.values(host: "127.0.0.1", tls: "verify-full", caFile: server.certificate),
                "does not name the host it was reached by (postgres.host)"
            ),
        ]
        for (index, refusal) in refusals.enumerated() {
            let schema = "refused_\(index)"
            let error = await Self.refusal(refusal.values, schema: schema)
            #expect(error?.code == "store_io", "verify-full with \(refusal.label): \(String(describing: error))")
            #expect(
                error?.message(.english).contains(refusal.says) == true,
                "\(refusal.label): \(error?.message(.english) ?? "no error")")
            #expect(try await schemaExists(schema) == false, "\(refusal.label): the store was created")
        }

        // The pool makes its connections apart from the direct ones: the server's view of the
        // connections started since `started`, but the asking one, is the pool's (and that of the
        // direct connection `open` migrates with, in the same mode). Earlier modes' connections,
        // closed but perhaps not yet gone, started before.
        let modes: [(mode: String, values: [String: BackendOptionValue], encrypted: Bool)] = [
            ("verify-full", trusted, true),
            ("require", cluster.values(host: "127.0.0.1", tls: "require"), true),
            ("prefer", cluster.values(host: "127.0.0.1", tls: "prefer"), true),
            ("disable", cluster.values(host: "127.0.0.1", tls: "disable"), false),
        ]
        for (mode, values, expected) in modes {
            let started = try await Self.serverTime(trusted)
            let schema = "mode_\(mode.replacingOccurrences(of: "-", with: "_"))"
            let pooled = try await Self.withOpenStore(values, schema: schema) {
                try await Self.flags(
                    """
                    SELECT s.ssl FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid)
                    WHERE a.backend_type = 'client backend' AND a.pid <> pg_backend_pid()
                      AND a.backend_start >= \(started)::timestamptz
                    """, trusted)
            }
            #expect(
                !pooled.isEmpty && pooled.allSatisfy { $0 == expected },
                "tls \(mode), the pool's connections: \(pooled)")
            #expect(try await Self.flags(encrypted, values) == [expected], "tls \(mode), a direct connection")
            #expect(try await schemaExists(schema), "tls \(mode)")
        }
    }

    @Test(
        "require against a server without TLS is store_io saying so, and creates nothing",
        .enabled(if: PostgresTestServer.isConfigured, Comment(rawValue: PostgresTestServer.skipReason)))
    func requireWithoutTLS() async throws {
        let schema = PostgresTestServer.uniqueSchema("require")
        var values = PostgresTestServer.values
        values["tls"] = .word("require")
        let error = await Self.refusal(values, schema: schema)
        #expect(error?.code == "store_io")
        #expect(error?.message(.english).contains("the server does not offer TLS") == true)
        #expect(try await PostgresTestServer.snapshot(schema: schema).isEmpty, "a schema was created")
    }

    @Test("tls_ca_file is checked before connecting: read, PEM, and only with verify-full")
    func caFileChecks() async throws {
        let scratch = try ScratchFolder("postgres-tls-ca")
        let notPEM = scratch.path + "/not.pem"
        try Data("not a certificate\n".utf8).write(to: URL(fileURLWithPath: notPEM))
        // Port 1 on loopback: were anything to connect, it would be store_io, not config_invalid.
        func validate(tls: String, caFile: String?) -> AccountError? {
            var values = PostgresBackendDescriptor().defaultValues
            values["host"] = .word("127.0.0.1")
            values["port"] = .integer(1)
            values["tls"] = .word(tls)
            values["tls_ca_file"] = caFile.map { .word($0) }
            do {
                try PostgresBackendDescriptor().validate(BackendConfiguration(location: "crm", values: values))
                return nil
            } catch {
                return error
            }
        }
        let cases: [(tls: String, file: String, says: String)] = [
            ("verify-full", scratch.path + "/missing.pem", "No such file or directory"),
            ("verify-full", notPEM, "holds no PEM certificate"),
            ("verify-full", scratch.path, "holds no PEM certificate"),
            ("require", notPEM, "read only with postgres.tls verify-full"),
            ("prefer", notPEM, "read only with postgres.tls verify-full"),
        ]
        for (tls, file, says) in cases {
            let error = validate(tls: tls, caFile: file)
            #expect(error?.code == "config_invalid", "tls \(tls), tls_ca_file \(file)")
            let message = error?.message(.english) ?? ""
            #expect(message.contains("postgres.tls_ca_file") && message.contains(says), "\(message)")
        }
        #expect(validate(tls: "verify-full", caFile: nil) == nil, "the system's roots need no file")
        if TestCertificate.isAvailable {
            let made = try await TestCertificate.make(in: scratch.path)
            #expect(validate(tls: "verify-full", caFile: made.certificate) == nil, "a PEM certificate is taken")
        }
    }
}
