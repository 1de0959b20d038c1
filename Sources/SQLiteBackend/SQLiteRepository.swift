public import AccountBackendKit
public import AccountCore
import CSQLite
import DurableFiles
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A `UserRepository` in one SQLite database (WAL mode): the embedded default. Several
/// processes share a store safely; each write is one `BEGIN IMMEDIATE` transaction, and
/// uniqueness, withdrawal and session revocation are enforced by the schema (a UNIQUE email
/// index, `ON DELETE CASCADE`).
public final class SQLiteRepository: UserRepository, Sendable {
    /// The connection that writes; each mutex owns its connection, so the compiler checks that
    /// no one touches a connection without holding its lock.
    private let writer: Mutex<SQLiteConnection>
    private let io: SerialIOQueue
    private let busyTimeoutMilliseconds: Int
    /// Connections for reads, used on the caller's thread: a WAL reader never waits for the
    /// writer, so a lookup costs microseconds instead of a thread hop. One per core, so reads
    /// from several threads (a server's) do not queue behind one connection's lock.
    private let readers: [ReaderConnection]
    /// Which reader a read waits for when every one is busy.
    private let nextReader = Atomic<Int>(0)
    /// The database file.
    public let path: String
    /// Why this process may only read the store (its file or folder is not writable), or `nil`.
    private let readOnlyReason: String?

    private init(
        connection: sending SQLiteConnection, readers: [ReaderConnection], io: SerialIOQueue,
        busyTimeoutMilliseconds: Int, readOnlyReason: String? = nil
    ) {
        self.readOnlyReason = readOnlyReason
        path = connection.path
        writer = Mutex(connection)
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        self.readers = readers
        self.io = io
    }

    /// Opens the store at `options.path`, creating an empty one when no file exists there.
    /// - Throws: `storeIO` when the folder is missing or unwritable; `storeCorrupted`,
    ///   `storeKindMismatch` or `storeVersionUnsupported` for a file that is not a readable store
    ///   of this format (the file is left as it was).
    public static func open(
        _ options: SQLiteOptions, recognizer: StoreRecognizer = .none,
        newStoreID: @escaping @Sendable () -> String = StoreInfo.randomStoreID
    ) async throws -> SQLiteRepository {
        // A store reached through a symbolic link is created where the link points.
        var resolved = options
        resolved.path = StorePath.followingLinks(options.path)
        let options = resolved
        let io = SerialIOQueue(label: "SQLiteRepository \(options.path)")
        // Right here on the caller's thread, not waiting for any lock: a hop to `io` and back
        // would start its thread for this alone in a one-shot command. Refused as busy (another process migrating the store or turning on
        // WAL), on `io`, waiting up to the busy timeout. A refused attempt changed nothing but
        // what a retry finds done: a new store is built aside and linked in whole, and a
        // migration's transaction was rolled back.
        let opened: (connection: SQLiteConnection, readOnly: String?, access: SQLiteConnection.Access)
        do {
            opened = try openWriter(options, recognizer, newStoreID, waiting: false)
        } catch AccountError.storeBusy {
            opened = try await io.run {
                () throws -> (connection: SQLiteConnection, readOnly: String?, access: SQLiteConnection.Access) in
                try openWriter(options, recognizer, newStoreID, waiting: true)
            }
        }
        let readers = (0..<max(2, sysconf(Int32(_SC_NPROCESSORS_ONLN)))).map { _ in
            ReaderConnection(
                path: options.path, access: opened.access, busyTimeoutMilliseconds: options.busyTimeoutMilliseconds)
        }
        let repository = SQLiteRepository(
            connection: opened.connection, readers: readers, io: io,
            busyTimeoutMilliseconds: options.busyTimeoutMilliseconds, readOnlyReason: opened.readOnly)
        _ = try await repository.storeInfo()
        return repository
    }

    /// Checks the file, creates or migrates the store, and opens the connection that writes.
    /// Unless `waiting`, a lock held by another connection is `storeBusy` at once rather than
    /// after the busy timeout; the connection returned has the busy timeout either way.
    private static func openWriter(
        _ options: SQLiteOptions, _ recognizer: StoreRecognizer, _ newStoreID: () -> String, waiting: Bool
    ) throws -> (connection: SQLiteConnection, readOnly: String?, access: SQLiteConnection.Access) {
        try StoreFile.requireRegularFile(options.path)
        let exists = try StoreFile.version(of: options.path) != nil
        if !exists && !options.createIfMissing { throw AccountError.storeNotFound(location: options.path) }
        try StoreFile.requireDirectory(of: options.path)
        if !exists {
            try SQLiteStoreFile.create(options.path, synchronous: options.synchronous, storeID: newStoreID())
        }
        // The header's own verdicts (empty, truncated, foreign) stand as they are; only what the
        // engine reports once it reads the file is confirmed before it is called damage.
        try SQLiteStoreFile.inspect(options.path, recognizer: recognizer)
        return try SQLiteDamageCheck.confirming(options.path) {
            if let reason = Self.readOnlyReason(options.path) {
                return try Self.openReadOnly(options, reason: reason, waiting: waiting)
            }
            let connection = try SQLiteConnection(path: options.path, create: false)
            connection.setBusyTimeout(milliseconds: waiting ? options.busyTimeoutMilliseconds : 0)
            try connection.execute("PRAGMA foreign_keys = ON")
            try connection.execute("PRAGMA synchronous = \(options.synchronous == .full ? "FULL" : "NORMAL")")
            let mode = try connection.firstRow("PRAGMA journal_mode") { row throws(AccountError) in try row.text(0) }
            if mode?.lowercased() != "wal" { try connection.execute("PRAGMA journal_mode = WAL") }
            try SQLiteMigrator.migrate(
                connection, newStoreID: newStoreID, now: SystemClock().now(), upgrading: options.upgradesFormat)
            connection.setBusyTimeout(milliseconds: options.busyTimeoutMilliseconds)
            return (connection, nil, .readWrite)
        }
    }

