public import AccountBackendKit
import AccountCore

/// Where and how to reach the PostgreSQL server, and which schema holds the store.
///
/// The password never comes from a config file: the caller passes it from
/// `ACCOUNTS_POSTGRES_PASSWORD` or reads it from `postgres.password_file`
/// (see `PostgresPasswordFile`).
public struct PostgresOptions: Sendable, Hashable {
    /// How the connection is encrypted.
    public enum TLSMode: String, Sendable, CaseIterable {
        /// Plain TCP (a loopback or otherwise private network only).
        case disable
        /// TLS when the server offers it, without checking its certificate (libpq's default).
        case prefer
        /// TLS always, without checking the certificate: encrypted, not authenticated.
        case require
        /// TLS always; the certificate must chain to a trusted root and name the host.
        case verifyFull = "verify-full"
    }

    /// The server's host name (reached over TCP), or the folder holding its Unix socket: an
    /// absolute path, as in libpq (see `unixSocketPath`).
    public var host: String
    public var port: Int
    public var user: String
    public var database: String
    /// The password, if the server asks for one.
    public var password: String?
    /// The schema (namespace) holding the store's tables; several stores may share a database.
    public var schema: String
    public var tls: TLSMode
    /// Roots for `verify-full` (PEM); `nil` uses the system's trust store.
    public var tlsCAFile: String?
    /// The most connections the pool opens.
    public var poolSize: Int
    /// How long connecting, or waiting for a pooled connection, may take before `store_io`.
    public var connectTimeoutMilliseconds: Int
    /// Whether opening may create an empty store when there is none (else `storeNotFound`).
    public var createIfMissing = true
    /// Whether opening may upgrade a store of an older format (else `storeUpgradeNeeded`).
    public var upgradesFormat = true

    /// Describes a server.
    public init(
        host: String = PostgresBackendDescriptor.host.defaultValue,
        port: Int = PostgresBackendDescriptor.port.defaultValue,
        user: String = PostgresBackendDescriptor.user.defaultValue,
        database: String = PostgresBackendDescriptor.database.defaultValue,
        password: String? = nil, schema: String = PostgresBackendDescriptor.defaultSchema,
        tls: TLSMode = PostgresBackendDescriptor.tls.defaultValue, tlsCAFile: String? = nil,
        poolSize: Int = PostgresBackendDescriptor.poolSize.defaultValue,
        connectTimeoutMilliseconds: Int = PostgresBackendDescriptor.connectTimeout.defaultValue
    ) {
        self.host = host
        self.port = port
        self.user = user
        self.database = database
        self.password = password
        self.schema = schema
        self.tls = tls
        self.tlsCAFile = tlsCAFile
        self.poolSize = poolSize
        self.connectTimeoutMilliseconds = connectTimeoutMilliseconds
    }

    /// The Unix socket to connect through when `host` is a folder: `<host>/.s.PGSQL.<port>`,
    /// the name the server gives its socket; `nil` when `host` is a host name.
    ///
    /// For servers that listen only on their socket, or log roles in by `peer`; not for speed
    /// (bench/README.md).
    public var unixSocketPath: String? {
        guard host.hasPrefix("/") else { return nil }
        let folder = host.count > 1 && host.hasSuffix("/") ? String(host.dropLast()) : host
        return (folder == "/" ? "" : folder) + "/.s.PGSQL.\(port)"
    }

    /// Where the store lives, for messages: never the password. A socket is written as libpq
    /// reads it, with the folder in the URL's `host` parameter.
    public var location: String {
        if unixSocketPath != nil {
            return "postgres://\(user)@:\(port)/\(database)?host=\(host) schema \(schema)"
        }
        return "postgres://\(user)@\(host):\(port)/\(database) schema \(schema)"
    }

    /// Whether `name` can be a store's schema: lowercase letters, digits and `_`, starting with
    /// a letter or `_`, at most 63 bytes (PostgreSQL's identifier limit), and not `pg_…`.
    public static func isValidSchemaName(_ name: String) -> Bool {
        guard let first = name.utf8.first, name.utf8.count <= 63, !name.hasPrefix("pg_") else { return false }
        let lower = UInt8(ascii: "a")...UInt8(ascii: "z")
        let digit = UInt8(ascii: "0")...UInt8(ascii: "9")
        let underscore = UInt8(ascii: "_")
        guard lower.contains(first) || first == underscore else { return false }
        return name.utf8.allSatisfy { lower.contains($0) || digit.contains($0) || $0 == underscore }
    }
}
