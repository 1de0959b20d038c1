import AccountCore
import CSQLite

/// Maps SQLite result codes to the typed errors, keeping SQLite's own message as detail.
enum SQLiteFailure {
    /// `SQLITE_CONSTRAINT_UNIQUE`, a macro Swift does not import: a UNIQUE index refused a row.
    static let constraintUnique: Int32 = 2067
    static func error(_ code: Int32, _ message: String, path: String) -> AccountError {
        let primary = code & 0xFF
        let detail: ErrorDetail = "\(path): \(message) (SQLite code \(code))"
        switch primary {
        case SQLITE_BUSY, SQLITE_LOCKED:
            return .storeBusy(detail: detail)
        case SQLITE_CORRUPT, SQLITE_NOTADB:
            return .storeCorrupted(detail: detail)
        case SQLITE_FULL:
            // Whether the transaction was rolled back is for the caller to say: a COMMIT that
            // fails on a full disk may have written its last frame already.
            return .storeIO(detail: "\(path): disk full (\(message))")
        case SQLITE_READONLY, SQLITE_PERM, SQLITE_AUTH, SQLITE_CANTOPEN:
            return .storeIO(detail: detail)
        case SQLITE_CONSTRAINT where code == constraintUnique:
            // The only UNIQUE index besides primary keys is the email's.
            return .emailTaken
        default:
            return .storeIO(detail: detail)
        }
    }
}