    /// Why this process cannot write the store at `path`: the file, or the folder where WAL mode
    /// keeps its `-wal` and `-shm` files, is not writable for it. `nil` when it can.
    private static func readOnlyReason(_ path: String) -> String? {
        if access(path, W_OK) != 0 { return "the file is not writable for this user" }
        let folder = StorePath.directory(of: path)
        let shm = path + "-shm"
        if access(folder, W_OK) != 0 && access(shm, W_OK) != 0 {
            return "its folder is not writable for this user"
        }
        return nil
    }

    /// Opens a store this process may only read: SQLite's read-only open when WAL's `-shm` file
    /// can be used, else an immutable open (no locks: right for a store nobody may change).
    /// Nothing is written, so a store of an older format cannot be migrated here.
    private static func openReadOnly(
        _ options: SQLiteOptions, reason: String, waiting: Bool
    ) throws(AccountError) -> (connection: SQLiteConnection, readOnly: String?, access: SQLiteConnection.Access) {
        var access = SQLiteConnection.Access.readOnly
        var connection = try SQLiteConnection(path: options.path, access: access)
        do throws(AccountError) {
            _ = try SQLiteMigrator.version(of: connection)
        } catch {
            access = .immutable
            connection = try SQLiteConnection(path: options.path, access: access)
        }
        connection.setBusyTimeout(milliseconds: waiting ? options.busyTimeoutMilliseconds : 0)
        let version = try SQLiteMigrator.version(of: connection)
        connection.setBusyTimeout(milliseconds: options.busyTimeoutMilliseconds)
        guard version == SQLiteSchema.currentVersion else {
            throw version > SQLiteSchema.currentVersion
                ? .storeVersionUnsupported(found: version, supported: SQLiteSchema.currentVersion)
                : .storeUpgradeNeeded(found: version, current: SQLiteSchema.currentVersion)
        }
        return (connection, "\(options.path): \(reason)", access)
    }

    /// Writes an empty store stamped with `formatVersion`: the conformance suite uses it (through
    /// the descriptor) to check that a newer format is refused.
    package static func plantEmptyStore(at path: String, formatVersion: Int) throws {
        try SQLiteStoreFile.create(path, synchronous: .full, storeID: "planted")
        let connection = try SQLiteConnection(path: path, create: false)
        defer { connection.close() }
        try connection.execute("PRAGMA user_version = \(formatVersion)")
    }

    /// The format version this build writes.
    public static var formatVersion: Int { SQLiteSchema.currentVersion }

    /// `PRAGMA integrity_check` plus a foreign-key check: `["ok"]` for a sound store.
    /// - Throws: `storeCorrupted` only when fresh checks confirm the damage: the check stops with
    ///   "malformed" after a read that failed or came back short, too (``SQLiteDamageCheck``).
    public func integrityCheck() async throws -> [String] {
        try await io.run { [self] () throws -> [String] in
            try SQLiteDamageCheck.confirming(path) {
                try writer.withLock { (connection) throws(AccountError) -> [String] in
                    try Self.integrityProblems(connection)
                }
            }
        }
    }

    private static func integrityProblems(_ connection: SQLiteConnection) throws(AccountError) -> [String] {
        var problems = try connection.rows("PRAGMA integrity_check") { row throws(AccountError) in try row.text(0) }
        // Each row names the table holding the dangling reference: say what that means.
        let broken = try connection.rows("PRAGMA foreign_key_check") { row throws(AccountError) in try row.text(0) }
        let orphanSessions = broken.filter { $0 == "sessions" }.count
        if orphanSessions > 0 {
            let verb = orphanSessions == 1 ? "belongs" : "belong"
            problems.append(EnglishPlural.count(orphanSessions, "session") + " \(verb) to no user (the user is gone)")
        }
        let other = broken.count - orphanSessions
        if other > 0 {
            problems.append(EnglishPlural.count(other, "row") + (other == 1 ? " breaks" : " break") + " a foreign key")
        }
        problems += try numberingProblems(connection)
        return problems == ["ok"] ? ["ok"] : problems.filter { $0 != "ok" }
    }

    /// A user without a number (the column cannot be NOT NULL), or a highest number given that
    /// is lower than a stored one (the next sign-up would be refused): only a hand edit makes
    /// either.
    private static func numberingProblems(_ connection: SQLiteConnection) throws(AccountError) -> [String] {
        let counts = try connection.firstRow(
            "SELECT count(*) - count(number), coalesce(max(number), 0), (SELECT max(last) FROM user_numbers) FROM users"
        ) { row throws(AccountError) in (try row.integer(0), try row.integer(1), try row.optionalInteger(2)) }
        guard let (unnumbered, highest, last) = counts else { return [] }
        var problems: [String] = []
        if unnumbered > 0 {
            problems.append(
                EnglishPlural.count(Int(unnumbered), "user") + (unnumbered == 1 ? " has" : " have") + " no number")
        }
        if (last ?? 0) < highest {
            problems.append("user_numbers says \(last ?? 0) is the highest number given, but user \(highest) is stored")
        }
        return problems
    }

    // MARK: - UserRepository

