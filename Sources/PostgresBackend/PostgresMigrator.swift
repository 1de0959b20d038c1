import AccountCore
import PostgresNIO

/// Brings a schema to the current format when a store opens: creates a new store in an empty
/// (or missing) schema, applies missing migrations to an older one, and refuses anything else.
///
/// It all happens in one transaction holding an advisory lock on the schema's name, so several
/// processes (or hosts) starting at once migrate exactly once; a refusal rolls back and leaves
/// the schema as it was.
enum PostgresMigrator {
    /// The advisory lock's first key: "ACST", as in the SQLite store's application id.
    static let lockNamespace: Int32 = 0x4143_5354

    static func prepare(
        _ connection: PostgresConnection, schema: PostgresSchema, location: String, newStoreID: String, nowMs: Int64,
        createIfMissing: Bool = true, upgrading: Bool = true
    ) async throws {
        try await connection.inTransaction {
            try await connection.run("SELECT pg_advisory_xact_lock(\(lockNamespace), hashtext(\(schema.name)))")
            let tables = try await tableNames(connection, schema: schema.name)
            if tables.isEmpty {
                // An empty or missing schema holds no store: made only when the caller may create one.
                guard createIfMissing else { throw AccountError.storeNotFound(location: location) }
                try await connection.run("CREATE SCHEMA IF NOT EXISTS \(unescaped: schema.quoted)")
                try await connection.run(PostgresQuery(unsafeSQL: schema.migrationsTable))
                try await apply(connection, schema: schema, from: 0, nowMs: nowMs)
                try await connection.run(
                    """
                    INSERT INTO \(unescaped: schema.storeMeta) (key, value)
                    VALUES ('format', \(PostgresSchema.formatName)), ('store_id', \(newStoreID)),
                           ('created_at_ms', \(String(nowMs)))
                    """)
                return
            }
            guard tables.isSuperset(of: ["schema_migrations", "store_meta"]) else {
                let listed = tables.sorted().prefix(5).joined(separator: ", ")
                throw AccountError.storeKindMismatch(
                    expected: "PostgreSQL", found: "a schema holding another program's tables (\(listed))")
            }
            let meta = try await storeMeta(connection, schema: schema)
            guard let format = meta["format"] else {
                throw AccountError.storeCorrupted(detail: "\(location): store_meta lacks the format")
            }
            guard format == PostgresSchema.formatName else {
                throw AccountError.storeKindMismatch(expected: "PostgreSQL", found: "a store of format \(format)")
            }
            let version = try await self.version(connection, schema: schema, location: location)
            if version > PostgresSchema.currentVersion {
                throw AccountError.storeVersionUnsupported(found: version, supported: PostgresSchema.currentVersion)
            }
            guard meta["store_id"] != nil, tables.isSuperset(of: PostgresSchema.tableNames) else {
                throw AccountError.storeCorrupted(detail: "\(location): the store's tables or store id are missing")
            }
            if version < PostgresSchema.currentVersion && !upgrading {
                throw AccountError.storeUpgradeNeeded(found: version, current: PostgresSchema.currentVersion)
            }
            try await apply(connection, schema: schema, from: version, nowMs: nowMs)
        }
    }

    /// The tables, views and sequences in `schema` (empty when it does not exist).
    static func tableNames(_ connection: PostgresConnection, schema: String) async throws -> Set<String> {
        var names: Set<String> = []
        let rows = try await connection.rows(
            """
            SELECT c.relname::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = \(schema) AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S')
            """)
        for row in rows { names.insert(try row.decode(String.self)) }
        return names
    }

    static func storeMeta(_ connection: PostgresConnection, schema: PostgresSchema) async throws -> [String: String] {
        var meta: [String: String] = [:]
        for row in try await connection.rows("SELECT key, value FROM \(unescaped: schema.storeMeta)") {
            let (key, value) = try row.decode((String, String).self)
            meta[key] = value
        }
        return meta
    }

    /// The store's version: the highest migration recorded, which must be 1…n without gaps.
    static func version(_ connection: PostgresConnection, schema: PostgresSchema, location: String) async throws -> Int
    {
        var versions: [Int] = []
        for row in try await connection.rows(
            "SELECT version FROM \(unescaped: schema.schemaMigrations) ORDER BY version")
        {
            versions.append(Int(try row.decode(Int32.self)))
        }
        guard let last = versions.last, versions == Array(1...max(last, 1)) else {
            throw AccountError.storeCorrupted(
                detail: "\(location): schema_migrations lists versions \(versions), expected 1…n")
        }
        return last
    }

    private static func apply(_ connection: PostgresConnection, schema: PostgresSchema, from version: Int, nowMs: Int64)
        async throws
    {
        let migrations = schema.migrations
        guard version < migrations.count else { return }
        for next in (version + 1)...migrations.count {
            for statement in migrations[next - 1] { try await connection.run(PostgresQuery(unsafeSQL: statement)) }
            try await connection.run(
                "INSERT INTO \(unescaped: schema.schemaMigrations) (version, applied_at_ms) VALUES (\(Int32(next)), \(nowMs))"
            )
        }
    }
}
