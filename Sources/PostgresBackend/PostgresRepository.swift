public import AccountCore
import NIOCore
import PostgresNIO

/// A `UserRepository` in a PostgreSQL schema, for deployments where several hosts share one
/// account store. Every call takes a connection from a pool (PostgresNIO's `PostgresClient`);
/// every write is one transaction, and uniqueness, withdrawal and session revocation are
/// enforced by the schema (a UNIQUE email index, `ON DELETE CASCADE`), so racing hosts get the
/// same answers as racing processes on an embedded store.
public final class PostgresRepository: UserRepository, Sendable {
    /// Leases the connections, and says why when it cannot.
    private let pool: PostgresPool
    private let schema: PostgresSchema
    private let options: PostgresOptions
    /// Gathers the session lookups of concurrent requests into shared queries.
    private let signedInLookups: LookupCoalescer<String, SignedInLookup.Found>
    /// How many times a transaction reruns after the server said it was busy (`storeBusy`).
    private static let retries = 5

    private init(pool: PostgresPool, options: PostgresOptions) {
        self.pool = pool
        self.options = options
        schema = PostgresSchema(name: options.schema)
        // One batch at a time makes the biggest batches; a second starts beside it only when the
        // first has been out for a few times a whole signed-in request's p99, so a stalled
        // connection delays reads by that much rather than until its deadline. More at once only
        // made smaller batches (bench/results/2026-11-24-to-25-serve-postgres-session-lookups.md).
        let inFlight = min(2, options.poolSize)
        signedInLookups = LookupCoalescer(
            maximumInFlight: inFlight, maximumBatch: 64,
            // A connection serves the batches that keep coming only while the pool keeps at
            // least one more for writes; a smaller pool gets it back after each batch. 256
            // batches are about a tenth of a second under load, so even a steady stream of reads
            // hands its connections back to the pool several times a second.
            batchesPerLease: options.poolSize > inFlight ? 256 : 1, stallAfter: .milliseconds(10)
        ) { [pool, options] body in
            try await pool.withConnection { connection in
                await body { tokenHashes in try await Self.signedIn(tokenHashes, on: connection, options: options) }
            }
        }
    }

    /// Connects, creates or migrates the store in `options.schema`, and starts the pool.
    /// - Throws: `configInvalid` for a bad schema name or TLS setting; `storeIO` naming the
    ///   server and the reason when it cannot connect or authenticate; `storeKindMismatch`,
    ///   `storeVersionUnsupported` or `storeCorrupted` for a schema that is not a readable store
    ///   of this format (left as it was).
    public static func open(
        _ options: PostgresOptions, newStoreID: @escaping @Sendable () -> String = StoreInfo.randomStoreID
    ) async throws -> PostgresRepository {
        try await open(options, newStoreID: newStoreID, probeFreshFor: .seconds(1))
    }

    /// ``open(_:newStoreID:)``, with how long one probe's finding answers for every waiting call.
    static func open(
        _ options: PostgresOptions, newStoreID: @escaping @Sendable () -> String = StoreInfo.randomStoreID,
        probeFreshFor: Duration
    ) async throws -> PostgresRepository {
        let connector = try PostgresConnector(options)
        // One direct connection first: it fails fast with the real reason (refused, bad
        // password, TLS), where a pool would keep retrying in the background.
        try await connector.withConnection { connection in
            try await PostgresMigrator.prepare(
                connection, schema: connector.schema, location: options.location, newStoreID: newStoreID(),
                nowMs: SystemClock().now().millisecondsSince1970, createIfMissing: options.createIfMissing,
                upgrading: options.upgradesFormat)
        }
        return PostgresRepository(pool: try PostgresPool(connector, probeFreshFor: probeFreshFor), options: options)
    }

    /// Creates an empty store in `options.schema` stamped with `formatVersion` (the
    /// conformance suite plants a newer one, through the descriptor, to check that it is refused).
    package static func plantEmptyStore(_ options: PostgresOptions, formatVersion: Int) async throws {
        let connector = try PostgresConnector(options)
        let schema = connector.schema
        try await connector.withConnection { connection in
            try await connection.inTransaction {
                try await connection.run("CREATE SCHEMA \(unescaped: schema.quoted)")
                try await connection.run(PostgresQuery(unsafeSQL: schema.migrationsTable))
                for statement in schema.migrations.joined() {
                    try await connection.run(PostgresQuery(unsafeSQL: statement))
                }
                for version in 1...max(formatVersion, 1) {
                    try await connection.run(
                        "INSERT INTO \(unescaped: schema.schemaMigrations) (version, applied_at_ms) VALUES (\(Int32(version)), 0)"
                    )
                }
                try await connection.run(
                    """
                    INSERT INTO \(unescaped: schema.storeMeta) (key, value)
                    VALUES ('format', \(PostgresSchema.formatName)), ('store_id', 'planted')
                    """)
            }
        }
    }

    /// The format version this build writes.
    public static var formatVersion: Int { PostgresSchema.currentVersion }

