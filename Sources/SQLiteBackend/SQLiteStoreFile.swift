import AccountBackendKit
import AccountCore
import DurableFiles

#if canImport(Glibc)
    import Glibc
#endif

/// What can be known about a SQLite store from its file alone, before SQLite opens it: so a
/// foreign or newer file is refused without SQLite writing anything beside it.
enum SQLiteStoreFile {
    /// Refuses a file that is not this program's SQLite store, or of a newer format.
    static func inspect(_ path: String, recognizer: StoreRecognizer) throws(AccountError) {
        let header = try StoreFile.readPrefix(path, count: 100).bytes
        if header.isEmpty { throw .storeCorrupted(detail: "\(path) is empty (0 bytes)") }
        if !header.starts(with: SQLiteBackendDescriptor.magic) {
            if let found = recognizer.describe(fileHeader: Array(header.prefix(64))) {
                throw .storeKindMismatch(expected: "SQLite", found: found)
            }
            throw .storeCorrupted(detail: "\(path) is not a SQLite database (damaged or another kind of file)")
        }
        guard header.count >= 100 else {
            throw .storeCorrupted(detail: "\(path): the SQLite header is truncated (\(header.count) bytes)")
        }
        let applicationID = bigEndian(header, at: 68)
        guard applicationID == SQLiteSchema.applicationID else {
            throw .storeKindMismatch(
                expected: "SQLite",
                found: "a SQLite database of another application (application_id \(applicationID))")
        }
        // The header can lag behind the WAL, but only with an older version: a newer one is final.
        let version = Int(bigEndian(header, at: 60))
        if version > SQLiteSchema.currentVersion {
            throw .storeVersionUnsupported(found: version, supported: SQLiteSchema.currentVersion)
        }
    }

    /// Creates a new store at `path` without ever showing a half-made file there: build it in a
    /// private temporary file, then hard-link it into place (which fails if someone else won).
    static func create(_ path: String, synchronous: SQLiteOptions.Synchronous, storeID: String) throws(AccountError) {
        let temporary = path + ".init-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(temporary, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw POSIXFailure.error("create", path: path) }
        close(fd)
        defer {
            unlink(temporary)
            unlink(temporary + "-wal")
            unlink(temporary + "-shm")
        }
        // Whatever goes wrong while building the private file (a read that fails mid-page looks
        // like damage to SQLite) is an I/O failure of this creation: the file is thrown away.
        do throws(AccountError) {
            try build(temporary, synchronous: synchronous, storeID: storeID)
        } catch .storeCorrupted(let detail) {
            throw .storeIO(
                detail: detail.renamingPath(temporary, to: path).adding(.text("the new store could not be built"))
                    .adding(.outcome(.nothingCreated(path: path))))
        } catch {
            throw error.renamingPath(temporary, to: path)
        }
        var log = stat()
        guard stat(temporary + "-wal", &log) != 0 || log.st_size == 0 else {
            throw AccountError.storeIO(
                detail: ErrorDetail([
                    .text("\(path): the new store's log could not be folded into it"),
                    .outcome(.nothingCreated(path: nil)),
                ]))
        }
        guard link(temporary, path) == 0 || errno == EEXIST else {
            throw POSIXFailure.error("create", path: path)
        }
        try StoreFile.syncDirectory(of: path)
    }

    /// Writes the schema into the private file and folds its WAL into it.
    private static func build(
        _ temporary: String, synchronous: SQLiteOptions.Synchronous, storeID: String
    ) throws(AccountError) {
        do {
            let connection = try SQLiteConnection(path: temporary, create: false)
            defer { connection.close() }
            try connection.execute("PRAGMA journal_mode = WAL")
            try connection.execute("PRAGMA synchronous = \(synchronous == .full ? "FULL" : "NORMAL")")
            try SQLiteMigrator.migrate(connection, newStoreID: { storeID }, now: SystemClock().now())
            // The schema is in the private file's WAL, which keeps the private name: move it into
            // the file itself before the file is linked into place, or the store there would
            // lack its schema. A checkpoint that did not finish leaves nothing linked.
            let checkpoint = try connection.rows("PRAGMA wal_checkpoint(TRUNCATE)") { row throws(AccountError) in
                try row.integer(0)
            }
            guard checkpoint == [0] else {
                throw AccountError.storeIO(
                    detail: ErrorDetail([
                        .text("\(temporary): the new store could not be completed (checkpoint busy)"),
                        .outcome(.nothingCreated(path: nil)),
                    ]))
            }
        }
    }

    private static func bigEndian(_ bytes: [UInt8], at offset: Int) -> Int32 {
        Int32(bitPattern: bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) })
    }
}