    public func storeInfo() async throws -> StoreInfo {
        try read { connection throws(AccountError) -> StoreInfo in
            let meta = try connection.rows("SELECT key, value FROM store_meta") { row throws(AccountError) in
                (try row.text(0), try row.text(1))
            }
            let values = Dictionary(meta, uniquingKeysWith: { first, _ in first })
            guard values["format"] == SQLiteSchema.formatName, let storeID = values["store_id"] else {
                throw AccountError.storeCorrupted(detail: "\(connection.path): store_meta lacks the format or store id")
            }
            return StoreInfo(
                formatName: SQLiteSchema.formatName, formatVersion: try SQLiteMigrator.version(of: connection),
                storeID: storeID)
        }
    }

    @discardableResult

    public func createUser(_ user: UserRecord, initialSession: SessionRecord?) async throws -> Int {
        // No read first: the UNIQUE email index decides, inside the write transaction, and the
        // loser gets `emailTaken`. A check on the reader connection would cost every sign-up page
        // reads, because each commit invalidates that connection's page cache.
        try await write { connection throws(AccountError) -> Int in
            let number = try Self.insert(user, on: connection)
            if let initialSession { try Self.insert(initialSession, on: connection) }
            return number
        }
    }

    public func lastUserNumber() async throws -> Int {
        try read { connection throws(AccountError) -> Int in try Self.lastNumber(on: connection) }
    }

    public func raiseLastUserNumber(to number: Int) async throws {
        try await write { connection throws(AccountError) in
            _ = try connection.run(Self.raiseLastNumber, [.integer(Int64(number))])
        }
    }

    private static func lastNumber(on connection: SQLiteConnection) throws(AccountError) -> Int {
        let last = try connection.firstRow("SELECT last FROM user_numbers") { row throws(AccountError) in
            try row.integer(0)
        }
        guard let last else { throw .storeCorrupted(detail: "\(connection.path): user_numbers has no row") }
        return Int(last)
    }

    public func createUsers(_ users: [UserRecord], sessions: [SessionRecord]) async throws -> [String] {
        try await write { connection throws(AccountError) -> [String] in
            var stored: Set<UserID> = []
            // Given numbers first, so that the users without one come after all of them; the
            // skipped emails are reported in the batch's order all the same. A taken email is
            // looked up before the user is numbered: a skipped user takes no number.
            var skippedAt: [Int: String] = [:]
            let indexed = Array(users.enumerated())
            for (index, user) in indexed.filter({ $0.element.number != nil })
                + indexed.filter({ $0.element.number == nil })
            {
                let taken = try connection.firstRow(Self.selectUserByEmail, [.text(user.email)]) {
                    _ throws(AccountError) in
                    true
                }
                if taken == true {
                    skippedAt[index] = user.email
                    continue
                }
                try Self.insert(user, on: connection)
                stored.insert(user.id)
            }
            let skipped = skippedAt.keys.sorted().compactMap { skippedAt[$0] }
            for session in sessions where stored.contains(session.userID) {
                try Self.insert(session, on: connection)
            }
            return skipped
        }
    }

    /// Inserts `user` inside the caller's write transaction, numbered (``number(for:on:)``), and
    /// returns its number. A taken email is `emailTaken` (the UNIQUE index refuses the row), and
    /// an id stored under another email is ``AccountError/userIDInUse(_:)``: the insert does
    /// nothing on a stored id, and only then is the email looked up, so a record whose email and
    /// id are both taken is `emailTaken`, as on every backend, whichever constraint SQLite checks
    /// first.
    @discardableResult
    private static func insert(_ user: UserRecord, on connection: SQLiteConnection) throws(AccountError) -> Int {
        var numbered = user
        numbered.number = try number(for: user, on: connection)
        guard try connection.run(insertUser, values(numbered)) == 0 else { return numbered.number ?? 0 }
        let emailTaken = try connection.firstRow(selectUserByEmail, [.text(user.email)]) {
            _ throws(AccountError) in true
        }
        throw emailTaken == true ? .emailTaken : .userIDInUse(user.id)
    }

    /// The number `user` is stored with, inside the caller's write transaction: its own when it
    /// has one that is free (the highest number given rises to it), else one past the highest
    /// ever given. A taken number is refused before the insert, whose UNIQUE failure would read
    /// as a taken email.
    private static func number(for user: UserRecord, on connection: SQLiteConnection) throws(AccountError) -> Int {
        guard let given = user.number else {
            let next = try connection.firstRow(nextNumber) { row throws(AccountError) in try row.integer(0) }
            guard let next else { throw .storeCorrupted(detail: "\(connection.path): user_numbers has no row") }
            return Int(next)
        }
        let taken = try connection.firstRow(selectNumberTaken, [.integer(Int64(given))]) { _ throws(AccountError) in
            true
        }
        guard given > 0, taken != true else { throw .userNumberInUse(given) }
        _ = try connection.run(raiseLastNumber, [.integer(Int64(given))])
        return given
    }

    /// Inserts `session` inside the caller's write transaction; a token hash already stored is
    /// ``AccountError/sessionAlreadyStored(of:)`` (in words that name the user, not SQLite's
    /// constraint), and nothing is replaced.
    private static func insert(_ session: SessionRecord, on connection: SQLiteConnection) throws(AccountError) {
        guard try connection.run(insertSession, values(session)) == 0 else { return }
        throw .sessionAlreadyStored(of: session.userID)
    }

    public func user(email: String) async throws -> UserRecord? {
        try read { connection throws(AccountError) -> UserRecord? in
            try connection.firstRow(Self.selectUserByEmail, [.text(email)], Self.user)
        }
    }

    public func user(id: UserID) async throws -> UserRecord? {
        try read { connection throws(AccountError) -> UserRecord? in
            try connection.firstRow(Self.selectUserByID, [.text(id.rawValue)], Self.user)
        }
    }