    /// The server's view of the store: every session's user exists, every email is unique, the
    /// recorded migrations are 1…n. `["ok"]` for a sound store.
    public func integrityCheck() async throws -> [String] {
        try await withConnection { [schema, options] connection in
            var problems: [String] = []
            _ = try await PostgresMigrator.version(connection, schema: schema, location: options.location)
            let orphans =
                try await connection.rows(
                    """
                    SELECT count(*) FROM \(unescaped: schema.sessions) s
                    WHERE NOT EXISTS (SELECT 1 FROM \(unescaped: schema.users) u WHERE u.id = s.user_id)
                    """
                ).first?.decode(Int64.self) ?? 0
            if orphans > 0 { problems.append("\(orphans) sessions belong to no user") }
            let duplicates =
                try await connection.rows(
                    "SELECT count(*) - count(DISTINCT email) FROM \(unescaped: schema.users)"
                ).first?.decode(Int64.self) ?? 0
            if duplicates > 0 { problems.append("\(duplicates) emails are stored twice") }
            return problems.isEmpty ? ["ok"] : problems
        }
    }

    // MARK: - UserRepository

    public func storeInfo() async throws -> StoreInfo {
        try await withConnection { [schema, options] connection in
            let meta = try await PostgresMigrator.storeMeta(connection, schema: schema)
            guard meta["format"] == PostgresSchema.formatName, let storeID = meta["store_id"] else {
                throw AccountError.storeCorrupted(
                    detail: "\(options.location): store_meta lacks the format or store id")
            }
            let version = try await PostgresMigrator.version(connection, schema: schema, location: options.location)
            return StoreInfo(formatName: PostgresSchema.formatName, formatVersion: version, storeID: storeID)
        }
    }

    @discardableResult

    public func createUser(_ user: UserRecord, initialSession: SessionRecord?) async throws -> Int {
        // One statement: atomic without BEGIN and COMMIT, so one round trip where the user
        // and its session in a transaction took four, each of them CPU on both sides.
        // The UNIQUE email index decides a race between hosts: the loser gets no row back.
        // `ON CONFLICT (email)` checks the email before the id, so a record whose email and id
        // are both taken is `emailTaken`, as on every backend, and not the primary key's error.
        try await withConnection { [schema] connection in
            let query = Self.insertUser(user, with: initialSession, into: schema)
            let inserted = try await Self.refusingReused(user, with: initialSession) {
                try await connection.rows(query)
            }
            guard let row = inserted.first else { throw AccountError.emailTaken }
            return Int(try row.decode(Int64.self))
        }
    }

    public func createUsers(_ users: [UserRecord], sessions: [SessionRecord]) async throws -> [String] {
        try await transaction { [schema] connection in
            var stored: Set<UserID> = []
            // Given numbers first, so that the users without one come after all of them; the
            // skipped emails are reported in the batch's order all the same.
            var skippedAt: [Int: String] = [:]
            let indexed = Array(users.enumerated())
            for (index, user) in indexed.filter({ $0.element.number != nil })
                + indexed.filter({ $0.element.number == nil })
            {
                // ON CONFLICT keeps the transaction alive where a failed INSERT would abort it.
                let inserted = try await Self.refusingReused(user) {
                    try await connection.rows(Self.insertUser(user, into: schema))
                }
                if inserted.isEmpty {
                    skippedAt[index] = user.email
                } else {
                    stored.insert(user.id)
                }
            }
            let skipped = skippedAt.keys.sorted().compactMap { skippedAt[$0] }
            for session in sessions where stored.contains(session.userID) {
                // A token hash stored before, or earlier in this batch, inserts nothing; the
                // refusal rolls the whole batch back.
                if try await connection.rows(Self.insertSession(session, into: schema)).isEmpty {
                    throw AccountError.sessionAlreadyStored(of: session.userID)
                }
            }
            return skipped
        }
    }

    public func lastUserNumber() async throws -> Int {
        try await withConnection { [schema] connection in
            guard let row = try await connection.rows("SELECT last FROM \(unescaped: schema.userNumbers)").first else {
                throw AccountError.storeCorrupted(detail: "user_numbers has no row")
            }
            return Int(try row.decode(Int64.self))
        }
    }

    public func raiseLastUserNumber(to number: Int) async throws {
        try await withConnection { [schema] connection in
            try await connection.run(
                "UPDATE \(unescaped: schema.userNumbers) SET last = greatest(last, \(Int64(number)))")
        }
    }

    public func user(email: String) async throws -> UserRecord? {
        try await withConnection { [schema] connection in
            try await connection.rows(
                "SELECT \(unescaped: Self.userColumns) FROM \(unescaped: schema.users) WHERE email = \(email)"
            ).first.map(Self.user)
        }
    }

    public func user(id: UserID) async throws -> UserRecord? {
        try await withConnection { [schema] connection in
            try await connection.rows(
                "SELECT \(unescaped: Self.userColumns) FROM \(unescaped: schema.users) WHERE id = \(id.rawValue)"
            ).first.map(Self.user)
        }
    }

