import AccountCore
import PostgresNIO

/// What the conformance suite plants in a scratch schema, and how it looks at and removes
/// them: the PostgreSQL counterparts of foreign files, random bytes and folder snapshots.
package enum PostgresStoreFixtures {
    /// Schemas that are not this backend's readable store, by kind.
    public enum Foreign: String, Sendable, CaseIterable {
        /// Another program's tables.
        case otherProgram = "other-program"
        /// Tables named like ours (`users`, `sessions`) but no store stamp.
        case lookalike
        /// A stamped store of another format.
        case otherFormat = "other-format"

        /// Words for messages.
        public var label: String {
            switch self {
            case .otherProgram: "a schema of another program"
            case .lookalike: "a schema with users and sessions tables of another program"
            case .otherFormat: "a schema stamped with another store format"
            }
        }
    }

    /// Creates `options.schema` holding a foreign layout.
    public static func plant(_ foreign: Foreign, _ options: PostgresOptions) async throws {
        let connector = try PostgresConnector(options)
        let schema = connector.schema
        let statements: [String]
        switch foreign {
        case .otherProgram:
            statements = [
                "CREATE TABLE \(schema.quoted).notes (id serial PRIMARY KEY, body text NOT NULL)",
                "INSERT INTO \(schema.quoted).notes (body) VALUES ('keep me')",
            ]
        case .lookalike:
            statements = [
                "CREATE TABLE \(schema.users) (id integer PRIMARY KEY, name text)",
                "CREATE TABLE \(schema.sessions) (id integer PRIMARY KEY, data text)",
                "INSERT INTO \(schema.users) VALUES (1, 'someone')",
            ]
        case .otherFormat:
            statements = [
                schema.migrationsTable,
                "INSERT INTO \(schema.schemaMigrations) VALUES (1, 0)",
                "CREATE TABLE \(schema.storeMeta) (key text PRIMARY KEY, value text NOT NULL)",
                "INSERT INTO \(schema.storeMeta) VALUES ('format', 'accountstore-sqlite'), ('store_id', 'x')",
            ]
        }
        try await createSchema(schema, connector, statements)
    }

    /// Creates `options.schema` with the store's stamp tables holding nonsense: no store id and
    /// no recorded migration, as a half-restored backup would leave them.
    public static func plantDamaged(_ options: PostgresOptions) async throws {
        let connector = try PostgresConnector(options)
        let schema = connector.schema
        try await createSchema(
            schema, connector,
            [
                schema.migrationsTable,
                "CREATE TABLE \(schema.storeMeta) (key text PRIMARY KEY, value text NOT NULL)",
                "INSERT INTO \(schema.storeMeta) VALUES ('format', '\(PostgresSchema.formatName)'), ('junk', '\u{1}\u{2}')",
            ])
    }

    /// Every table of every schema whose name starts with `prefix`, with its rows as text in a
    /// stable order: equal snapshots mean nothing was created, changed or removed.
    public static func snapshot(schemasWithPrefix prefix: String, _ options: PostgresOptions) async throws -> [String:
        [UInt8]]
    {
        try await PostgresConnector(options).withConnection { connection in
            var result: [String: [UInt8]] = [:]
            let tables = try await connection.rows(
                """
                SELECT n.nspname::text, c.relname::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE starts_with(n.nspname, \(prefix)) AND c.relkind IN ('r', 'p', 'v', 'm')
                ORDER BY 1, 2
                """)
            for row in tables {
                let (schema, table) = try row.decode((String, String).self)
                let name = "\"\(schema)\".\"\(table)\""
                let text =
                    try await connection.rows(
                        "SELECT coalesce(string_agg(t::text, E'\\n' ORDER BY t::text), '') FROM \(unescaped: name) t"
                    ).first?.decode(String.self) ?? ""
                result[schema + "." + table] = Array(text.utf8)
            }
            return result
        }
    }

    /// Drops every schema whose name starts with `prefix` (a test's scratch schemas).
    public static func dropSchemas(withPrefix prefix: String, _ options: PostgresOptions) async throws {
        try await PostgresConnector(options).withConnection { connection in
            let names = try await connection.rows(
                "SELECT nspname::text FROM pg_namespace WHERE starts_with(nspname, \(prefix))"
            ).map { try $0.decode(String.self) }
            for name in names where PostgresOptions.isValidSchemaName(name) {
                try await connection.run("DROP SCHEMA \(unescaped: "\"\(name)\"") CASCADE")
            }
        }
    }

    private static func createSchema(_ schema: PostgresSchema, _ connector: PostgresConnector, _ statements: [String])
        async throws
    {
        try await connector.withConnection { connection in
            try await connection.inTransaction {
                try await connection.run("CREATE SCHEMA \(unescaped: schema.quoted)")
                for statement in statements { try await connection.run(PostgresQuery(unsafeSQL: statement)) }
            }
        }
    }
}
