/// The SQLite store's format: its stamp and its migrations, oldest first.
///
/// A store records `PRAGMA application_id` (so another program's database is refused) and
/// `PRAGMA user_version` (the format version). Opening a store older than this build runs the
/// missing migrations in one transaction; a newer one is refused.
enum SQLiteSchema {
    /// "ACST" — written into the database header so the file says what it is.
    static let applicationID: Int32 = 0x4143_5354
    /// The format name kept in `store_meta`.
    static let formatName = "accountstore-sqlite"
    /// Migration `n` brings a store from version `n - 1` to `n`.
    static let migrations: [String] = [
        // v1
        """
        CREATE TABLE users (
            id TEXT PRIMARY KEY NOT NULL,
            email TEXT NOT NULL,
            nickname TEXT NOT NULL,
            password_hash TEXT NOT NULL,
            created_at_ms INTEGER NOT NULL,
            password_changed_at_ms INTEGER NOT NULL,
            failed_login_count INTEGER NOT NULL DEFAULT 0,
            last_failed_login_at_ms INTEGER
        ) STRICT;
        CREATE UNIQUE INDEX users_email ON users(email);
        CREATE TABLE sessions (
            token_sha256 TEXT PRIMARY KEY NOT NULL,
            user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            created_at_ms INTEGER NOT NULL,
            last_seen_at_ms INTEGER NOT NULL,
            expires_at_ms INTEGER NOT NULL,
            idle_timeout_s INTEGER NOT NULL,
            remember INTEGER NOT NULL
        ) STRICT;
        CREATE INDEX sessions_user ON sessions(user_id);
        CREATE TABLE store_meta (
            key TEXT PRIMARY KEY NOT NULL,
            value TEXT NOT NULL
        ) STRICT;
        """,
        // v2: user numbers, given to the users already stored in creation order (ties by id),
        // and the highest number ever given, kept apart from the users so that a withdrawal
        // never frees one. The column cannot be NOT NULL (ALTER TABLE adds none without a
        // default); every insert gives it, and the integrity check finds a row without.
        """
        ALTER TABLE users ADD COLUMN number INTEGER CHECK (number > 0);
        UPDATE users SET number = ranked.n
            FROM (SELECT id, row_number() OVER (ORDER BY created_at_ms, id) AS n FROM users) AS ranked
            WHERE users.id = ranked.id;
        CREATE UNIQUE INDEX users_number ON users(number);
        CREATE TABLE user_numbers (last INTEGER NOT NULL) STRICT;
        INSERT INTO user_numbers (last) SELECT count(*) FROM users;
        """,
        // v3: the name of the device each session was opened on; sessions made before have none.
        """
        ALTER TABLE sessions ADD COLUMN device TEXT NOT NULL DEFAULT '';
        """,
        // v4: an account's state (blocked, a temporary password, a proven email), each as an
        // account made before had it (active, its own password, not proven); and the values the
        // services keep in the store, apart from store_meta, which is the store's own.
        """
        ALTER TABLE users ADD COLUMN blocked INTEGER NOT NULL DEFAULT 0 CHECK (blocked IN (0, 1));
        ALTER TABLE users ADD COLUMN must_change_password INTEGER NOT NULL DEFAULT 0
            CHECK (must_change_password IN (0, 1));
        ALTER TABLE users ADD COLUMN email_verified_at_ms INTEGER;
        CREATE TABLE store_values (
            key TEXT PRIMARY KEY NOT NULL,
            value TEXT NOT NULL
        ) STRICT;
        """,
        // v5: each session's refresh family (a session made before is a family of its own), the
        // tokens refreshes replaced, the codes mailed to users, the outbox, and the identities
        // at outside providers; each goes with its user.
        """
        ALTER TABLE sessions ADD COLUMN family TEXT NOT NULL DEFAULT '';
        UPDATE sessions SET family = token_sha256;
        CREATE INDEX sessions_family ON sessions(user_id, family);
        CREATE TABLE rotated_tokens (
            token_sha256 TEXT PRIMARY KEY NOT NULL,
            user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            family TEXT NOT NULL,
            rotated_at_ms INTEGER NOT NULL,
            expires_at_ms INTEGER NOT NULL
        ) STRICT;
        CREATE INDEX rotated_tokens_user ON rotated_tokens(user_id);
        CREATE TABLE codes (
            code_sha256 TEXT PRIMARY KEY NOT NULL,
            user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            purpose TEXT NOT NULL,
            created_at_ms INTEGER NOT NULL,
            expires_at_ms INTEGER NOT NULL
        ) STRICT;
        CREATE UNIQUE INDEX codes_user_purpose ON codes(user_id, purpose);
        CREATE TABLE outbox (
            id TEXT PRIMARY KEY NOT NULL,
            kind TEXT NOT NULL,
            recipient TEXT NOT NULL,
            language TEXT NOT NULL,
            payload TEXT NOT NULL,
            created_at_ms INTEGER NOT NULL,
            attempts INTEGER NOT NULL,
            not_before_ms INTEGER NOT NULL,
            last_error TEXT
        ) STRICT;
        CREATE INDEX outbox_due ON outbox(not_before_ms, id);
        CREATE TABLE identities (
            provider TEXT NOT NULL,
            subject TEXT NOT NULL,
            user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            email TEXT,
            linked_at_ms INTEGER NOT NULL,
            PRIMARY KEY (provider, subject)
        ) STRICT;
        CREATE INDEX identities_user ON identities(user_id, provider, subject);
        """,
    ]

    /// The format version this build writes.
    static var currentVersion: Int { migrations.count }
}