    public func userCount() async throws -> Int {
        try await withConnection { [schema] connection in
            Int(
                try await connection.rows("SELECT count(*) FROM \(unescaped: schema.users)").first?.decode(Int64.self)
                    ?? 0)
        }
    }

    public func users(after email: String?, limit: Int) async throws -> [UserRecord] {
        try await withConnection { [schema] connection in
            let rows: [PostgresRow]
            if let email {
                rows = try await connection.rows(
                    """
                    SELECT \(unescaped: Self.userColumns) FROM \(unescaped: schema.users)
                    WHERE email > \(email) ORDER BY email LIMIT \(Int64(limit))
                    """)
            } else {
                rows = try await connection.rows(
                    "SELECT \(unescaped: Self.userColumns) FROM \(unescaped: schema.users) ORDER BY email LIMIT \(Int64(limit))"
                )
            }
            return try rows.map(Self.user)
        }
    }

    public func updatePassword(
        userID: UserID, passwordHash: String, changedAt: Timestamp, revoking: SessionRevocation,
        ifPasswordHashIs expected: String?
    ) async throws -> Bool {
        try await transaction { [schema] connection in
            let updated = try await connection.rows(
                """
                UPDATE \(unescaped: schema.users) SET password_hash = \(passwordHash),
                    password_changed_at_ms = \(changedAt.millisecondsSince1970), must_change_password = false
                WHERE id = \(userID.rawValue) AND (\(expected)::text IS NULL OR password_hash = \(expected))
                RETURNING 1
                """)
            guard !updated.isEmpty else { return false }
            try await connection.run(
                """
                DELETE FROM \(unescaped: schema.codes)
                WHERE user_id = \(userID.rawValue) AND purpose = \(OneTimeCode.Purpose.passwordReset.rawValue)
                """)
            if revoking.revokesSessions {
                let keep = revoking.keptTokenHash
                try await connection.run(
                    """
                    DELETE FROM \(unescaped: schema.sessions)
                    WHERE user_id = \(userID.rawValue) AND token_sha256 IS DISTINCT FROM \(keep)
                    """)
            }
            return true
        }
    }

    public func setBlocked(userID: UserID, _ blocked: Bool) async throws -> Bool {
        try await transaction { [schema] connection in
            let updated = try await connection.rows(
                "UPDATE \(unescaped: schema.users) SET blocked = \(blocked) WHERE id = \(userID.rawValue) RETURNING 1")
            guard !updated.isEmpty else { return false }
            if blocked {
                try await connection.run("DELETE FROM \(unescaped: schema.sessions) WHERE user_id = \(userID.rawValue)")
            }
            return true
        }
    }

    public func setEmailVerified(userID: UserID, at time: Timestamp?) async throws -> Bool {
        try await transaction { [schema] connection in
            !(try await connection.rows(
                """
                UPDATE \(unescaped: schema.users) SET email_verified_at_ms = \(time?.millisecondsSince1970)::bigint
                WHERE id = \(userID.rawValue) RETURNING 1
                """
            ).isEmpty)
        }
    }

    // MARK: Refresh families

    public func rotateSession(
        tokenHash: String, to renewed: SessionRecord, ifPasswordHashIs passwordHash: String, at: Timestamp
    ) async throws -> Bool {
        try await transaction { [schema] connection in
            // The user's row FOR SHARE, as a login's session: a password change waits, or wins.
            let deleted = try await connection.rows(
                """
                DELETE FROM \(unescaped: schema.sessions) s
                USING (SELECT id FROM \(unescaped: schema.users) WHERE password_hash = \(passwordHash) FOR SHARE) u
                WHERE s.token_sha256 = \(tokenHash) AND s.user_id = u.id
                RETURNING s.user_id, s.family, s.expires_at_ms
                """)
            guard let row = deleted.first else { return false }
            let (userID, family, expires) = try row.decode((String, String, Int64).self)
            if try await connection.rows(Self.insertSession(renewed, into: schema)).isEmpty {
                throw AccountError.sessionAlreadyStored(of: renewed.userID)
            }
            try await connection.run(
                """
                INSERT INTO \(unescaped: schema.rotatedTokens) (token_sha256, user_id, family, rotated_at_ms, expires_at_ms)
                VALUES (\(tokenHash), \(userID), \(family), \(at.millisecondsSince1970), \(expires))
                """)
            return true
        }
    }

    public func rotatedToken(tokenHash: String) async throws -> RotatedToken? {
        try await withConnection { [schema] connection in
            try await connection.rows(
                """
                SELECT token_sha256, user_id, family, rotated_at_ms, expires_at_ms FROM \(unescaped: schema.rotatedTokens)
                WHERE token_sha256 = \(tokenHash)
                """
            ).first.map { row in
                let (hash, userID, family, rotated, expires) = try row.decode(
                    (String, String, String, Int64, Int64).self)
                return RotatedToken(
                    tokenHash: hash, userID: UserID(rawValue: userID), family: family,
                    rotatedAt: Timestamp(millisecondsSince1970: rotated),
                    expiresAt: Timestamp(millisecondsSince1970: expires))
            }
        }
    }