    public func userCount() async throws -> Int {
        try read { connection throws(AccountError) -> Int in
            // A count reads the whole email index once: through a few recycled page buffers.
            try connection.withPageCache(pages: 16) { () throws(AccountError) -> Int in
                Int(
                    try connection.firstRow("SELECT count(*) FROM users") { row throws(AccountError) in
                        try row.integer(0)
                    } ?? 0)
            }
        }
    }

    public func users(after email: String?, limit: Int) async throws -> [UserRecord] {
        try read { connection throws(AccountError) -> [UserRecord] in
            if let email {
                return try connection.rows(
                    Self.selectUsersAfter,
                    [.text(email), .integer(Int64(limit))],
                    Self.user)
            }
            return try connection.rows(Self.selectFirstUsers, [.integer(Int64(limit))], Self.user)
        }
    }

    public func updatePassword(
        userID: UserID, passwordHash: String, changedAt: Timestamp, revoking: SessionRevocation,
        ifPasswordHashIs expected: String?
    ) async throws -> Bool {
        try await write { connection throws(AccountError) -> Bool in
            let changed =
                if let expected {
                    try connection.run(
                        "UPDATE users SET password_hash = ?, password_changed_at_ms = ?, must_change_password = 0 WHERE id = ? AND password_hash = ?",
                        [
                            .text(passwordHash), .integer(changedAt.millisecondsSince1970), .text(userID.rawValue),
                            .text(expected),
                        ])
                } else {
                    try connection.run(
                        "UPDATE users SET password_hash = ?, password_changed_at_ms = ?, must_change_password = 0 WHERE id = ?",
                        [.text(passwordHash), .integer(changedAt.millisecondsSince1970), .text(userID.rawValue)])
                }
            guard changed == 1 else { return false }
            _ = try connection.run(
                "DELETE FROM codes WHERE user_id = ? AND purpose = ?",
                [.text(userID.rawValue), .text(OneTimeCode.Purpose.passwordReset.rawValue)])
            if revoking.revokesSessions {
                let keep = revoking.keptTokenHash
                try connection.run(
                    "DELETE FROM sessions WHERE user_id = ? AND token_sha256 IS NOT ?",
                    [.text(userID.rawValue), keep.map(SQLiteValue.text) ?? .null])
            }
            return true
        }
    }

    public func setBlocked(userID: UserID, _ blocked: Bool) async throws -> Bool {
        try await write { connection throws(AccountError) -> Bool in
            let changed = try connection.run(
                "UPDATE users SET blocked = ? WHERE id = ?", [.integer(blocked ? 1 : 0), .text(userID.rawValue)])
            guard changed == 1 else { return false }
            if blocked { _ = try connection.run("DELETE FROM sessions WHERE user_id = ?", [.text(userID.rawValue)]) }
            return true
        }
    }

    public func setEmailVerified(userID: UserID, at time: Timestamp?) async throws -> Bool {
        try await write { connection throws(AccountError) -> Bool in
            try connection.run(
                "UPDATE users SET email_verified_at_ms = ? WHERE id = ?",
                [time.map { .integer($0.millisecondsSince1970) } ?? .null, .text(userID.rawValue)]) == 1
        }
    }

    // MARK: Refresh families

    public func rotateSession(
        tokenHash: String, to renewed: SessionRecord, ifPasswordHashIs passwordHash: String, at: Timestamp
    ) async throws -> Bool {
        try await write { connection throws(AccountError) -> Bool in
            let old = try connection.firstRow(
                Self.selectSession
                    + " WHERE token_sha256 = ? AND user_id = (SELECT id FROM users WHERE id = user_id AND password_hash = ?)",
                [.text(tokenHash), .text(passwordHash)], Self.session)
            guard let old else { return false }
            _ = try connection.run("DELETE FROM sessions WHERE token_sha256 = ?", [.text(tokenHash)])
            try Self.insert(renewed, on: connection)
            _ = try connection.run(
                "INSERT INTO rotated_tokens (token_sha256, user_id, family, rotated_at_ms, expires_at_ms) VALUES (?, ?, ?, ?, ?)",
                [
                    .text(tokenHash), .text(old.userID.rawValue), .text(old.family), .integer(at.millisecondsSince1970),
                    .integer(old.expiresAt.millisecondsSince1970),
                ])
            return true
        }
    }

    public func rotatedToken(tokenHash: String) async throws -> RotatedToken? {
        try read { connection throws(AccountError) -> RotatedToken? in
            try connection.firstRow(
                "SELECT token_sha256, user_id, family, rotated_at_ms, expires_at_ms FROM rotated_tokens WHERE token_sha256 = ?",
                [.text(tokenHash)]
            ) { row throws(AccountError) in
                RotatedToken(
                    tokenHash: try row.text(0), userID: UserID(rawValue: try row.text(1)), family: try row.text(2),
                    rotatedAt: Timestamp(millisecondsSince1970: try row.integer(3)),
                    expiresAt: Timestamp(millisecondsSince1970: try row.integer(4)))
            }
        }
    }

    public func revokeFamily(_ family: String, userID: UserID) async throws -> Int {
        try await write { connection throws(AccountError) -> Int in
            try connection.run(
                "DELETE FROM sessions WHERE user_id = ? AND family = ?", [.text(userID.rawValue), .text(family)])
        }
    }

    public func purgeExpiredFlowRecords(at now: Timestamp) async throws -> Int {
        try await write { connection throws(AccountError) -> Int in
            let time = SQLiteValue.integer(now.millisecondsSince1970)
            return try connection.run("DELETE FROM rotated_tokens WHERE expires_at_ms <= ?", [time])
                + connection.run("DELETE FROM codes WHERE expires_at_ms <= ?", [time])
        }
    }

    // MARK: One-time codes

    private static let codeColumns = "code_sha256, user_id, purpose, created_at_ms, expires_at_ms"

