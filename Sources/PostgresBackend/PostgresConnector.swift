package import AccountCore
import Logging
import NIOSSL
package import PostgresNIO

/// Turns `PostgresOptions` into PostgresNIO's configurations, and opens single connections for
/// the work that must not go through the pool (migrations under an advisory lock, fixtures).
package struct PostgresConnector: Sendable {
    let options: PostgresOptions
    /// What `verify-full` checks the server's certificate against (read once, here).
    let trustRoots: NIOSSLTrustRoots
    /// PostgresNIO logs connection chatter; the store reports through typed errors instead, so
    /// nothing (and certainly no query with its values) reaches a log by default.
    static let logger = Logger(label: "accountstore.postgres", factory: { _ in SwiftLogNoOpLogHandler() })

    /// Checks everything about `options` that can be checked without connecting.
    /// - Throws: `configInvalid` for a bad schema name, TLS demanded on a Unix socket, a socket
    ///   path too long, or a `tls_ca_file` that cannot be used.
    package init(_ options: PostgresOptions) throws(AccountError) {
        guard PostgresOptions.isValidSchemaName(options.schema) else {
            throw .configInvalid(
                key: "postgres.schema",
                reason:
                    "'\(options.schema)' is not a schema name: lowercase letters, digits and _, starting with a letter or _, at most 63, not pg_…"
            )
        }
        if let socket = options.unixSocketPath {
            // TLS is never negotiated on a Unix socket (libpq skips it silently there); a
            // setting that demands it is refused rather than quietly not honoured.
            guard options.tls == .disable || options.tls == .prefer else {
                throw .configInvalid(
                    key: "postgres.tls",
                    reason:
                        "'\(options.tls.rawValue)' asks for TLS, which a Unix socket (\(socket)) does not use; set disable or prefer, or name the server by its host name"
                )
            }
            // sockaddr_un holds 108 bytes with the terminating zero; a longer path could only
            // fail later, at connect, with a less helpful error.
            guard socket.utf8.count <= 107 else {
                throw .configInvalid(
                    key: "postgres.host",
                    reason:
                        "the socket path \(socket) is \(socket.utf8.count) bytes; a Unix socket path has at most 107")
            }
        }
        self.trustRoots = try PostgresTrustRoots.load(options)
        self.options = options
    }

    package var schema: PostgresSchema { PostgresSchema(name: options.schema) }

    func tlsConfiguration() throws(AccountError) -> TLSConfiguration? {
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch options.tls {
        case .disable:
            return nil
        case .prefer, .require:
            configuration.certificateVerification = .none
        case .verifyFull:
            configuration.certificateVerification = .fullVerification
            configuration.trustRoots = trustRoots
        }
        return configuration
    }

    func clientConfiguration() throws(AccountError) -> PostgresClient.Configuration {
        let tls: PostgresClient.Configuration.TLS
        switch (options.tls, try tlsConfiguration()) {
        case (.prefer, let configuration?): tls = .prefer(configuration)
        case (_, let configuration?): tls = .require(configuration)
        case (_, nil): tls = .disable
        }
        var configuration =
            if let socket = options.unixSocketPath {
                PostgresClient.Configuration(
                    unixSocketPath: socket, username: options.user, password: options.password,
                    database: options.database)
            } else {
                PostgresClient.Configuration(
                    host: options.host, port: options.port, username: options.user, password: options.password,
                    database: options.database, tls: tls)
            }
        configuration.options.maximumConnections = options.poolSize
        configuration.options.connectTimeout = .milliseconds(Int64(options.connectTimeoutMilliseconds))
        configuration.options.keepAliveBehavior = nil
        // The prepared statements name tables without their schema (`SignedInLookup`). Every other
        // statement names the schema itself, so the search path changes nothing else.
        configuration.options.additionalStartupParameters = [("search_path", options.schema)]
        return configuration
    }

    func connectionConfiguration() throws(AccountError) -> PostgresConnection.Configuration {
        let tls: PostgresConnection.Configuration.TLS
        do {
            switch (options.tls, try tlsConfiguration()) {
            case (.prefer, let configuration?): tls = .prefer(try NIOSSLContext(configuration: configuration))
            case (_, let configuration?): tls = .require(try NIOSSLContext(configuration: configuration))
            case (_, nil): tls = .disable
            }
        } catch let error as AccountError {
            throw error
        } catch {
            throw .configInvalid(key: "postgres.tls", reason: "TLS cannot be set up: \(error)")
        }
        var configuration =
            if let socket = options.unixSocketPath {
                PostgresConnection.Configuration(
                    unixSocketPath: socket, username: options.user, password: options.password,
                    database: options.database)
            } else {
                PostgresConnection.Configuration(
                    host: options.host, port: options.port, username: options.user, password: options.password,
                    database: options.database, tls: tls)
            }
        configuration.options.connectTimeout = .milliseconds(Int64(options.connectTimeoutMilliseconds))
        return configuration
    }

    /// Opens one connection, runs `body`, and closes it.
    /// - Throws: `storeIO` naming the server and the reason when it cannot connect.
    package func withConnection<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        let connection: PostgresConnection
        do {
            connection = try await connect(id: 1)
        } catch {
            throw PostgresFailure.map(error, location: options.location)
        }
        do {
            let result = try await body(connection)
            try? await connection.close()
            return result
        } catch {
            try? await connection.close()
            throw PostgresFailure.map(error, location: options.location)
        }
    }

    /// Opens one connection beside the pool and closes it again: what ``ConnectionProbe`` tries.
    func probe() async -> ConnectionProbe.Finding {
        do {
            let connection = try await connect(id: 0)
            try? await connection.close()
            return .reachable
        } catch {
            return PostgresFailure.connectFailure(error)
        }
    }

    /// Opens one connection of its own; `id` is PostgresNIO's number for it (0 for the probe's).
    private func connect(id: Int) async throws -> PostgresConnection {
        try await PostgresConnection.connect(configuration: try connectionConfiguration(), id: id, logger: Self.logger)
    }
}

extension PostgresConnection {
    /// Runs `body` between BEGIN and COMMIT; any error rolls back.
    package func inTransaction<T>(_ body: () async throws -> T) async throws -> T {
        let logger = PostgresConnector.logger
        try await query("BEGIN", logger: logger)
        do {
            let result = try await body()
            try await query("COMMIT", logger: logger)
            return result
        } catch {
            // A session that ended took its transaction with it, and a ROLLBACK sent on its
            // connection never came back (PostgresNIO 1.33, after the server's FATAL): the call
            // hung for good, where it must fail.
            if !isClosed, !PostgresFailure.endsSession(error) {
                _ = try? await query("ROLLBACK", logger: logger)
            }
            throw error
        }
    }

    /// Runs a statement whose rows do not matter.
    package func run(_ sql: PostgresQuery) async throws {
        try await query(sql, logger: PostgresConnector.logger)
    }

    /// Runs a query and collects its rows.
    package func rows(_ sql: PostgresQuery) async throws -> [PostgresRow] {
        try await query(sql, logger: PostgresConnector.logger).collect()
    }
}