    public func revokeFamily(_ family: String, userID: UserID) async throws -> Int {
        try await transaction { [schema] connection in
            try await connection.rows(
                """
                DELETE FROM \(unescaped: schema.sessions) WHERE user_id = \(userID.rawValue) AND family = \(family)
                RETURNING 1
                """
            ).count
        }
    }

    public func purgeExpiredFlowRecords(at now: Timestamp) async throws -> Int {
        try await transaction { [schema] connection in
            let time = now.millisecondsSince1970
            let tokens = try await connection.rows(
                "DELETE FROM \(unescaped: schema.rotatedTokens) WHERE expires_at_ms <= \(time) RETURNING 1"
            ).count
            let codes = try await connection.rows(
                "DELETE FROM \(unescaped: schema.codes) WHERE expires_at_ms <= \(time) RETURNING 1"
            ).count
            return tokens + codes
        }
    }

    // MARK: One-time codes

    private static let codeColumns = "code_sha256, user_id, purpose, created_at_ms, expires_at_ms"

    private static func code(_ row: PostgresRow) throws -> OneTimeCode {
        let (hash, userID, purpose, created, expires) = try row.decode((String, String, String, Int64, Int64).self)
        return OneTimeCode(
            codeHash: hash, userID: UserID(rawValue: userID), purpose: OneTimeCode.Purpose(rawValue: purpose),
            createdAt: Timestamp(millisecondsSince1970: created), expiresAt: Timestamp(millisecondsSince1970: expires))
    }

    public func replaceCode(_ code: OneTimeCode) async throws -> Bool {
        try await transaction { [schema] connection in
            guard
                !(try await connection.rows(
                    "SELECT 1 FROM \(unescaped: schema.users) WHERE id = \(code.userID.rawValue) FOR SHARE"
                ).isEmpty)
            else { return false }
            let held = try await connection.rows(
                "SELECT \(unescaped: Self.codeColumns) FROM \(unescaped: schema.codes) WHERE code_sha256 = \(code.codeHash)"
            ).first.map(Self.code)
            if let held, held.userID != code.userID || held.purpose != code.purpose {
                throw AccountError.storeIO(detail: "a code with this hash is stored for another user or purpose")
            }
            try await connection.run(
                """
                DELETE FROM \(unescaped: schema.codes)
                WHERE user_id = \(code.userID.rawValue) AND purpose = \(code.purpose.rawValue)
                """)
            try await connection.run(
                """
                INSERT INTO \(unescaped: schema.codes) (\(unescaped: Self.codeColumns)) VALUES (\(code.codeHash),
                    \(code.userID.rawValue), \(code.purpose.rawValue), \(code.createdAt.millisecondsSince1970),
                    \(code.expiresAt.millisecondsSince1970))
                """)
            return true
        }
    }

    public func code(hash: String) async throws -> OneTimeCode? {
        try await withConnection { [schema] connection in
            try await connection.rows(
                "SELECT \(unescaped: Self.codeColumns) FROM \(unescaped: schema.codes) WHERE code_sha256 = \(hash)"
            ).first.map(Self.code)
        }
    }

    public func takeCode(hash: String) async throws -> OneTimeCode? {
        try await transaction { [schema] connection in
            try await connection.rows(
                """
                DELETE FROM \(unescaped: schema.codes) WHERE code_sha256 = \(hash)
                RETURNING \(unescaped: Self.codeColumns)
                """
            ).first.map(Self.code)
        }
    }

    // MARK: Outbox

    private static let mailColumns =
        "id, kind, recipient, language, payload, created_at_ms, attempts, not_before_ms, last_error"

    private static func mail(_ row: PostgresRow) throws -> OutboxMail {
        let (id, kind, recipient, language, payload, created, attempts, notBefore, lastError) = try row.decode(
            (String, String, String, String, String, Int64, Int64, Int64, String?).self)
        return OutboxMail(
            id: id, kind: kind, recipient: recipient, language: language, payload: payload,
            createdAt: Timestamp(millisecondsSince1970: created), attempts: Int(attempts),
            notBefore: Timestamp(millisecondsSince1970: notBefore), lastError: lastError)
    }

    public func enqueueMail(_ mail: OutboxMail) async throws {
        try await transaction { [schema] connection in
            let inserted = try await connection.rows(
                """
                INSERT INTO \(unescaped: schema.outbox) (\(unescaped: Self.mailColumns)) VALUES (\(mail.id), \(mail.kind),
                    \(mail.recipient), \(mail.language), \(mail.payload), \(mail.createdAt.millisecondsSince1970),
                    \(Int64(mail.attempts)), \(mail.notBefore.millisecondsSince1970), \(mail.lastError)::text)
                ON CONFLICT (id) DO NOTHING RETURNING 1
                """)
            guard !inserted.isEmpty else {
                throw AccountError.storeIO(detail: "a mail with id \(mail.id) is stored already")
            }
        }
    }