    private static func code(_ row: SQLiteRow) throws(AccountError) -> OneTimeCode {
        OneTimeCode(
            codeHash: try row.text(0), userID: UserID(rawValue: try row.text(1)),
            purpose: OneTimeCode.Purpose(rawValue: try row.text(2)),
            createdAt: Timestamp(millisecondsSince1970: try row.integer(3)),
            expiresAt: Timestamp(millisecondsSince1970: try row.integer(4)))
    }

    public func replaceCode(_ code: OneTimeCode) async throws -> Bool {
        try await write { connection throws(AccountError) -> Bool in
            let exists = try connection.firstRow("SELECT 1 FROM users WHERE id = ?", [.text(code.userID.rawValue)]) {
                _ throws(AccountError) in true
            }
            guard exists == true else { return false }
            let held = try connection.firstRow(
                "SELECT \(Self.codeColumns) FROM codes WHERE code_sha256 = ?", [.text(code.codeHash)], Self.code)
            if let held, held.userID != code.userID || held.purpose != code.purpose {
                throw AccountError.storeIO(detail: "a code with this hash is stored for another user or purpose")
            }
            _ = try connection.run(
                "DELETE FROM codes WHERE user_id = ? AND purpose = ?",
                [.text(code.userID.rawValue), .text(code.purpose.rawValue)])
            _ = try connection.run(
                "INSERT INTO codes (\(Self.codeColumns)) VALUES (?, ?, ?, ?, ?)",
                [
                    .text(code.codeHash), .text(code.userID.rawValue), .text(code.purpose.rawValue),
                    .integer(code.createdAt.millisecondsSince1970), .integer(code.expiresAt.millisecondsSince1970),
                ])
            return true
        }
    }

    public func code(hash: String) async throws -> OneTimeCode? {
        try read { connection throws(AccountError) -> OneTimeCode? in
            try connection.firstRow(
                "SELECT \(Self.codeColumns) FROM codes WHERE code_sha256 = ?", [.text(hash)], Self.code)
        }
    }

    public func takeCode(hash: String) async throws -> OneTimeCode? {
        try await write { connection throws(AccountError) -> OneTimeCode? in
            try connection.firstRow(
                "DELETE FROM codes WHERE code_sha256 = ? RETURNING \(Self.codeColumns)", [.text(hash)], Self.code)
        }
    }

    // MARK: Outbox

    private static let mailColumns =
        "id, kind, recipient, language, payload, created_at_ms, attempts, not_before_ms, last_error"

    private static func mail(_ row: SQLiteRow) throws(AccountError) -> OutboxMail {
        OutboxMail(
            id: try row.text(0), kind: try row.text(1), recipient: try row.text(2), language: try row.text(3),
            payload: try row.text(4), createdAt: Timestamp(millisecondsSince1970: try row.integer(5)),
            attempts: Int(try row.integer(6)), notBefore: Timestamp(millisecondsSince1970: try row.integer(7)),
            lastError: row.isNull(8) ? nil : try row.text(8))
    }

    public func enqueueMail(_ mail: OutboxMail) async throws {
        try await write { connection throws(AccountError) in
            let inserted = try connection.run(
                "INSERT INTO outbox (\(Self.mailColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
                [
                    .text(mail.id), .text(mail.kind), .text(mail.recipient), .text(mail.language), .text(mail.payload),
                    .integer(mail.createdAt.millisecondsSince1970), .integer(Int64(mail.attempts)),
                    .integer(mail.notBefore.millisecondsSince1970), mail.lastError.map(SQLiteValue.text) ?? .null,
                ])
            guard inserted == 1 else {
                throw AccountError.storeIO(detail: "a mail with id \(mail.id) is stored already")
            }
        }
    }

    public func dueMail(at: Timestamp, limit: Int) async throws -> [OutboxMail] {
        try read { connection throws(AccountError) -> [OutboxMail] in
            try connection.rows(
                "SELECT \(Self.mailColumns) FROM outbox WHERE not_before_ms <= ? ORDER BY not_before_ms, id LIMIT ?",
                [.integer(at.millisecondsSince1970), .integer(Int64(max(0, limit)))], Self.mail)
        }
    }

    public func leaseMail(id: String, from expected: Timestamp, until: Timestamp) async throws -> Bool {
        try await write { connection throws(AccountError) -> Bool in
            try connection.run(
                "UPDATE outbox SET not_before_ms = ? WHERE id = ? AND not_before_ms = ?",
                [.integer(until.millisecondsSince1970), .text(id), .integer(expected.millisecondsSince1970)]) == 1
        }
    }

    public func rescheduleMail(id: String, attempts: Int, notBefore: Timestamp, lastError: String?) async throws
        -> Bool
    {
        try await write { connection throws(AccountError) -> Bool in
            try connection.run(
                "UPDATE outbox SET attempts = ?, not_before_ms = ?, last_error = ? WHERE id = ?",
                [
                    .integer(Int64(attempts)), .integer(notBefore.millisecondsSince1970),
                    lastError.map(SQLiteValue.text) ?? .null, .text(id),
                ]) == 1
        }
    }

    public func deleteMail(id: String) async throws -> Bool {
        try await write { connection throws(AccountError) -> Bool in
            try connection.run("DELETE FROM outbox WHERE id = ?", [.text(id)]) == 1
        }
    }

    public func outboxSummary() async throws -> OutboxSummary {
        try read { connection throws(AccountError) -> OutboxSummary in
            try connection.firstRow(
                "SELECT count(*), count(*) FILTER (WHERE attempts > 0), min(created_at_ms) FROM outbox"
            ) { row throws(AccountError) in
                OutboxSummary(
                    queued: Int(try row.integer(0)), failing: Int(try row.integer(1)),
                    oldest: try row.optionalInteger(2).map { Timestamp(millisecondsSince1970: $0) })
            } ?? OutboxSummary(queued: 0, failing: 0, oldest: nil)
        }
    }

