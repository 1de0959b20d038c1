#if PostgreSQL
    public import AccountBackendKit
    public import AccountConformance
    import AccountCore
    package import PostgresBackend
    import PostgresNIO
    import Synchronization

    /// What the conformance suite plants for the PostgreSQL backend. Its stores are schemas, so
    /// each scratch path maps to a schema of its own (one prefix per scratch folder), and foreign,
    /// damaged and cut-off stores are made on the server.
    public struct PostgresFixtures: BackendFixtures {
        /// The fixtures.
        public init() {}

        public var backendName: String { PostgresBackendDescriptor().name }

        public func plantStore(_ configuration: BackendConfiguration, formatVersion: Int) async throws {
            try await PostgresRepository.plantEmptyStore(
                try PostgresBackendDescriptor.connectionOptions(configuration), formatVersion: formatVersion)
        }

        public func scratchLocation(for path: String) -> String { PostgresScratchNames.schema(for: path) }

        public func storeFixtures(values: [String: BackendOptionValue]) -> StoreFixtures? {
            @Sendable func options(_ path: String) throws -> PostgresOptions {
                try PostgresBackendDescriptor.connectionOptions(
                    BackendConfiguration(location: PostgresScratchNames.schema(for: path), values: values))
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
                        schemasWithPrefix: PostgresScratchNames.prefix(for: directory), try options(directory + "/x"))
                },
                cleanUp: { directory in
                    try? await PostgresStoreFixtures.dropSchemas(
                        withPrefix: PostgresScratchNames.prefix(for: directory), try options(directory + "/x"))
                },
                cutOff: StoreCutOff { path, operation in
                    try await PostgresStoreFixtures.cutOffMidWrite(try options(path), operation)
                })
        }
    }

    /// Scratch schemas for the conformance suite: one prefix per scratch folder, so a check's
    /// stores can be looked at together and dropped together.
    package enum PostgresScratchNames {
        /// `scratch_<16 hex of the folder>_`.
        package static func prefix(for directory: String) -> String {
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
        package static func schema(for path: String) -> String {
            let parts = path.split(separator: "/", omittingEmptySubsequences: false)
            let directory = parts.dropLast().joined(separator: "/")
            let name = (parts.last ?? "").lowercased().map { ($0.isASCII && ($0.isLetter || $0.isNumber)) ? $0 : "_" }
            return prefix(for: directory) + String(String(name).prefix(38))
        }
    }

    /// What the conformance suite plants in a scratch schema, and how it looks at and removes
    /// them: the PostgreSQL counterparts of foreign files, random bytes and folder snapshots.
    package enum PostgresStoreFixtures {
        /// Schemas that are not this backend's readable store, by kind.
        package enum Foreign: String, Sendable, CaseIterable {
            /// Another program's tables.
            case otherProgram = "other-program"
            /// Tables named like ours (`users`, `sessions`) but no store stamp.
            case lookalike
            /// A stamped store of another format.
            case otherFormat = "other-format"

            /// Words for messages.
            package var label: String {
                switch self {
                case .otherProgram: "a schema of another program"
                case .lookalike: "a schema with users and sessions tables of another program"
                case .otherFormat: "a schema stamped with another store format"
                }
            }
        }

        /// Creates `options.schema` holding a foreign layout.
        package static func plant(_ foreign: Foreign, _ options: PostgresOptions) async throws {
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
        package static func plantDamaged(_ options: PostgresOptions) async throws {
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
        package static func snapshot(schemasWithPrefix prefix: String, _ options: PostgresOptions) async throws
            -> [String:
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

        /// Runs `operation` on the store in `options.schema` and ends its connection from the server's
        /// side while its write is waiting, as a network failure or a restarted server would end it;
        /// returns how `operation` ended, or ``StoreCutOff/StillRunning`` when it had not ended
        /// `patience` after the cut.
        ///
        /// Another connection holds every row of the store's tables (`FOR UPDATE`, which reads let
        /// through), so the operation's transaction stops at the first row it writes or refers to;
        /// once `pg_locks` shows it waiting for that connection, `pg_terminate_backend` ends its
        /// connection (and waits until it has ended, which needs PostgreSQL 14), and only then are
        /// the rows let go. The operation runs in a task of its own, so that one that hangs is
        /// reported rather than hanging the suite.
        /// - Throws: `storeIO` when `operation` ends without waiting for a row (it wrote nothing),
        ///   or has neither ended nor waited after `patience`.
        package static func cutOffMidWrite(
            _ options: PostgresOptions, patience: Duration = .seconds(30),
            _ operation: @escaping @Sendable () async throws -> Void
        ) async throws -> Result<Void, any Error> {
            let connector = try PostgresConnector(options)
            let schema = connector.schema
            return try await connector.withConnection { holder in
                try await holder.run("BEGIN")
                for table in [schema.userNumbers, schema.users, schema.sessions] {
                    try await holder.run("SELECT 1 FROM \(unescaped: table) FOR UPDATE")
                }
                let ended = Mutex<Result<Void, any Error>?>(nil)
                Task {
                    let outcome: Result<Void, any Error>
                    do {
                        try await operation()
                        outcome = .success(())
                    } catch {
                        outcome = .failure(error)
                    }
                    ended.withLock { $0 = outcome }
                }
                let start = ContinuousClock.now
                var waiting: [Int32] = []
                while waiting.isEmpty {
                    waiting = try await holder.rows(
                        """
                        SELECT DISTINCT pid FROM pg_locks
                        WHERE NOT granted AND pg_backend_pid() = ANY(pg_blocking_pids(pid))
                        """
                    ).map { try $0.decode(Int32.self) }
                    guard waiting.isEmpty else { break }
                    if ended.withLock({ $0 }) != nil {
                        throw AccountError.storeIO(detail: "\(options.location): the operation ended without writing")
                    }
                    guard ContinuousClock.now - start < patience else {
                        throw AccountError.storeIO(detail: "\(options.location): the operation neither wrote nor ended")
                    }
                    try await Task.sleep(for: .milliseconds(2))
                }
                for pid in waiting {
                    try await holder.run("SELECT pg_terminate_backend(\(pid), 10000)")
                }
                try await holder.run("ROLLBACK")
                let cut = ContinuousClock.now
                while ContinuousClock.now - cut < patience {
                    if let outcome = ended.withLock({ $0 }) { return outcome }
                    try await Task.sleep(for: .milliseconds(2))
                }
                return .failure(StoreCutOff.StillRunning(after: patience))
            }
        }

        /// Drops every schema whose name starts with `prefix` (a test's scratch schemas).
        package static func dropSchemas(withPrefix prefix: String, _ options: PostgresOptions) async throws {
            try await PostgresConnector(options).withConnection { connection in
                let names = try await connection.rows(
                    "SELECT nspname::text FROM pg_namespace WHERE starts_with(nspname, \(prefix))"
                ).map { try $0.decode(String.self) }
                for name in names where PostgresOptions.isValidSchemaName(name) {
                    try await connection.run("DROP SCHEMA \(unescaped: "\"\(name)\"") CASCADE")
                }
            }
        }

        private static func createSchema(
            _ schema: PostgresSchema, _ connector: PostgresConnector, _ statements: [String]
        )
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
#endif