    public func dueMail(at: Timestamp, limit: Int) async throws -> [OutboxMail] {
        try await withConnection { [schema] connection in
            try await connection.rows(
                """
                SELECT \(unescaped: Self.mailColumns) FROM \(unescaped: schema.outbox)
                WHERE not_before_ms <= \(at.millisecondsSince1970) ORDER BY not_before_ms, id LIMIT \(Int64(max(0, limit)))
                """
            ).map(Self.mail)
        }
    }

    public func leaseMail(id: String, from expected: Timestamp, until: Timestamp) async throws -> Bool {
        try await transaction { [schema] connection in
            !(try await connection.rows(
                """
                UPDATE \(unescaped: schema.outbox) SET not_before_ms = \(until.millisecondsSince1970)
                WHERE id = \(id) AND not_before_ms = \(expected.millisecondsSince1970) RETURNING 1
                """
            ).isEmpty)
        }
    }

    public func rescheduleMail(id: String, attempts: Int, notBefore: Timestamp, lastError: String?) async throws
        -> Bool
    {
        try await transaction { [schema] connection in
            !(try await connection.rows(
                """
                UPDATE \(unescaped: schema.outbox) SET attempts = \(Int64(attempts)),
                    not_before_ms = \(notBefore.millisecondsSince1970), last_error = \(lastError)::text
                WHERE id = \(id) RETURNING 1
                """
            ).isEmpty)
        }
    }

    public func deleteMail(id: String) async throws -> Bool {
        try await transaction { [schema] connection in
            !(try await connection.rows("DELETE FROM \(unescaped: schema.outbox) WHERE id = \(id) RETURNING 1").isEmpty)
        }
    }

    public func outboxSummary() async throws -> OutboxSummary {
        try await withConnection { [schema] connection in
            guard
                let row = try await connection.rows(
                    """
                    SELECT count(*), count(*) FILTER (WHERE attempts > 0), min(created_at_ms) FROM \(unescaped: schema.outbox)
                    """
                ).first
            else { return OutboxSummary(queued: 0, failing: 0, oldest: nil) }
            let (queued, failing, oldest) = try row.decode((Int64, Int64, Int64?).self)
            return OutboxSummary(
                queued: Int(queued), failing: Int(failing), oldest: oldest.map { Timestamp(millisecondsSince1970: $0) })
        }
    }

    // MARK: Provider identities

    private static let identityColumns = "provider, subject, user_id, email, linked_at_ms"

    private static func identity(_ row: PostgresRow) throws -> ProviderIdentity {
        let (provider, subject, userID, email, linked) = try row.decode((String, String, String, String?, Int64).self)
        return ProviderIdentity(
            provider: provider, subject: subject, userID: UserID(rawValue: userID), email: email,
            linkedAt: Timestamp(millisecondsSince1970: linked))
    }

    public func linkIdentity(_ identity: ProviderIdentity) async throws -> Bool {
        try await transaction { [schema] connection in
            guard
                !(try await connection.rows(
                    "SELECT 1 FROM \(unescaped: schema.users) WHERE id = \(identity.userID.rawValue) FOR SHARE"
                ).isEmpty)
            else { return false }
            let inserted = try await connection.rows(
                """
                INSERT INTO \(unescaped: schema.identities) (\(unescaped: Self.identityColumns)) VALUES (\(identity.provider),
                    \(identity.subject), \(identity.userID.rawValue), \(identity.email)::text,
                    \(identity.linkedAt.millisecondsSince1970))
                ON CONFLICT (provider, subject) DO NOTHING RETURNING 1
                """)
            guard !inserted.isEmpty else { throw AccountError.identityTaken }
            return true
        }
    }

    public func identity(provider: String, subject: String) async throws -> ProviderIdentity? {
        try await withConnection { [schema] connection in
            try await connection.rows(
                """
                SELECT \(unescaped: Self.identityColumns) FROM \(unescaped: schema.identities)
                WHERE provider = \(provider) AND subject = \(subject)
                """
            ).first.map(Self.identity)
        }
    }

    public func identities(userID: UserID) async throws -> [ProviderIdentity] {
        try await withConnection { [schema] connection in
            try await connection.rows(
                """
                SELECT \(unescaped: Self.identityColumns) FROM \(unescaped: schema.identities)
                WHERE user_id = \(userID.rawValue) ORDER BY provider, subject
                """
            ).map(Self.identity)
        }
    }

    public func unlinkIdentity(provider: String, subject: String, userID: UserID) async throws -> Bool {
        try await transaction { [schema] connection in
            !(try await connection.rows(
                """
                DELETE FROM \(unescaped: schema.identities)
                WHERE provider = \(provider) AND subject = \(subject) AND user_id = \(userID.rawValue) RETURNING 1
                """
            ).isEmpty)
        }
    }

