import AccountCore

#if canImport(Glibc)
    import Glibc
#endif

/// SQLite answers "database disk image is malformed" for damage, but also when a read fails or
/// comes back short in the middle of a page: a passing I/O fault looks like corruption. Telling an
/// operator "corrupted" sends them to a backup for nothing, so a corruption is confirmed on fresh
/// connections before it is reported.
enum SQLiteDamageCheck {
    /// Runs `body`; a `storeCorrupted` it throws stands only if `PRAGMA quick_check` confirms it.
    static func confirming<T>(_ path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch AccountError.storeCorrupted(let detail) {
            throw recheck(path, detail.description)
        }
    }

    /// The error to report for a corruption SQLite reported at `path`: `storeCorrupted` only when
    /// two checks find the same damage and no system call failed during either. The check reads
    /// the same disk, so one of its reads can fail too (the fault sweep saw a sound store called
    /// corrupted so); damage is the same on every read, a failing read seldom is.
    static func recheck(_ path: String, _ detail: String) -> AccountError {
        var earlier: [String]?
        for _ in 0..<2 {
            switch examine(path) {
            case .sound:
                return .storeIO(
                    detail:
                        "\(detail), yet the store checks out sound (PRAGMA quick_check), so a read failed in passing: retry"
                )
            case .unreadable(let reason):
                return .storeIO(
                    detail:
                        "\(detail); reading the store again to confirm any damage failed too (\(reason)), so this may be an I/O error rather than damage: run accounts doctor"
                )
            case .damaged(let findings):
                if findings == earlier {
                    return .storeCorrupted(
                        detail: "\(detail); quick_check: \(findings.prefix(3).joined(separator: "; "))")
                }
                earlier = findings
            }
        }
        return .storeIO(
            detail:
                "\(detail); two checks of the store found different damage, so reads are failing rather than the store being damaged: run accounts doctor"
        )
    }

    /// What one check of the store on a fresh connection found.
    enum Verdict {
        case sound
        /// A read of the check failed: it says nothing about damage.
        case unreadable(String)
        /// What `quick_check` reported, or the error it stopped with.
        case damaged([String])
    }

    /// Runs `PRAGMA quick_check` on a fresh connection to `path`.
    static func examine(_ path: String) -> Verdict {
        let connection: SQLiteConnection
        do {
            connection = try SQLiteConnection(path: path, access: .readWrite)
        } catch {
            return .unreadable(error.message(.english))
        }
        defer { connection.close() }
        let findings: [String]
        do {
            findings = try connection.rows("PRAGMA quick_check") { row throws(AccountError) in try row.text(0) }
        } catch .storeCorrupted(let detail) {
            // A read that failed with EIO while the check ran is reported as damage too.
            if let failure = connection.lastFileError { return .unreadable(readFailed(detail.description, failure)) }
            return .damaged([detail.description])
        } catch {
            return .unreadable(error.message(.english))
        }
        if findings == ["ok"] { return .sound }
        if let failure = connection.lastFileError {
            return .unreadable(readFailed(findings.prefix(2).joined(separator: " "), failure))
        }
        // quick_check lists a page it could not read ("error code=266", an I/O error) among its
        // findings: that says the disk failed again, not that the store is damaged.
        if findings.contains(where: { $0.contains("unable to get the page") }) {
            return .unreadable(findings.prefix(2).joined(separator: " "))
        }
        return .damaged(findings)
    }

    /// What a check found, and the system's reason for the read that failed under it.
    private static func readFailed(_ found: String, _ failure: Int32) -> String {
        "\(found), after a read failed: \(String(cString: strerror(failure)))"
    }
}
