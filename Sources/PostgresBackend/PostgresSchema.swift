/// The PostgreSQL store's format: versioned migrations recorded in `schema_migrations`, and a
/// `store_meta` table with the format name and the store id. Every name is qualified with the
/// configured schema, so several stores can share one database.
///
/// Emails, ids and token hashes use the "C" collation: byte order for `ORDER BY` and byte
/// equality for the UNIQUE index, whatever the database's locale, as in the embedded backends.
/// Nicknames are `bytea` holding UTF-8, because `text` cannot hold U+0000 and the contract
/// promises every byte back.
package struct PostgresSchema: Sendable {
    /// The format name kept in `store_meta`.
    package static let formatName = "accountstore-postgres"
    /// The tables a store of every version has (version 2 adds `user_numbers`).
    static let tableNames: Set<String> = ["schema_migrations", "store_meta", "users", "sessions"]

    /// The schema, already validated (`PostgresOptions.isValidSchemaName`) and quoted here.
    let name: String

    package var quoted: String { "\"\(name)\"" }
    package var users: String { "\(quoted).users" }
    package var sessions: String { "\(quoted).sessions" }
    package var storeMeta: String { "\(quoted).store_meta" }
    package var schemaMigrations: String { "\(quoted).schema_migrations" }
    package var userNumbers: String { "\(quoted).user_numbers" }
    package var storeValues: String { "\(quoted).store_values" }
    package var rotatedTokens: String { "\(quoted).rotated_tokens" }
    package var codes: String { "\(quoted).codes" }
    package var outbox: String { "\(quoted).outbox" }
    package var identities: String { "\(quoted).identities" }

    /// Migration `n` brings a store from version `n - 1` to `n`: its statements run in the
    /// opening transaction, under the advisory lock (one statement each, as the extended query
    /// protocol requires).
    var migrations: [[String]] {
        [
            // v1
            [
                """
                CREATE TABLE \(users) (
                    id text COLLATE "C" PRIMARY KEY,
                    email text COLLATE "C" NOT NULL,
                    nickname bytea NOT NULL,
                    password_hash text NOT NULL,
                    created_at_ms bigint NOT NULL,
                    password_changed_at_ms bigint NOT NULL,
                    failed_login_count bigint NOT NULL DEFAULT 0,
                    last_failed_login_at_ms bigint
                )
                """,
                "CREATE UNIQUE INDEX users_email ON \(users) (email)",
                """
                CREATE TABLE \(sessions) (
                    token_sha256 text COLLATE "C" PRIMARY KEY,
                    user_id text COLLATE "C" NOT NULL REFERENCES \(users) (id) ON DELETE CASCADE,
                    created_at_ms bigint NOT NULL,
                    last_seen_at_ms bigint NOT NULL,
                    expires_at_ms bigint NOT NULL,
                    idle_timeout_s bigint NOT NULL,
                    remember boolean NOT NULL
                )
                """,
                "CREATE INDEX sessions_user ON \(sessions) (user_id, token_sha256)",
                "CREATE TABLE \(storeMeta) (key text PRIMARY KEY, value text NOT NULL)",
            ],
            // v2: user numbers, given to the users already stored in creation order (ties by
            // id), and the highest number ever given in a one-row table: updated in the
            // inserting statement, it is rolled back with it (a sequence is not), and its row
            // lock orders racing sign-ups on every host.
            [
                "ALTER TABLE \(users) ADD COLUMN number bigint",
                """
                UPDATE \(users) AS u SET number = ranked.n
                FROM (SELECT id, row_number() OVER (ORDER BY created_at_ms, id) AS n FROM \(users)) AS ranked
                WHERE u.id = ranked.id
                """,
                "ALTER TABLE \(users) ALTER COLUMN number SET NOT NULL",
                "ALTER TABLE \(users) ADD CONSTRAINT users_number_positive CHECK (number > 0)",
                "CREATE UNIQUE INDEX users_number ON \(users) (number)",
                "CREATE TABLE \(userNumbers) (last bigint NOT NULL)",
                "INSERT INTO \(userNumbers) (last) SELECT count(*) FROM \(users)",
            ],
            // v3: the name of the device each session was opened on (UTF-8 in bytea, as the
            // nickname); sessions made before have none.
            [
                "ALTER TABLE \(sessions) ADD COLUMN device bytea NOT NULL DEFAULT ''::bytea"
            ],
            // v4: an account's state, each as an account made before had it (active, its own
            // password, not proven); and the values the services keep, apart from store_meta.
            [
                "ALTER TABLE \(users) ADD COLUMN blocked boolean NOT NULL DEFAULT false",
                "ALTER TABLE \(users) ADD COLUMN must_change_password boolean NOT NULL DEFAULT false",
                "ALTER TABLE \(users) ADD COLUMN email_verified_at_ms bigint",
                "CREATE TABLE \(storeValues) (key text COLLATE \"C\" PRIMARY KEY, value text NOT NULL)",
            ],
            // v5: each session's refresh family (a session made before is a family of its own), the
            // tokens refreshes replaced, the codes mailed to users, the outbox, and the identities
            // at outside providers; each goes with its user.
            [
                "ALTER TABLE \(sessions) ADD COLUMN family text COLLATE \"C\" NOT NULL DEFAULT ''",
                "UPDATE \(sessions) SET family = token_sha256",
                "CREATE INDEX sessions_family ON \(sessions) (user_id, family)",
                """
                CREATE TABLE \(rotatedTokens) (
                    token_sha256 text COLLATE "C" PRIMARY KEY,
                    user_id text COLLATE "C" NOT NULL REFERENCES \(users) (id) ON DELETE CASCADE,
                    family text COLLATE "C" NOT NULL,
                    rotated_at_ms bigint NOT NULL,
                    expires_at_ms bigint NOT NULL
                )
                """,
                "CREATE INDEX rotated_tokens_user ON \(rotatedTokens) (user_id)",
                """
                CREATE TABLE \(codes) (
                    code_sha256 text COLLATE "C" PRIMARY KEY,
                    user_id text COLLATE "C" NOT NULL REFERENCES \(users) (id) ON DELETE CASCADE,
                    purpose text COLLATE "C" NOT NULL,
                    created_at_ms bigint NOT NULL,
                    expires_at_ms bigint NOT NULL
                )
                """,
                "CREATE UNIQUE INDEX codes_user_purpose ON \(codes) (user_id, purpose)",
                """
                CREATE TABLE \(outbox) (
                    id text COLLATE "C" PRIMARY KEY,
                    kind text NOT NULL,
                    recipient text NOT NULL,
                    language text NOT NULL,
                    payload text NOT NULL,
                    created_at_ms bigint NOT NULL,
                    attempts bigint NOT NULL,
                    not_before_ms bigint NOT NULL,
                    last_error text
                )
                """,
                "CREATE INDEX outbox_due ON \(outbox) (not_before_ms, id)",
                """
                CREATE TABLE \(identities) (
                    provider text COLLATE "C" NOT NULL,
                    subject text COLLATE "C" NOT NULL,
                    user_id text COLLATE "C" NOT NULL REFERENCES \(users) (id) ON DELETE CASCADE,
                    email text,
                    linked_at_ms bigint NOT NULL,
                    PRIMARY KEY (provider, subject)
                )
                """,
                "CREATE INDEX identities_user ON \(identities) (user_id, provider, subject)",
            ],
        ]
    }

    /// The table every migration's version is recorded in; created with the first.
    package var migrationsTable: String {
        "CREATE TABLE \(schemaMigrations) (version integer PRIMARY KEY, applied_at_ms bigint NOT NULL)"
    }

    /// The format version this build writes.
    static var currentVersion: Int { PostgresSchema(name: "x").migrations.count }
}