    public func storeValue(forKey key: String) async throws -> String? {
        try await withConnection { [schema] connection in
            try await connection.rows("SELECT value FROM \(unescaped: schema.storeValues) WHERE key = \(key)").first
                .map { try $0.decode(String.self) }
        }
    }

    public func setStoreValue(_ value: String?, forKey key: String) async throws {
        try await transaction { [schema] connection in
            if let value {
                try await connection.run(
                    """
                    INSERT INTO \(unescaped: schema.storeValues) (key, value) VALUES (\(key), \(value))
                    ON CONFLICT (key) DO UPDATE SET value = excluded.value
                    """)
            } else {
                try await connection.run("DELETE FROM \(unescaped: schema.storeValues) WHERE key = \(key)")
            }
        }
    }

    public func recordLoginFailure(userID: UserID, at time: Timestamp) async throws -> Int? {
        try await transaction { [schema] connection in
            try await connection.rows(
                """
                UPDATE \(unescaped: schema.users) SET failed_login_count = failed_login_count + 1,
                    last_failed_login_at_ms = \(time.millisecondsSince1970)
                WHERE id = \(userID.rawValue) RETURNING failed_login_count
                """
            ).first.map { Int(try $0.decode(Int64.self)) }
        }
    }

    public func resetLoginFailures(userID: UserID) async throws {
        try await transaction { [schema] connection in
            try await connection.run(
                """
                UPDATE \(unescaped: schema.users) SET failed_login_count = 0, last_failed_login_at_ms = NULL
                WHERE id = \(userID.rawValue)
                """)
        }
    }

    public func deleteUser(id: UserID) async throws -> Bool {
        // Sessions go with the user through ON DELETE CASCADE, in the same statement.
        try await transaction { [schema] connection in
            !(try await connection.rows("DELETE FROM \(unescaped: schema.users) WHERE id = \(id.rawValue) RETURNING 1")
                .isEmpty)
        }
    }

    public func createSession(_ session: SessionRecord, ifPasswordHashIs passwordHash: String) async throws -> Bool {
        // One statement, one round trip: the user's row is read FOR SHARE, which a password
        // change's UPDATE (or a withdrawal's DELETE) waits for, or which waits for theirs and then
        // reads the row they left (read committed re-checks it), so the session is stored only
        // while the password is still the one verified.
        try await withConnection { [schema] connection in
            do {
                guard
                    try await connection.rows(
                        Self.insertSession(session, into: schema, ifPasswordHashIs: passwordHash)
                    ).isEmpty
                else { return true }
                // Nothing inserted: no such user or another password is `false`, as on every
                // backend; with them, the token hash is stored.
                let sameUser = try await !connection.rows(
                    """
                    SELECT 1 FROM \(unescaped: schema.users)
                    WHERE id = \(session.userID.rawValue) AND password_hash = \(passwordHash)
                    """
                ).isEmpty
                guard sameUser else { return false }
                throw AccountError.sessionAlreadyStored(of: session.userID)
            } catch let error as PSQLError where error.serverInfo?[.sqlState] == Self.foreignKeyViolation {
                return false
            }
        }
    }

    public func session(tokenHash: String) async throws -> SessionRecord? {
        try await withConnection { [schema] connection in
            try await connection.rows(
                "SELECT \(unescaped: Self.sessionColumns) FROM \(unescaped: schema.sessions) WHERE token_sha256 = \(tokenHash)"
            ).first.map(Self.session)
        }
    }

    /// The session joined with its user, in one round trip shared with the lookups that
    /// arrived meanwhile (`LookupCoalescer`).
    public func signedIn(tokenHash: String) async throws -> (session: SessionRecord, user: UserRecord?)? {
        try await signedInLookups.value(for: tokenHash)
    }

    /// One query for a batch of digests on a leased connection: the prepared `SignedInLookup`.
    private static func signedIn(
        _ tokenHashes: [String], on connection: PostgresConnection, options: PostgresOptions
    ) async throws -> [String: SignedInLookup.Found] {
        let lookup = SignedInLookup(tokenHashes: tokenHashes, schema: options.schema)
        var found: [String: SignedInLookup.Found] = [:]
        do {
            for try await row in try await connection.execute(lookup, logger: PostgresConnector.logger) {
                let one = try SignedInLookup.found(row)
                found[one.session.tokenHash] = one
            }
        } catch {
            if let error = error as? PSQLError, error.code == .server {
                // PostgresNIO keeps a failed preparation for the life of the connection, and would
                // answer every later lookup on it with the same error: the pool replaces it instead.
                try? await connection.close()
            }
            throw PostgresFailure.map(error, location: options.location)
        }
        return found
    }

    public func sessions(userID: UserID) async throws -> [SessionRecord] {
        try await withConnection { [schema] connection in
            try await connection.rows(
                """
                SELECT \(unescaped: Self.sessionColumns) FROM \(unescaped: schema.sessions)
                WHERE user_id = \(userID.rawValue) ORDER BY token_sha256
                """
            ).map(Self.session)
        }
    }

