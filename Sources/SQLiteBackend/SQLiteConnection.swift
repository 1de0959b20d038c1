import AccountCore
import CSQLite

#if canImport(Glibc)
    import Glibc
#endif

/// SQLite's "copy the bytes now" destructor, which Swift does not import.
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A value bound to a statement parameter. Values are only ever bound, never spliced into SQL.
enum SQLiteValue {
    case text(String)
    case integer(Int64)
    case null
}

/// One open `sqlite3*` and its prepared statements. Not thread-safe, so not `Sendable`: it is
/// made on the repository's I/O queue and handed over (`sending`) to a `Mutex` that owns it
/// from then on, and no pointer leaves this type.
final class SQLiteConnection {
    let path: String
    private var handle: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]

    /// Opens an existing database (`create: false`) or creates one.
    convenience init(path: String, create: Bool) throws(AccountError) {
        try self.init(path: path, access: create ? .create : .readWrite)
    }

    /// How a connection opens its file.
    enum Access {
        case create, readWrite
        /// SQLite's read-only open: it still needs the `-shm` file of WAL mode.
        case readOnly
        /// `immutable=1`: for a store nobody may change while it is read (no locks, no `-shm`).
        case immutable
    }

    init(path: String, access: Access) throws(AccountError) {
        self.path = path
        var db: OpaquePointer?
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        var name = path
        switch access {
        case .create: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .readWrite: flags |= SQLITE_OPEN_READWRITE
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        case .immutable:
            flags |= SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
            // A URI: `%`, `?`, `#` and every non-ASCII byte percent-encoded.
            let escaped = path.utf8.map { byte in
                byte >= 0x80 || byte == UInt8(ascii: "%") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#")
                    ? "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
                    : String(UnicodeScalar(byte))
            }.joined()
            name = "file:" + escaped + "?immutable=1"
        }
        let status = sqlite3_open_v2(name, &db, flags, nil)
        guard status == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(db)
            throw SQLiteFailure.error(status, message, path: path)
        }
        handle = db
    }

    deinit { close() }

    /// Finalizes every statement and closes the database.
    func close() {
        for statement in statements.values { sqlite3_finalize(statement) }
        statements = [:]
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    /// The open database. A closed connection refuses every call with a typed error: a store
    /// can be closed while calls still reach it (a server stopping), and SQLite, as Debian
    /// builds it, dereferences a null handle instead of refusing it.
    private func openHandle() throws(AccountError) -> OpaquePointer {
        guard let handle else {
            throw .storeIO(
                detail: ErrorDetail([
                    .text("\(path): the store was closed before this call"), .outcome(.nothingChanged),
                ]))
        }
        return handle
    }

    /// Sets how long SQLite retries a locked database before `SQLITE_BUSY` (nothing to set on a
    /// closed connection, whose next call is refused anyway).
    func setBusyTimeout(milliseconds: Int) {
        guard let handle else { return }
        sqlite3_busy_timeout(handle, Int32(clamping: milliseconds))
    }

    /// Runs SQL without parameters or results (pragmas, DDL, transaction control).
    func execute(_ sql: String) throws(AccountError) {
        let handle = try openHandle()
        var message: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        guard status == SQLITE_OK else {
            throw SQLiteFailure.error(status, message.map { String(cString: $0) } ?? lastMessage, path: path)
        }
    }

    /// Runs a cached statement with `values`; returns the number of rows it changed.
    @discardableResult
    func run(_ sql: String, _ values: [SQLiteValue] = []) throws(AccountError) -> Int {
        try withStatement(sql, values) { statement throws(AccountError) in
            let status = sqlite3_step(statement)
            guard status == SQLITE_DONE || status == SQLITE_ROW else {
                throw SQLiteFailure.error(status, lastMessage, path: path)
            }
            return Int(sqlite3_changes(handle))
        }
    }

    /// Runs a cached query and maps every row.
    func rows<T>(_ sql: String, _ values: [SQLiteValue] = [], _ map: (SQLiteRow) throws(AccountError) -> T)
        throws(AccountError) -> [T]
    {
        try withStatement(sql, values) { statement throws(AccountError) in
            var result: [T] = []
            while true {
                let status = sqlite3_step(statement)
                if status == SQLITE_DONE { return result }
                guard status == SQLITE_ROW else { throw SQLiteFailure.error(status, lastMessage, path: path) }
                result.append(try map(SQLiteRow(statement: statement, path: path)))
            }
        }
    }

    /// The first row of a query, mapped, or `nil` when there is none.
    func firstRow<T>(_ sql: String, _ values: [SQLiteValue] = [], _ map: (SQLiteRow) throws(AccountError) -> T)
        throws(AccountError) -> T?
    {
        try rows(sql, values, map).first
    }

    /// Runs `body` with a page cache of at most `pages` pages, then gives the connection its
    /// cache size back. For a statement that reads a whole index once (a count): with the
    /// default cache (2 MiB) every page it reads gets a buffer of its own, memory the process
    /// must map and fault in for pages nobody reads again — a quarter of what a one-shot
    /// `accounts users count` of 100,000 users costs — where a few recycled buffers do.
    /// Shrinking the cache drops the pages it held, so a long-lived connection reads them
    /// again afterwards (from the system's page cache).
    func withPageCache<T>(pages: Int, _ body: () throws(AccountError) -> T) throws(AccountError) -> T {
        let previous = try firstRow("PRAGMA cache_size") { row throws(AccountError) in try row.integer(0) }
        try execute("PRAGMA cache_size = \(pages)")
        // A cache size that could not be put back only makes later reads slower, never wrong.
        defer { if let previous { try? execute("PRAGMA cache_size = \(previous)") } }
        return try body()
    }

    /// Runs `body` in `BEGIN IMMEDIATE … COMMIT`, rolling back when it throws. Taking the write
    /// lock up front means the busy timeout applies and no read snapshot is upgraded late. A
    /// store I/O error says what became of the transaction, where that is known.
    func immediateTransaction<T>(_ body: () throws(AccountError) -> T) throws(AccountError) -> T {
        try run("BEGIN IMMEDIATE")
        let result: T
        do throws(AccountError) {
            result = try body()
        } catch {
            if let handle, sqlite3_get_autocommit(handle) == 0 { _ = try? run("ROLLBACK") }
            // Before COMMIT nothing of it is in the log: rolled back, by SQLite or just now.
            guard case .storeIO = error, let handle, sqlite3_get_autocommit(handle) != 0 else {
                throw error
            }
            throw error.addingOutcome(.transactionRolledBack)
        }
        do throws(AccountError) {
            try run("COMMIT")
        } catch .storeIO(let detail) {
            // A COMMIT that fails may leave the transaction open (then rolling it back is
            // certain), or end it with its frames already in the log and visible to readers:
            // then neither "rolled back" nor "done" would be true.
            if let handle, sqlite3_get_autocommit(handle) == 0, (try? run("ROLLBACK")) != nil {
                throw .storeIO(detail: detail.adding(.outcome(.transactionRolledBack)))
            }
            throw .storeIO(detail: detail.adding(.outcome(.commitUncertain)))
        } catch {
            if let handle, sqlite3_get_autocommit(handle) == 0 { _ = try? run("ROLLBACK") }
            throw error
        }
        return result
    }

    /// The error number of the last system call on the database file or its log (the WAL) that
    /// failed since this connection opened them, if any did. SQLite turns a read that fails with
    /// EIO into "database disk image is malformed" once a statement runs, and its own error
    /// codes then no longer tell the two apart; each file keeps the errno, so this still can.
    var lastFileError: Int32? {
        guard let handle else { return nil }
        var main: Int32 = 0
        if sqlite3_file_control(handle, "main", SQLITE_FCNTL_LAST_ERRNO, &main) == SQLITE_OK, main != 0 {
            return main
        }
        var log: UnsafeMutablePointer<sqlite3_file>?
        guard sqlite3_file_control(handle, "main", SQLITE_FCNTL_JOURNAL_POINTER, &log) == SQLITE_OK, let log,
            let control = log.pointee.pMethods?.pointee.xFileControl
        else { return nil }
        var logError: Int32 = 0
        guard control(log, SQLITE_FCNTL_LAST_ERRNO, &logError) == SQLITE_OK, logError != 0 else { return nil }
        return logError
    }

    /// SQLite's message for the last failure, with the operating system's reason for I/O ones.
    private var lastMessage: String {
        guard let handle else { return "closed" }
        let message = String(cString: sqlite3_errmsg(handle))
        let primary = sqlite3_errcode(handle) & 0xFF
        let systemError = sqlite3_system_errno(handle)
        guard [SQLITE_IOERR, SQLITE_FULL, SQLITE_CANTOPEN].contains(primary), systemError != 0 else { return message }
        return "\(message): \(String(cString: strerror(systemError)))"
    }

    private func withStatement<T>(
        _ sql: String, _ values: [SQLiteValue], _ body: (OpaquePointer) throws(AccountError) -> T
    )
        throws(AccountError) -> T
    {
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (index, value) in values.enumerated() {
            let position = Int32(index + 1)
            let status: Int32
            switch value {
            case .text(var text):
                // The string's own UTF-8, copied by SQLite (no terminated copy made first); the
                // explicit length keeps embedded NULs. A nil pointer would bind NULL, not "".
                status = text.withUTF8 { utf8 in
                    guard let base = utf8.baseAddress, !utf8.isEmpty else {
                        return sqlite3_bind_text(statement, position, "", 0, transient)
                    }
                    return base.withMemoryRebound(to: CChar.self, capacity: utf8.count) {
                        sqlite3_bind_text(statement, position, $0, Int32(utf8.count), transient)
                    }
                }
            case .integer(let number):
                status = sqlite3_bind_int64(statement, position, number)
            case .null:
                status = sqlite3_bind_null(statement, position)
            }
            guard status == SQLITE_OK else { throw SQLiteFailure.error(status, lastMessage, path: path) }
        }
        return try body(statement)
    }

    private func prepared(_ sql: String) throws(AccountError) -> OpaquePointer {
        if let cached = statements[sql] { return cached }
        let handle = try openHandle()
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard status == SQLITE_OK, let statement else { throw SQLiteFailure.error(status, lastMessage, path: path) }
        statements[sql] = statement
        return statement
    }
}

/// The current row of a stepping statement.
struct SQLiteRow {
    fileprivate let statement: OpaquePointer
    let path: String

    func text(_ column: Int32) throws(AccountError) -> String {
        guard sqlite3_column_type(statement, column) != SQLITE_NULL, let bytes = sqlite3_column_text(statement, column)
        else {
            if sqlite3_column_type(statement, column) == SQLITE_TEXT { return "" }
            throw .storeCorrupted(detail: "\(path): a text column holds NULL")
        }
        let count = Int(sqlite3_column_bytes(statement, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    func integer(_ column: Int32) throws(AccountError) -> Int64 {
        guard sqlite3_column_type(statement, column) == SQLITE_INTEGER else {
            throw .storeCorrupted(detail: "\(path): an integer column holds another type")
        }
        return sqlite3_column_int64(statement, column)
    }

    func isNull(_ column: Int32) -> Bool {
        sqlite3_column_type(statement, column) == SQLITE_NULL
    }

    func optionalInteger(_ column: Int32) throws(AccountError) -> Int64? {
        sqlite3_column_type(statement, column) == SQLITE_NULL ? nil : try integer(column)
    }
}