    // MARK: Provider identities

    private static let identityColumns = "provider, subject, user_id, email, linked_at_ms"

    private static func identity(_ row: SQLiteRow) throws(AccountError) -> ProviderIdentity {
        ProviderIdentity(
            provider: try row.text(0), subject: try row.text(1), userID: UserID(rawValue: try row.text(2)),
            email: row.isNull(3) ? nil : try row.text(3), linkedAt: Timestamp(millisecondsSince1970: try row.integer(4))
        )
    }

    public func linkIdentity(_ identity: ProviderIdentity) async throws -> Bool {
        try await write { connection throws(AccountError) -> Bool in
            let exists = try connection.firstRow("SELECT 1 FROM users WHERE id = ?", [.text(identity.userID.rawValue)])
            {
                _ throws(AccountError) in true
            }
            guard exists == true else { return false }
            let inserted = try connection.run(
                "INSERT INTO identities (\(Self.identityColumns)) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                [
                    .text(identity.provider), .text(identity.subject), .text(identity.userID.rawValue),
                    identity.email.map(SQLiteValue.text) ?? .null, .integer(identity.linkedAt.millisecondsSince1970),
                ])
            guard inserted == 1 else { throw AccountError.identityTaken }
            return true
        }
    }

    public func identity(provider: String, subject: String) async throws -> ProviderIdentity? {
        try read { connection throws(AccountError) -> ProviderIdentity? in
            try connection.firstRow(
                "SELECT \(Self.identityColumns) FROM identities WHERE provider = ? AND subject = ?",
                [.text(provider), .text(subject)], Self.identity)
        }
    }

    public func identities(userID: UserID) async throws -> [ProviderIdentity] {
        try read { connection throws(AccountError) -> [ProviderIdentity] in
            try connection.rows(
                "SELECT \(Self.identityColumns) FROM identities WHERE user_id = ? ORDER BY provider, subject",
                [.text(userID.rawValue)], Self.identity)
        }
    }

    public func unlinkIdentity(provider: String, subject: String, userID: UserID) async throws -> Bool {
        try await write { connection throws(AccountError) -> Bool in
            try connection.run(
                "DELETE FROM identities WHERE provider = ? AND subject = ? AND user_id = ?",
                [.text(provider), .text(subject), .text(userID.rawValue)]) == 1
        }
    }

    public func storeValue(forKey key: String) async throws -> String? {
        try read { connection throws(AccountError) -> String? in
            try connection.firstRow("SELECT value FROM store_values WHERE key = ?", [.text(key)]) {
                row throws(AccountError) in try row.text(0)
            }
        }
    }

    public func setStoreValue(_ value: String?, forKey key: String) async throws {
        try await write { connection throws(AccountError) in
            if let value {
                _ = try connection.run(
                    "INSERT INTO store_values (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                    [.text(key), .text(value)])
            } else {
                _ = try connection.run("DELETE FROM store_values WHERE key = ?", [.text(key)])
            }
        }
    }

    public func recordLoginFailure(userID: UserID, at time: Timestamp) async throws -> Int? {
        try await write { connection throws(AccountError) -> Int? in
            try connection.firstRow(
                """
                UPDATE users SET failed_login_count = failed_login_count + 1, last_failed_login_at_ms = ?
                WHERE id = ? RETURNING failed_login_count
                """, [.integer(time.millisecondsSince1970), .text(userID.rawValue)]
            ) { row throws(AccountError) in Int(try row.integer(0)) }
        }
    }

    public func resetLoginFailures(userID: UserID) async throws {
        try await write { connection throws(AccountError) in
            _ = try connection.run(
                "UPDATE users SET failed_login_count = 0, last_failed_login_at_ms = NULL WHERE id = ?",
                [.text(userID.rawValue)])
        }
    }

    public func deleteUser(id: UserID) async throws -> Bool {
        try await write { connection throws(AccountError) -> Bool in
            // Sessions go with the user through ON DELETE CASCADE, in the same transaction.
            try connection.run("DELETE FROM users WHERE id = ?", [.text(id.rawValue)]) == 1
        }
    }

    public func createSession(_ session: SessionRecord, ifPasswordHashIs passwordHash: String) async throws -> Bool {
        // The check and the insert in one write transaction, which a password change waits for.
        try await write { connection throws(AccountError) -> Bool in
            let exists = try connection.firstRow(
                "SELECT 1 FROM users WHERE id = ? AND password_hash = ?",
                [.text(session.userID.rawValue), .text(passwordHash)]
            ) {
                _ throws(AccountError) in true
            }
            guard exists == true else { return false }
            try Self.insert(session, on: connection)
            return true
        }
    }

    public func session(tokenHash: String) async throws -> SessionRecord? {
        try read { connection throws(AccountError) -> SessionRecord? in
            try connection.firstRow(Self.selectSessionByToken, [.text(tokenHash)], Self.session)
        }
    }

    /// The session and its user in one statement, so in one read transaction: one snapshot,
    /// and the WAL's read locks taken once per signed-in request, not once per table.
    public func signedIn(tokenHash: String) async throws -> (session: SessionRecord, user: UserRecord?)? {
        try read { connection throws(AccountError) -> (session: SessionRecord, user: UserRecord?)? in
            try connection.firstRow(Self.selectSignedIn, [.text(tokenHash)]) {
                row throws(AccountError) -> (session: SessionRecord, user: UserRecord?) in
                (
                    try Self.session(row),
                    row.isNull(Self.sessionColumnCount) ? nil : try Self.user(row, from: Self.sessionColumnCount)
                )
            }
        }
    }

    public func sessions(userID: UserID) async throws -> [SessionRecord] {
        try read { connection throws(AccountError) -> [SessionRecord] in
            try connection.rows(
                Self.selectSessionsOfUser, [.text(userID.rawValue)], Self.session)
        }
    }

    public func touchSession(tokenHash: String, lastSeenAt: Timestamp) async throws {
        try await write { connection throws(AccountError) in
            _ = try connection.run(
                "UPDATE sessions SET last_seen_at_ms = ? WHERE token_sha256 = ? AND last_seen_at_ms < ?",
                [
                    .integer(lastSeenAt.millisecondsSince1970), .text(tokenHash),
                    .integer(lastSeenAt.millisecondsSince1970),
                ])
        }
    }

    public func deleteSession(tokenHash: String) async throws -> Bool {
        try await write { connection throws(AccountError) -> Bool in
            try connection.run("DELETE FROM sessions WHERE token_sha256 = ?", [.text(tokenHash)]) == 1
        }
    }

    public func deleteOrphanedSessions() async throws -> Int {
        try await write { connection throws(AccountError) -> Int in
            try connection.run("DELETE FROM sessions WHERE user_id NOT IN (SELECT id FROM users)", [])
        }
    }

    /// Closes the store, after the write in progress. A call made after it (one that lost a race
    /// with a server's stop) is refused with `storeIO`, never run on the closed handle.
    public func close() async throws {
        // Right here when no call holds the writer (a one-shot command's close: the hop would
        // cost more than the close); else on `io`, behind the calls that do.
        if writer.withLockIfAvailable({ $0.close() }) == nil {
            await io.run { [self] in writer.withLock { $0.close() } }
        }
        for reader in readers { reader.close() }
    }

    /// Runs `body` in one `BEGIN IMMEDIATE` transaction on the writer connection.
    ///
    /// Uncontended, it runs right here on the caller's thread, with a busy timeout of zero: two
    /// thread hops (to a queue and back) cost about a third of a durable commit on a fast disk.
    /// When another call of this process holds the writer, or another process holds SQLite's
    /// write lock, it queues on `io` instead and waits there (up to the busy timeout), so waiting
    /// never pins a cooperative thread. A transaction refused as busy was rolled back, so running
    /// it again from the start is safe.
    private func write<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws(AccountError) -> T)
        async throws -> T
    {
        if let readOnlyReason {
            throw AccountError.storeIO(
                detail: ErrorDetail([
                    .text("\(readOnlyReason): the store is read-only here"), .outcome(.nothingChanged),
                ]))
        }
        let attempt = try SQLiteDamageCheck.confirming(path) {
            try writer.withLockIfAvailable { (connection) throws(AccountError) -> T? in
                connection.setBusyTimeout(milliseconds: 0)
                defer { connection.setBusyTimeout(milliseconds: busyTimeoutMilliseconds) }
                do throws(AccountError) {
                    return try connection.immediateTransaction { () throws(AccountError) -> T in try body(connection) }
                } catch .storeBusy {
                    return nil
                }
            }
        }
        if let attempt, let result = attempt { return result }
        return try await io.run { [self] () throws -> T in
            try SQLiteDamageCheck.confirming(path) {
                try writer.withLock { (connection) throws(AccountError) -> T in
                    try connection.immediateTransaction { () throws(AccountError) -> T in try body(connection) }
                }
            }
        }
    }

    /// Runs a read on the reader connection, on the caller's thread.
    private func read<T: Sendable>(_ body: @Sendable (SQLiteConnection) throws(AccountError) -> T) throws(AccountError)
        -> T
    {
        do {
            // The first free reader in order: reads one after another (a one-shot command, a quiet
            // server) keep to the first connection and its page cache, and the others open only
            // when reads overlap. Starting each read at the next reader instead opened a second
            // connection for every command's second read.
            for reader in readers {
                if let result = try reader.readIfFree(body) { return result }
            }
            // Every reader is busy: wait for one, the waiters spread over them.
            let next = nextReader.wrappingAdd(1, ordering: .relaxed).oldValue & Int.max
            return try readers[next % readers.count].read(body)
        } catch .storeCorrupted(let detail) {
            throw SQLiteDamageCheck.recheck(path, detail.description)
        }
    }

    // MARK: - Rows

    private static let userColumns =
        "id, email, nickname, password_hash, created_at_ms, password_changed_at_ms, failed_login_count, last_failed_login_at_ms, number, blocked, must_change_password, email_verified_at_ms"
    private static let selectUser = "SELECT \(userColumns) FROM users"
    private static let insertUser =
        "INSERT INTO users (\(userColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING"
    private static let nextNumber = "UPDATE user_numbers SET last = last + 1 RETURNING last"
    private static let raiseLastNumber = "UPDATE user_numbers SET last = max(last, ?)"
    private static let selectNumberTaken = "SELECT 1 FROM users WHERE number = ?"
    private static let sessionColumns =
        "token_sha256, user_id, created_at_ms, last_seen_at_ms, expires_at_ms, idle_timeout_s, remember, device, family"
    private static let selectSession = "SELECT \(sessionColumns) FROM sessions"
    private static let insertSession =
        "INSERT INTO sessions (\(sessionColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (token_sha256) DO NOTHING"
    // Whole statements, not concatenated per call: each is also the key of its prepared statement.
    private static let selectUserByEmail = selectUser + " WHERE email = ?"
    private static let selectUserByID = selectUser + " WHERE id = ?"
    private static let selectUsersAfter = selectUser + " WHERE email > ? ORDER BY email LIMIT ?"
    private static let selectFirstUsers = selectUser + " ORDER BY email LIMIT ?"
    private static let selectSessionByToken = selectSession + " WHERE token_sha256 = ?"
    private static let selectSessionsOfUser = selectSession + " WHERE user_id = ? ORDER BY token_sha256"
    /// A session's columns, then its user's (all NULL when the user is gone).
    private static let selectSignedIn =
        "SELECT \(qualified(sessionColumns, "s")), \(qualified(userColumns, "u")) FROM sessions s"
        + " LEFT JOIN users u ON u.id = s.user_id WHERE s.token_sha256 = ?"
    private static let sessionColumnCount = Int32(sessionColumns.split(separator: ",").count)

    private static func qualified(_ columns: String, _ table: String) -> String {
        columns.split(separator: ",").map { "\(table).\($0.drop { $0 == " " })" }.joined(separator: ", ")
    }

    private static func values(_ user: UserRecord) -> [SQLiteValue] {
        [
            .text(user.id.rawValue), .text(user.email), .text(user.nickname), .text(user.passwordHash),
            .integer(user.createdAt.millisecondsSince1970), .integer(user.passwordChangedAt.millisecondsSince1970),
            .integer(Int64(user.failedLoginCount)),
            user.lastFailedLoginAt.map { .integer($0.millisecondsSince1970) } ?? .null,
            user.number.map { .integer(Int64($0)) } ?? .null, .integer(user.isBlocked ? 1 : 0),
            .integer(user.mustChangePassword ? 1 : 0),
            user.emailVerifiedAt.map { .integer($0.millisecondsSince1970) } ?? .null,
        ]
    }

    private static func values(_ session: SessionRecord) -> [SQLiteValue] {
        [
            .text(session.tokenHash), .text(session.userID.rawValue), .integer(session.createdAt.millisecondsSince1970),
            .integer(session.lastSeenAt.millisecondsSince1970), .integer(session.expiresAt.millisecondsSince1970),
            .integer(session.idleTimeoutSeconds), .integer(session.remember ? 1 : 0), .text(session.device),
            .text(session.family),
        ]
    }

    private static func user(_ row: SQLiteRow) throws(AccountError) -> UserRecord { try user(row, from: 0) }

    /// The user in the row's columns from `first` on.
    private static func user(_ row: SQLiteRow, from first: Int32) throws(AccountError) -> UserRecord {
        UserRecord(
            id: UserID(rawValue: try row.text(first)), email: try row.text(first + 1),
            nickname: try row.text(first + 2),
            passwordHash: try row.text(first + 3),
            createdAt: Timestamp(millisecondsSince1970: try row.integer(first + 4)),
            passwordChangedAt: Timestamp(millisecondsSince1970: try row.integer(first + 5)),
            failedLoginCount: Int(try row.integer(first + 6)),
            lastFailedLoginAt: try row.optionalInteger(first + 7).map { Timestamp(millisecondsSince1970: $0) },
            number: try row.optionalInteger(first + 8).map { Int($0) }, isBlocked: try row.integer(first + 9) != 0,
            mustChangePassword: try row.integer(first + 10) != 0,
            emailVerifiedAt: try row.optionalInteger(first + 11).map { Timestamp(millisecondsSince1970: $0) })
    }

    private static func session(_ row: SQLiteRow) throws(AccountError) -> SessionRecord {
        SessionRecord(
            tokenHash: try row.text(0), userID: UserID(rawValue: try row.text(1)),
            createdAt: Timestamp(millisecondsSince1970: try row.integer(2)),
            lastSeenAt: Timestamp(millisecondsSince1970: try row.integer(3)),
            expiresAt: Timestamp(millisecondsSince1970: try row.integer(4)), idleTimeoutSeconds: try row.integer(5),
            remember: try row.integer(6) != 0, device: try row.text(7), family: try row.text(8))
    }
}