    public func touchSession(tokenHash: String, lastSeenAt: Timestamp) async throws {
        try await transaction { [schema] connection in
            try await connection.run(
                """
                UPDATE \(unescaped: schema.sessions) SET last_seen_at_ms = \(lastSeenAt.millisecondsSince1970)
                WHERE token_sha256 = \(tokenHash) AND last_seen_at_ms < \(lastSeenAt.millisecondsSince1970)
                """)
        }
    }

    public func deleteSession(tokenHash: String) async throws -> Bool {
        try await transaction { [schema] connection in
            !(try await connection.rows(
                "DELETE FROM \(unescaped: schema.sessions) WHERE token_sha256 = \(tokenHash) RETURNING 1"
            ).isEmpty)
        }
    }

    public func deleteOrphanedSessions() async throws -> Int {
        try await transaction { [schema] connection in
            try await connection.rows(
                """
                DELETE FROM \(unescaped: schema.sessions) s
                WHERE NOT EXISTS (SELECT 1 FROM \(unescaped: schema.users) u WHERE u.id = s.user_id) RETURNING 1
                """
            ).count
        }
    }

    /// How many times the pool was replaced after giving up on the server (tests read it).
    var poolReplacements: Int { pool.replacements }

    public func close() async throws {
        await pool.close()
    }

    // MARK: - Connections

