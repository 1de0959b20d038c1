import AccountCore

/// SQLite answers "database disk image is malformed" for damage, but also when a read fails or
/// comes back short in the middle of a page: a passing I/O fault looks like corruption. Telling an
/// operator "corrupted" sends them to a backup for nothing, so a corruption is confirmed on a
/// fresh connection before it is reported.
enum SQLiteDamageCheck {
    /// Runs `body`; a `storeCorrupted` it throws stands only if `PRAGMA quick_check` confirms it.
    static func confirming<T>(_ path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch AccountError.storeCorrupted(let detail) {
            throw recheck(path, detail)
        }
    }

    /// The error to report for a corruption SQLite reported at `path`.
    static func recheck(_ path: String, _ detail: String) -> AccountError {
        let findings: [String]
        do {
            let connection = try SQLiteConnection(path: path, access: .readWrite)
            defer { connection.close() }
            findings = try connection.rows("PRAGMA quick_check") { row throws(AccountError) in try row.text(0) }
        } catch .storeCorrupted {
            // The file does not even open as a database: the damage is real.
            return .storeCorrupted(detail: detail)
        } catch {
            return .storeIO(
                detail:
                    "\(detail); the store could not be read again to confirm any damage (\(error.message(.english))), so this may be a passing I/O error: run accounts doctor"
            )
        }
        // quick_check reports a page it could not read ("error code=266", an I/O error) among its
        // findings: that says the disk failed again, not that the store is damaged.
        if findings.contains(where: { $0.contains("unable to get the page") }) {
            return .storeIO(
                detail:
                    "\(detail); reading the store again to confirm any damage failed too (\(findings.prefix(2).joined(separator: " "))), so this may be an I/O error rather than damage: run accounts doctor"
            )
        }
        guard findings == ["ok"] else {
            return .storeCorrupted(detail: "\(detail); quick_check: \(findings.prefix(3).joined(separator: "; "))")
        }
        return .storeIO(
            detail: "\(detail), yet the store checks out sound (PRAGMA quick_check), so a read failed in passing: retry"
        )
    }
}
