import AccountCore

/// Brings a store to `SQLiteSchema.currentVersion`, one transaction for all steps, and stamps
/// a new store with its application id, format name and store id.
enum SQLiteMigrator {
    /// Migrates `connection` if it is behind; refuses a store that is ahead, and one that is
    /// behind unless `upgrading` (a new, empty file is always set up).
    static func migrate(
        _ connection: SQLiteConnection, newStoreID: () -> String, now: Timestamp, upgrading: Bool = true
    ) throws(AccountError) {
        let current = SQLiteSchema.currentVersion
        if try version(of: connection) == current { return }
        try connection.immediateTransaction { () throws(AccountError) in
            // Re-read under the write lock: another process may have migrated meanwhile.
            let found = try version(of: connection)
            if found > current {
                throw .storeVersionUnsupported(found: found, supported: current)
            }
            guard found < current else { return }
            if found > 0 && !upgrading { throw .storeUpgradeNeeded(found: found, current: current) }
            for step in found..<current {
                try connection.execute(SQLiteSchema.migrations[step])
            }
            if found == 0 {
                try connection.execute("PRAGMA application_id = \(SQLiteSchema.applicationID)")
                let insert = "INSERT INTO store_meta (key, value) VALUES (?, ?)"
                try connection.run(insert, [.text("format"), .text(SQLiteSchema.formatName)])
                try connection.run(insert, [.text("store_id"), .text(newStoreID())])
                try connection.run(insert, [.text("created_at_ms"), .text(String(now.millisecondsSince1970))])
            }
            // `current` is a compile-time count, not input: safe to put in the pragma.
            try connection.execute("PRAGMA user_version = \(current)")
        }
    }

    static func version(of connection: SQLiteConnection) throws(AccountError) -> Int {
        Int(try connection.firstRow("PRAGMA user_version") { row throws(AccountError) in try row.integer(0) } ?? 0)
    }
}