    /// Runs `body` on a pooled connection, within the connect timeout for getting one.
    private func withConnection<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T)
        async throws -> T
    {
        try await pool.withConnection(body)
    }

    /// Runs `body` in a transaction on a pooled connection; reruns it, up to ``retries`` times,
    /// after any `storeBusy`: a serialization failure or deadlock, a lock or statement timeout
    /// the server's settings impose, or a cancelled statement (``PostgresFailure``). PostgreSQL
    /// rolled that transaction back, so nothing of it was kept.
    private func transaction<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T)
        async throws -> T
    {
        var attempt = 0
        while true {
            do {
                return try await withConnection { connection in
                    try await connection.inTransaction { try await body(connection) }
                }
            } catch let error as AccountError {
                if case .storeBusy = error, attempt < Self.retries {
                    attempt += 1
                    continue
                }
                throw error
            }
        }
    }

    // MARK: - Rows

    private static let userColumns =
        "id, email, nickname, password_hash, created_at_ms, password_changed_at_ms, failed_login_count, last_failed_login_at_ms, number, blocked, must_change_password, email_verified_at_ms"
    private static let sessionColumns =
        "token_sha256, user_id, created_at_ms, last_seen_at_ms, expires_at_ms, idle_timeout_s, remember, device, family"

    /// Inserts the user, and its first session when given, in one statement, numbering the
    /// user there: its own number when given (the highest number given rises to it), else one
    /// past the highest. Returns one row holding the user's number; none, and nothing inserted,
    /// when the email is taken. The highest number is a `WITH` part of the statement, rolled
    /// back with it, and not raised for an email already stored; only an email taken by a
    /// racing sign-up still raises it (a gap, never a number given twice). The foreign key's
    /// check runs at the statement's end, so it sees the user inserted before.
    private static func insertUser(
        _ user: UserRecord, with session: SessionRecord? = nil, into schema: PostgresSchema
    ) -> PostgresQuery {
        let given = user.number.map { Int64($0) }
        return """
            WITH number AS (
                UPDATE \(unescaped: schema.userNumbers)
                SET last = CASE WHEN \(given)::bigint IS NULL THEN last + 1 ELSE greatest(last, \(given)::bigint) END
                WHERE NOT EXISTS (SELECT 1 FROM \(unescaped: schema.users) WHERE email = \(user.email))
                RETURNING coalesce(\(given)::bigint, last) AS n),
            new_user AS (
                INSERT INTO \(unescaped: schema.users) (\(unescaped: userColumns))
                SELECT \(user.id.rawValue), \(user.email), \(ByteBuffer(string: user.nickname)), \(user.passwordHash),
                    \(user.createdAt.millisecondsSince1970), \(user.passwordChangedAt.millisecondsSince1970),
                    \(Int64(user.failedLoginCount)), \(user.lastFailedLoginAt?.millisecondsSince1970)::bigint, number.n,
                    \(user.isBlocked), \(user.mustChangePassword), \(user.emailVerifiedAt?.millisecondsSince1970)::bigint
                FROM number
                ON CONFLICT (email) DO NOTHING
                RETURNING number),
            new_session AS (
                INSERT INTO \(unescaped: schema.sessions) (\(unescaped: sessionColumns))
                SELECT \(session?.tokenHash)::text, \(session?.userID.rawValue)::text,
                    \(session?.createdAt.millisecondsSince1970)::bigint, \(session?.lastSeenAt.millisecondsSince1970)::bigint,
                    \(session?.expiresAt.millisecondsSince1970)::bigint, \(session?.idleTimeoutSeconds)::bigint,
                    \(session?.remember)::boolean, \(session.map { ByteBuffer(string: $0.device) })::bytea,
                    \(session?.family)::text
                FROM new_user WHERE \(session != nil)
                RETURNING 1)
            SELECT number FROM new_user
            """
    }

    /// SQLSTATE `foreign_key_violation`.
    private static let foreignKeyViolation = "23503"

    /// What `insert` returns, or the refusal every backend words the same when a primary key,
    /// or the number's index or check, refused it: ``AccountError/userIDInUse(_:)`` for
    /// `user`'s id stored under another email (a taken email comes back as no row, through
    /// `ON CONFLICT (email)`), ``AccountError/userNumberInUse(_:)`` for its number, and
    /// ``AccountError/sessionAlreadyStored(of:)`` for `session`'s token hash. The engine's own
    /// words would name a constraint, not the user.
    private static func refusingReused(
        _ user: UserRecord, with session: SessionRecord? = nil, _ insert: () async throws -> [PostgresRow]
    ) async throws -> [PostgresRow] {
        do {
            return try await insert()
        } catch let error as PSQLError where ["23505", "23514"].contains(error.serverInfo?[.sqlState]) {
            switch (error.serverInfo?[.constraintName], session) {
            case ("users_pkey", _): throw AccountError.userIDInUse(user.id)
            case ("users_number", _), ("users_number_positive", _): throw AccountError.userNumberInUse(user.number ?? 0)
            case ("sessions_pkey", let session?): throw AccountError.sessionAlreadyStored(of: session.userID)
            default: throw error
            }
        }
    }

    /// Returns one row, or none (and inserts nothing) when the token hash is already stored.
    private static func insertSession(_ session: SessionRecord, into schema: PostgresSchema) -> PostgresQuery {
        """
        INSERT INTO \(unescaped: schema.sessions) (\(unescaped: sessionColumns)) VALUES (\(session.tokenHash),
            \(session.userID.rawValue), \(session.createdAt.millisecondsSince1970),
            \(session.lastSeenAt.millisecondsSince1970), \(session.expiresAt.millisecondsSince1970),
            \(session.idleTimeoutSeconds), \(session.remember), \(ByteBuffer(string: session.device)),
            \(session.family))
        ON CONFLICT (token_sha256) DO NOTHING RETURNING 1
        """
    }

    /// The session's insert, drawing its user id from the user's row while that row has
    /// `passwordHash`, locked FOR SHARE.
    private static func insertSession(
        _ session: SessionRecord, into schema: PostgresSchema, ifPasswordHashIs passwordHash: String
    ) -> PostgresQuery {
        """
        INSERT INTO \(unescaped: schema.sessions) (\(unescaped: sessionColumns))
        SELECT \(session.tokenHash), u.id, \(session.createdAt.millisecondsSince1970),
            \(session.lastSeenAt.millisecondsSince1970), \(session.expiresAt.millisecondsSince1970),
            \(session.idleTimeoutSeconds), \(session.remember), \(ByteBuffer(string: session.device)), \(session.family)
        FROM (SELECT id FROM \(unescaped: schema.users)
            WHERE id = \(session.userID.rawValue) AND password_hash = \(passwordHash) FOR SHARE) u
        ON CONFLICT (token_sha256) DO NOTHING RETURNING 1
        """
    }

    private static func user(_ row: PostgresRow) throws -> UserRecord {
        let (id, email, nickname, hash, created, changed, failed, lastFailed, number, blocked, mustChange, verified) =
            try row.decode(
                (String, String, ByteBuffer, String, Int64, Int64, Int64, Int64?, Int64, Bool, Bool, Int64?).self)
        return UserRecord(
            id: UserID(rawValue: id), email: email, nickname: String(buffer: nickname), passwordHash: hash,
            createdAt: Timestamp(millisecondsSince1970: created),
            passwordChangedAt: Timestamp(millisecondsSince1970: changed), failedLoginCount: Int(failed),
            lastFailedLoginAt: lastFailed.map { Timestamp(millisecondsSince1970: $0) }, number: Int(number),
            isBlocked: blocked, mustChangePassword: mustChange,
            emailVerifiedAt: verified.map { Timestamp(millisecondsSince1970: $0) })
    }

    private static func session(_ row: PostgresRow) throws -> SessionRecord {
        let (token, userID, created, lastSeen, expires, idle, remember, device, family) = try row.decode(
            (String, String, Int64, Int64, Int64, Int64, Bool, ByteBuffer, String).self)
        return SessionRecord(
            tokenHash: token, userID: UserID(rawValue: userID), createdAt: Timestamp(millisecondsSince1970: created),
            lastSeenAt: Timestamp(millisecondsSince1970: lastSeen),
            expiresAt: Timestamp(millisecondsSince1970: expires),
            idleTimeoutSeconds: idle, remember: remember, device: String(buffer: device), family: family)
    }
}
