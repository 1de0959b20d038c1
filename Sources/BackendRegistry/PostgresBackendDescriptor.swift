import AccountConformance
import AccountCore
import PostgresBackend

extension BackendDescriptor {
    /// The PostgreSQL backend: one shared store for several hosts.
    public static let postgres = BackendDescriptor(
        name: "postgres",
        summary: "a PostgreSQL schema on a server (postgres-nio, pooled): for several hosts sharing one store",
        storeLocation: .schema(defaultName: "accounts"),
        options: [
            BackendOption(
                name: "url", kind: .text, defaultValue: .word(""),
                summary:
                    "postgres://user@host:port/database?sslmode=…; its parts win over host, port, user and database (never a password)"
            ),
            BackendOption(
                name: "host", kind: .text, defaultValue: .word("localhost"), summary: "the server's host name"),
            BackendOption(name: "port", kind: .integer(1...65_535), defaultValue: .integer(5_432), summary: "its port"),
            BackendOption(name: "user", kind: .text, defaultValue: .word("accounts"), summary: "the role to log in as"),
            BackendOption(
                name: "database", kind: .text, defaultValue: .word("accounts"),
                summary: "the database holding the schema"),
            BackendOption(
                name: "password", kind: .secret, defaultValue: nil,
                summary: "the password: from the environment (ACCOUNTS_POSTGRES_PASSWORD) only, never a config file"),
            BackendOption(
                name: "password_file", kind: .path, defaultValue: nil,
                summary: "a file (mode 0600) whose first line is the password, when the variable is unset"),
            BackendOption(
                name: "tls", kind: .choice(PostgresOptions.TLSMode.allCases.map(\.rawValue)),
                defaultValue: .word("prefer"),
                summary:
                    "disable; prefer (TLS if offered); require (always TLS); verify-full (TLS with a checked certificate)"
            ),
            BackendOption(
                name: "tls_ca_file", kind: .path, defaultValue: nil,
                summary: "PEM roots for verify-full (default: the system's trust store)"),
            BackendOption(
                name: "pool_size", kind: .integer(1...100), defaultValue: .integer(8),
                summary: "the most connections one process opens"),
            BackendOption(
                name: "connect_timeout_ms", kind: .integer(100...600_000), defaultValue: .integer(10_000),
                summary: "how long connecting (or waiting for a pooled connection) may take before store_io"),
        ],
        formatVersion: PostgresRepository.formatVersion,
        open: { configuration in try await PostgresRepository.open(try postgresOptions(configuration)) },
        plantStore: { configuration, version in
            try await PostgresRepository.writeEmptyStore(try postgresOptions(configuration), formatVersion: version)
        },
        integrityCheck: { repository in
            guard let store = repository as? PostgresRepository else { return ["not a PostgresRepository"] }
            return try await store.integrityCheck()
        },
        scratch: BackendDescriptor.ScratchSpace(
            location: PostgresScratchNames.schema(for:),
            fixtures: { values in
                @Sendable func options(_ path: String) throws -> PostgresOptions {
                    try postgresOptions(
                        BackendConfiguration(storePath: PostgresScratchNames.schema(for: path), values: values))
                }
                return StoreFixtures(
                    plantForeign: { directory in
                        var planted: [(label: String, path: String)] = []
                        for foreign in PostgresStoreFixtures.Foreign.allCases {
                            let path = directory + "/foreign-" + foreign.rawValue
                            try await PostgresStoreFixtures.plant(foreign, try options(path))
                            planted.append((foreign.label, path))
                        }
                        return planted
                    },
                    plantDamaged: { path in try await PostgresStoreFixtures.plantDamaged(try options(path)) },
                    snapshot: { directory in
                        try await PostgresStoreFixtures.snapshot(
                            schemasWithPrefix: PostgresScratchNames.prefix(for: directory),
                            try options(directory + "/x"))
                    },
                    cleanUp: { directory in
                        try? await PostgresStoreFixtures.dropSchemas(
                            withPrefix: PostgresScratchNames.prefix(for: directory), try options(directory + "/x"))
                    })
            })
    )

    /// The connection settings of a `postgres` section; the store location is the schema.
    /// - Throws: `configInvalid` for a bad URL or an unreadable or loose password file.
    public static func postgresOptions(_ configuration: BackendConfiguration) throws(AccountError) -> PostgresOptions {
        var options = PostgresOptions(
            host: configuration.text("host") ?? "localhost",
            port: configuration.integer("port", default: 5_432),
            user: configuration.text("user") ?? "accounts",
            database: configuration.text("database") ?? "accounts",
            schema: configuration.storePath,
            tls: PostgresOptions.TLSMode(rawValue: configuration.word("tls", default: "prefer")) ?? .prefer,
            tlsCAFile: configuration.text("tls_ca_file"),
            poolSize: configuration.integer("pool_size", default: 8),
            connectTimeoutMilliseconds: configuration.integer("connect_timeout_ms", default: 10_000))
        if let url = configuration.text("url") { options = try PostgresURL.apply(url, to: options) }
        if let password = configuration.secret("password") {
            options.password = password
        } else if let file = configuration.text("password_file") {
            options.password = try PostgresPasswordFile.read(file)
        }
        return options
    }
}

/// Scratch schemas for the conformance suite: one prefix per scratch folder, so a check's
/// stores can be looked at together and dropped together.
enum PostgresScratchNames {
    /// `scratch_<16 hex of the folder>_`.
    static func prefix(for directory: String) -> String {
        // FNV-1a: stable across runs and processes (Swift's Hasher is seeded per process).
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in directory.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return "scratch_" + String(repeating: "0", count: 16 - hex.count) + hex + "_"
    }

    /// The schema standing for `path` (a file name inside a scratch folder).
    static func schema(for path: String) -> String {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        let directory = parts.dropLast().joined(separator: "/")
        let name = (parts.last ?? "").lowercased().map { ($0.isASCII && ($0.isLetter || $0.isNumber)) ? $0 : "_" }
        return prefix(for: directory) + String(String(name).prefix(38))
    }
}
