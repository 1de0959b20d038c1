public import AccountBackendKit
public import AccountCore

/// The PostgreSQL backend: one shared store (a schema) for several hosts, over postgres-nio.
public struct PostgresBackendDescriptor: BackendDescriptor {
    /// The schema used when none is configured.
    public static let defaultSchema = "accounts"
    /// `url`: a connection URL whose parts win over the single settings.
    public static let url = BackendSetting.text(
        "url", default: "",
        summary:
            "postgres://user@host:port/database?sslmode=… (or ?host=/socket/folder); its parts win over host, port, user and database (never a password)"
    )
    /// `host`.
    public static let host = BackendSetting.text(
        "host", default: "localhost",
        summary: "the server's host name, or the folder of its Unix socket (an absolute path, as in libpq)")
    /// `port`.
    public static let port = BackendSetting.integer("port", in: 1...65_535, default: 5_432, summary: "its port")
    /// `user`.
    public static let user = BackendSetting.text("user", default: "accounts", summary: "the role to log in as")
    /// `database`.
    public static let database = BackendSetting.text(
        "database", default: "accounts", summary: "the database holding the schema")
    /// `password`: from the environment only.
    public static let password = BackendSetting.secret(
        "password", summary: "the password: from the environment (ACCOUNTS_POSTGRES_PASSWORD) only, never a config file"
    )
    /// `password_file`.
    public static let passwordFile = BackendSetting.path(
        "password_file", summary: "a file (mode 0600) whose first line is the password, when the variable is unset")
    /// `tls`.
    public static let tls = BackendSetting<PostgresOptions.TLSMode>.choice(
        "tls", default: .prefer,
        summary: "disable; prefer (TLS if offered); require (always TLS); verify-full (TLS with a checked certificate)")
    /// `tls_ca_file`.
    public static let tlsCAFile = BackendSetting.path(
        "tls_ca_file", summary: "PEM roots for verify-full (default: the system's trust store)")
    /// `pool_size`.
    public static let poolSize = BackendSetting.integer(
        "pool_size", in: 1...100, default: 8, summary: "the most connections one process opens")
    /// `connect_timeout_ms`.
    public static let connectTimeout = BackendSetting.integer(
        "connect_timeout_ms", in: 100...600_000, default: 10_000,
        summary: "how long connecting (or waiting for a pooled connection) may take before store_io")

    /// Describes the backend.
    public init() {}

    public var name: String { "postgres" }
    public var summary: String {
        "a PostgreSQL schema on a server (postgres-nio, pooled): for several hosts sharing one store"
    }
    public func summary(in language: Language) -> String {
        language == .korean
            ? "PostgreSQL 서버의 스키마 하나 (postgres-nio, 연결 풀). 여러 호스트가 저장소 하나를 함께 쓸 때"
            : summary
    }
    public var storeLocation: StoreLocation { .named(key: "schema", defaultName: Self.defaultSchema) }
    public var options: [BackendOption] {
        [
            Self.url.option, Self.host.option, Self.port.option, Self.user.option, Self.database.option,
            Self.password.option, Self.passwordFile.option, Self.tls.option, Self.tlsCAFile.option,
            Self.poolSize.option, Self.connectTimeout.option,
        ]
    }
    public var formatVersion: Int { PostgresRepository.formatVersion }
    public var capabilities: BackendCapabilities { .all }

    public func open(_ configuration: BackendConfiguration) async throws -> any UserRepository {
        try await PostgresRepository.open(try Self.connectionOptions(configuration))
    }

    /// Everything `open` checks before it connects: the URL (never with a password), the
    /// settings' kinds, the password file (present, not empty, mode 0600 or stricter), the
    /// schema name, TLS against a Unix socket, and `tls_ca_file` (read, with `verify-full`).
    public func validate(_ configuration: BackendConfiguration) throws(AccountError) {
        _ = try PostgresConnector(try Self.connectionOptions(configuration))
    }

    /// The connection settings of a `postgres` section; its location is the schema.
    /// - Throws: `configInvalid` for a bad URL, a setting of the wrong kind, or an unreadable or
    ///   loose password file.
    public static func connectionOptions(_ configuration: BackendConfiguration) throws(AccountError) -> PostgresOptions
    {
        var options = PostgresOptions(
            host: try configuration.value(of: host),
            port: try configuration.value(of: port),
            user: try configuration.value(of: user),
            database: try configuration.value(of: database),
            schema: configuration.location,
            tls: try configuration.value(of: tls),
            tlsCAFile: try configuration.value(of: tlsCAFile),
            poolSize: try configuration.value(of: poolSize),
            connectTimeoutMilliseconds: try configuration.value(of: connectTimeout))
        options.createIfMissing = configuration.createIfMissing
        options.upgradesFormat = configuration.upgradesFormat
        let url = try configuration.value(of: url)
        if !url.isEmpty { options = try PostgresURL.apply(url, to: options) }
        if let password = try configuration.value(of: password) {
            options.password = password
        } else if let file = try configuration.value(of: passwordFile) {
            options.password = try PostgresPasswordFile.read(file)
        }
        return options
    }
}