/// One read connection and the lock that owns it, opened by its first read: a one-shot command
/// uses one (the others would each open the file and its WAL for nothing), a busy server all.
final class ReaderConnection: Sendable {
    private enum State {
        case unopened
        case open(SQLiteConnection)
        case closed
    }

    private let path: String
    private let access: SQLiteConnection.Access
    private let busyTimeoutMilliseconds: Int
    private let state = Mutex<State>(.unopened)

    init(path: String, access: SQLiteConnection.Access, busyTimeoutMilliseconds: Int) {
        self.path = path
        self.access = access
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
    }

    /// Runs `body` on this connection, waiting for it if another read holds it.
    func read<T: Sendable>(_ body: @Sendable (SQLiteConnection) throws(AccountError) -> T) throws(AccountError) -> T {
        try state.withLock { (state) throws(AccountError) -> T in try body(try opened(&state)) }
    }

    /// Runs `body` on this connection if no other read holds it; `nil` when one does.
    func readIfFree<T: Sendable>(
        _ body: @Sendable (SQLiteConnection) throws(AccountError) -> T
    ) throws(AccountError) -> T? {
        try state.withLockIfAvailable { (state) throws(AccountError) -> T in try body(try opened(&state)) }
    }

    /// Closes the connection if it was opened; later reads fail.
    func close() {
        state.withLock { state in
            if case .open(let connection) = state { connection.close() }
            state = .closed
        }
    }

    private func opened(_ state: inout State) throws(AccountError) -> SQLiteConnection {
        switch state {
        case .open(let connection):
            return connection
        case .closed:
            throw .storeIO(detail: "\(path): the store was closed before this read")
        case .unopened:
            let connection = try SQLiteConnection(path: path, access: access)
            connection.setBusyTimeout(milliseconds: busyTimeoutMilliseconds)
            state = .open(connection)
            return connection
        }
    }
}
