import AccountBackendKit
import AccountCore
import CLMDB
import DurableFiles
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One `MDB_env` per store file per process, shared by every repository on that path (LMDB must
/// not be opened twice in one process). All transactions of the process on this environment
/// take `lock`, which makes growing the map safe and lets one read transaction be reused
/// (reset and renewed) instead of begun anew each time.
final class LMDBEnvironment: @unchecked Sendable {
    // `@unchecked`: `environment`, `readTransaction` and `references` are only touched while
    // holding `lock`. `layout` and `readOnlyReason` are set while opening, before `acquire`
    // publishes the environment in `shared` (whose mutex orders those writes before any use),
    // and only read afterwards.
    let path: String
    private let lock = Mutex(())
    private var environment: OpaquePointer?
    private var readTransaction: OpaquePointer?
    private(set) var layout = LMDBLayout()
    /// Why this process may only read the environment (its files are not writable for it), or
    /// `nil`. Set once while opening, before the environment is shared.
    private var readOnlyReason: String?
    private var references = 0

    private static let shared = Mutex<[String: LMDBEnvironment]>([:])

    private init(path: String) {
        self.path = path
    }

    /// The environment of `options.path`, opened (or created) on first use in this process.
    static func acquire(
        _ options: LMDBOptions, recognizer: StoreRecognizer = .none, newStoreID: () -> String
    ) throws(AccountError) -> LMDBEnvironment {
        try StoreFile.requireRegularFile(options.path)
        if !options.createIfMissing, try StoreFile.version(of: options.path) == nil {
            throw .storeNotFound(location: options.path)
        }
        try StoreFile.requireDirectory(of: options.path)
        let key = canonicalPath(options.path)
        return try shared.withLock { (table) throws(AccountError) -> LMDBEnvironment in
            if let existing = table[key] {
                existing.lock.withLock { _ in existing.references += 1 }
                return existing
            }
            let environment = LMDBEnvironment(path: options.path)
            try environment.open(options, recognizer: recognizer, newStoreID: newStoreID)
            environment.references = 1
            table[key] = environment
            return environment
        }
    }

    /// Gives back one reference; the last one closes the environment.
    func release() {
        Self.shared.withLock { table in
            let remaining = lock.withLock { _ in
                references -= 1
                return references
            }
            guard remaining == 0 else { return }
            table[Self.canonicalPath(path)] = nil
            lock.withLock { _ in closeEnvironment() }
        }
    }

    // MARK: - Transactions

    /// Runs `body` in a read transaction (a reused one, renewed for each call).
    func read<T>(_ body: (LMDBTransaction) throws(AccountError) -> T) throws(AccountError) -> T {
        try lock.withLock { (_) throws(AccountError) -> T in
            let transaction = try renewedReadTransaction()
            defer { mdb_txn_reset(transaction) }
            return try body(LMDBTransaction(handle: transaction, path: path, state: nil))
        }
    }

    /// Runs `body` in a write transaction and commits it. When the map is full, the transaction
    /// is aborted, the map doubled and `body` run again from the start: nothing is lost.
    func write<T: Sendable>(_ body: (LMDBTransaction) throws(AccountError) -> T) throws(AccountError) -> T {
        try lock.withLock { (_) throws(AccountError) -> T in try writeLocked(body) }
    }

    /// `write`, when no other call of this process is using the environment; `nil` (and
    /// nothing done) when one is.
    func writeIfFree<T: Sendable>(_ body: (LMDBTransaction) throws(AccountError) -> T) throws(AccountError) -> T? {
        try lock.withLockIfAvailable { (_) throws(AccountError) -> T in try writeLocked(body) }
    }

    private func writeLocked<T>(_ body: (LMDBTransaction) throws(AccountError) -> T) throws(AccountError) -> T {
        if let readOnlyReason {
            throw .storeIO(detail: "\(path): \(readOnlyReason): the store is read-only here; nothing was changed")
        }
        while true {
            let transaction = try begin(flags: 0)
            let state = LMDBTransaction.State()
            let result: T
            do throws(AccountError) {
                result = try body(LMDBTransaction(handle: transaction, path: path, state: state))
            } catch {
                mdb_txn_abort(transaction)
                if state.mapFull {
                    try growMap()
                    continue
                }
                throw error
            }
            // mdb_txn_commit frees the transaction whether it succeeds or not: never abort it after.
            let status = mdb_txn_commit(transaction)
            if status == MDB_MAP_FULL {
                try growMap()
                continue
            }
            guard status == MDB_SUCCESS else { throw LMDBFailure.error(status, "commit", path: path) }
            return result
        }
    }

    /// The map size in bytes (0 once the environment is closed).
    var mapSize: Int {
        lock.withLock { _ in
            guard let environment else { return 0 }
            var info = MDB_envinfo()
            mdb_env_info(environment, &info)
            return info.me_mapsize
        }
    }

    // MARK: - Opening

    private func open(
        _ options: LMDBOptions, recognizer: StoreRecognizer, newStoreID: () -> String
    ) throws(AccountError) {
        let lockPath = path + "-lock"
        let existed = try StoreFile.version(of: path) != nil
        let lockExisted = try StoreFile.version(of: lockPath) != nil
        if existed {
            try Self.refuseForeignFile(path, recognizer: recognizer)
        } else {
            // Another process may be creating it right now; it only ever appears complete.
            try Self.createStore(at: path, options: options, newStoreID: newStoreID)
        }
        readOnlyReason = Self.readOnlyReason(path)
        do {
            try openEnvironment(options)
            try openLayout(newStoreID: newStoreID, upgrading: options.upgradesFormat)
        } catch {
            closeEnvironment()
            // Leave the folder as it was: a refused file gets no lock file of ours beside it.
            // (A store this process just made is kept: another process may already use it.)
            if existed && !lockExisted { unlink(lockPath) }
            throw error
        }
    }

    /// Makes a new store without ever showing a half-made one at `path`: the environment and our
    /// layout are written under a private name, flushed, then hard-linked into place. A link
    /// fails if another process won the race, and then its (complete) store is used.
    private static func createStore(
        at path: String, options: LMDBOptions, newStoreID: () -> String
    ) throws(AccountError) {
        let temporary = path + ".init-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer {
            unlink(temporary)
            unlink(temporary + "-lock")
        }
        let maker = LMDBEnvironment(path: temporary)
        do throws(AccountError) {
            try maker.openEnvironment(options)
            try maker.openLayout(newStoreID: newStoreID)
            // Whatever the sync mode, the file is durable before anyone can see it.
            if let environment = maker.environment {
                let status = mdb_env_sync(environment, 1)
                guard status == MDB_SUCCESS else { throw LMDBFailure.error(status, "flush", path: temporary) }
            }
        } catch {
            maker.closeEnvironment()
            throw error.renamingPath(temporary, to: path)
        }
        maker.closeEnvironment()
        guard link(temporary, path) == 0 || errno == EEXIST else { throw POSIXFailure.error("create", path: path) }
        try StoreFile.syncDirectory(of: path)
    }

    private static func refuseForeignFile(_ path: String, recognizer: StoreRecognizer) throws(AccountError) {
        let (header, _) = try StoreFile.readPrefix(path, count: 64)
        if LMDBBackendDescriptor.isEnvironment(header) { return }
        if header.isEmpty { throw .storeCorrupted(detail: "\(path) is empty (0 bytes)") }
        if let found = recognizer.describe(fileHeader: header) {
            throw .storeKindMismatch(expected: "LMDB", found: found)
        }
        throw .storeCorrupted(detail: "\(path) is not an LMDB environment (damaged or another kind of file)")
    }

    /// Why this process cannot write the environment at `path`, or `nil` when it can.
    private static func readOnlyReason(_ path: String) -> String? {
        access(path, W_OK) == 0 ? nil : "the file is not writable for this user"
    }

    /// Whether readers can register in the lock file (it is writable, or can be made).
    private static func lockFileUsable(_ path: String) -> Bool {
        let lockPath = path + "-lock"
        if access(lockPath, F_OK) == 0 { return access(lockPath, W_OK) == 0 }
        return access(StorePath.directory(of: path), W_OK) == 0
    }

    private func openEnvironment(_ options: LMDBOptions) throws(AccountError) {
        var created: OpaquePointer?
        var status = mdb_env_create(&created)
        guard status == MDB_SUCCESS, let created else {
            throw LMDBFailure.error(status, "create environment", path: path)
        }
        environment = created
        mdb_env_set_maxdbs(created, MDB_dbi(LMDBLayout.names.count + 2))
        mdb_env_set_mapsize(created, max(1, options.mapSizeMiB) * 1024 * 1024)
        var flags = UInt32(MDB_NOSUBDIR | MDB_NOTLS)
        if readOnlyReason != nil {
            flags |= UInt32(MDB_RDONLY)
            // Without a writable lock file, read without locking: the store is read-only for us,
            // and its owner is expected not to change it meanwhile.
            if !Self.lockFileUsable(path) { flags |= UInt32(MDB_NOLOCK) }
        }
        switch options.sync {
        case .full: break
        case .nometasync: flags |= UInt32(MDB_NOMETASYNC)
        case .none: flags |= UInt32(MDB_NOSYNC)
        }
        status = mdb_env_open(created, path, flags, 0o600)
        guard status == MDB_SUCCESS else {
            if status == MDB_INVALID || status == MDB_VERSION_MISMATCH {
                let reason = String(cString: mdb_strerror(status))
                let detail: ErrorDetail = "\(path): not a readable LMDB environment (\(reason))"
                // LMDB also says "invalid" when reading its meta page comes back short; the header
                // was checked just before, so read it again before calling the store damaged.
                if status == MDB_INVALID {
                    let header: [UInt8]
                    do throws(AccountError) {
                        header = try StoreFile.readPrefix(path, count: 64).bytes
                    } catch {
                        throw .storeIO(
                            detail:
                                "\(detail); reading its header again to confirm any damage failed too (\(error.message(.english))), so this may be an I/O error rather than damage: run accounts doctor"
                        )
                    }
                    if LMDBBackendDescriptor.isEnvironment(header) {
                        throw .storeIO(
                            detail:
                                "\(detail), yet its header reads as a sound LMDB environment, so a read failed in passing: retry"
                        )
                    }
                }
                throw .storeCorrupted(detail: detail)
            }
            throw LMDBFailure.error(status, "open environment", path: path)
        }
        // Reader slots of crashed processes would pin old pages forever: clear them now.
        var dead: Int32 = 0
        mdb_reader_check(created, &dead)
    }

    /// Opens the layout's databases; sets up a brand-new environment, and upgrades one of an
    /// older format when `upgrading` (else refuses it, unchanged, as `storeUpgradeNeeded`).
    private func openLayout(newStoreID: () -> String, upgrading: Bool = true) throws(AccountError) {
        let transaction = try begin(flags: UInt32(MDB_RDONLY))
        var meta: MDB_dbi = 0
        let status = mdb_dbi_open(transaction, "meta", 0, &meta)
        if status == MDB_SUCCESS { mdb_txn_commit(transaction) } else { mdb_txn_abort(transaction) }
        if status == MDB_NOTFOUND {
            if let readOnlyReason {
                throw .storeCorrupted(detail: "\(path): the environment was never set up, and \(readOnlyReason)")
            }
            try initializeOrRefuse(newStoreID: newStoreID)
            return
        }
        guard status == MDB_SUCCESS else { throw LMDBFailure.error(status, "open meta", path: path) }
        let version = try stampedVersion(meta: meta)
        if version < LMDBLayout.formatVersion {
            guard upgrading, readOnlyReason == nil else {
                throw .storeUpgradeNeeded(found: version, current: LMDBLayout.formatVersion)
            }
            try upgradeToCurrentFormat(meta: meta)
        }
        try openHandles()
    }

    /// Brings an older environment to this build's format in one write transaction (a crash
    /// leaves the old store or the new one). From format 1: the `numbers` database, every user
    /// numbered in creation order (ties by id) and re-encoded, `last_user_number`. From format
    /// 2 or 3: every user re-encoded, active, with its own password and no proven email. From
    /// formats 1 to 4: every session re-encoded, a family of its own (and from 1 or 2 with an
    /// empty device name). The databases a format added are created empty. Then the new version.
    /// Another process may have upgraded it first: the version is read again inside the
    /// transaction.
    private func upgradeToCurrentFormat(meta: MDB_dbi) throws(AccountError) {
        try lock.withLock { (_) throws(AccountError) in
            try writeLocked { (txn) throws(AccountError) in
                let version = try Self.version(in: txn, meta: meta, path: path)
                guard version < LMDBLayout.formatVersion else { return }
                var handles: [MDB_dbi] = []
                for name in LMDBLayout.names {
                    var handle: MDB_dbi = 0
                    let status = mdb_dbi_open(txn.handle, name, UInt32(MDB_CREATE), &handle)
                    guard status == MDB_SUCCESS else { throw LMDBFailure.error(status, "create \(name)", path: path) }
                    handles.append(handle)
                }
                let layout = LMDBLayout(handles: handles)
                if version < 2 {
                    try numberUsers(txn, layout)
                } else if version < 4 {
                    try reencodeUsers(txn, layout, from: 2)
                }
                if version < 5 {
                    var sessions: [SessionRecord] = []
                    try txn.scan(layout.sessions, from: nil) { (key, value) throws(AccountError) -> Bool in
                        sessions.append(
                            try LMDBRecordCodec.decodeSession(
                                tokenHash: String(decoding: key, as: UTF8.self), value, path: path,
                                version: version < 3 ? 1 : 2))
                        return true
                    }
                    for session in sessions {
                        try txn.put(layout.sessions, Array(session.tokenHash.utf8), LMDBRecordCodec.encode(session))
                    }
                }
                try txn.put(layout.meta, Array("format_version".utf8), Array(String(LMDBLayout.formatVersion).utf8))
            }
        }
    }

    /// Every user record of `version` re-encoded in this build's version, inside the upgrade's
    /// transaction.
    private func reencodeUsers(_ txn: LMDBTransaction, _ layout: LMDBLayout, from version: UInt8) throws(AccountError) {
        var users: [UserRecord] = []
        try txn.scan(layout.users, from: nil) { (key, value) throws(AccountError) -> Bool in
            users.append(
                try LMDBRecordCodec.decodeUser(
                    id: UserID(rawValue: String(decoding: key, as: UTF8.self)), value, path: path, version: version))
            return true
        }
        for user in users {
            try txn.put(layout.users, Array(user.id.rawValue.utf8), LMDBRecordCodec.encode(user))
        }
    }

    /// Format 1 to 2, inside the upgrade's transaction: every user numbered in creation order
    /// (ties by id) and re-encoded, the `numbers` index, and `last_user_number`.
    private func numberUsers(_ txn: LMDBTransaction, _ layout: LMDBLayout) throws(AccountError) {
        var users: [UserRecord] = []
        try txn.scan(layout.users, from: nil) { (key, value) throws(AccountError) -> Bool in
            users.append(
                try LMDBRecordCodec.decodeUser(
                    id: UserID(rawValue: String(decoding: key, as: UTF8.self)), value, path: path, version: 1))
            return true
        }
        users.sort { ($0.createdAt, $0.id.rawValue) < ($1.createdAt, $1.id.rawValue) }
        for (index, var user) in users.enumerated() {
            user.number = index + 1
            try txn.put(layout.users, Array(user.id.rawValue.utf8), LMDBRecordCodec.encode(user))
            try txn.put(layout.numbers, LMDBRecordCodec.numberKey(index + 1), Array(user.id.rawValue.utf8))
        }
        try txn.put(layout.meta, LMDBLayout.lastUserNumberKey, Array(String(users.count).utf8))
    }

    /// A brand-new (or never-initialised, empty) environment gets our layout; one holding other
    /// data is another program's.
    private func initializeOrRefuse(newStoreID: () -> String) throws(AccountError) {
        let transaction = try begin(flags: 0)
        var main: MDB_dbi = 0
        var stat = MDB_stat()
        guard mdb_dbi_open(transaction, nil, 0, &main) == MDB_SUCCESS, mdb_stat(transaction, main, &stat) == MDB_SUCCESS
        else {
            mdb_txn_abort(transaction)
            throw .storeCorrupted(detail: "\(path): the LMDB main database cannot be read")
        }
        if stat.ms_entries > 0 {
            mdb_txn_abort(transaction)
            throw .storeKindMismatch(expected: "LMDB", found: "an LMDB environment of another application")
        }
        var handles: [MDB_dbi] = []
        for name in LMDBLayout.names {
            var handle: MDB_dbi = 0
            let status = mdb_dbi_open(transaction, name, UInt32(MDB_CREATE), &handle)
            guard status == MDB_SUCCESS else {
                mdb_txn_abort(transaction)
                throw LMDBFailure.error(status, "create \(name)", path: path)
            }
            handles.append(handle)
        }
        let layout = LMDBLayout(handles: handles)
        let txn = LMDBTransaction(handle: transaction, path: path, state: nil)
        do throws(AccountError) {
            try txn.put(layout.meta, Array("format".utf8), Array(LMDBLayout.formatName.utf8))
            try txn.put(layout.meta, Array("format_version".utf8), Array(String(LMDBLayout.formatVersion).utf8))
            try txn.put(layout.meta, LMDBLayout.lastUserNumberKey, Array("0".utf8))
            try txn.put(layout.meta, Array("store_id".utf8), Array(newStoreID().utf8))
            try txn.put(
                layout.meta, Array("created_at_ms".utf8), Array(String(SystemClock().now().millisecondsSince1970).utf8))
        } catch {
            mdb_txn_abort(transaction)
            throw error
        }
        let status = mdb_txn_commit(transaction)
        guard status == MDB_SUCCESS else { throw LMDBFailure.error(status, "initialise", path: path) }
        self.layout = layout
    }

    private func openHandles() throws(AccountError) {
        let transaction = try begin(flags: UInt32(MDB_RDONLY))
        var handles: [MDB_dbi] = []
        for name in LMDBLayout.names {
            var handle: MDB_dbi = 0
            let status = mdb_dbi_open(transaction, name, 0, &handle)
            guard status == MDB_SUCCESS else {
                mdb_txn_abort(transaction)
                throw .storeCorrupted(detail: "\(path): the named database '\(name)' is missing")
            }
            handles.append(handle)
        }
        // Committing (even a read-only transaction) keeps the handles open for later ones.
        mdb_txn_commit(transaction)
        layout = LMDBLayout(handles: handles)
    }

    /// The format version stamped in `meta`, after checking the format's name; a newer
    /// version is refused.
    private func stampedVersion(meta: MDB_dbi) throws(AccountError) -> Int {
        let transaction = try begin(flags: UInt32(MDB_RDONLY))
        defer { mdb_txn_abort(transaction) }
        let txn = LMDBTransaction(handle: transaction, path: path, state: nil)
        let format = try txn.get(meta, Array("format".utf8)).map { String(decoding: $0, as: UTF8.self) }
        guard format == LMDBLayout.formatName else {
            throw .storeKindMismatch(expected: "LMDB", found: "an LMDB environment of format \(format ?? "none")")
        }
        let version = try Self.version(in: txn, meta: meta, path: path)
        if version > LMDBLayout.formatVersion {
            throw .storeVersionUnsupported(found: version, supported: LMDBLayout.formatVersion)
        }
        return version
    }

    private static func version(in txn: LMDBTransaction, meta: MDB_dbi, path: String) throws(AccountError) -> Int {
        guard let versionBytes = try txn.get(meta, Array("format_version".utf8)),
            let version = Int(String(decoding: versionBytes, as: UTF8.self))
        else { throw .storeCorrupted(detail: "\(path): the format version is missing") }
        return version
    }

    // MARK: - Helpers (lock held)

    private func begin(flags: UInt32) throws(AccountError) -> OpaquePointer {
        // A repository can be closed while calls still reach it (a server stopping); LMDB would
        // dereference the closed environment's null handle, so the call is refused here.
        guard let environment else {
            throw .storeIO(detail: "\(path): the store was closed before this call; nothing was changed")
        }
        while true {
            var transaction: OpaquePointer?
            let status = mdb_txn_begin(environment, nil, flags, &transaction)
            if status == MDB_MAP_RESIZED {
                // Another process grew the map: adopt its size and try again.
                dropReadTransaction()
                mdb_env_set_mapsize(environment, 0)
                continue
            }
            guard status == MDB_SUCCESS, let transaction else { throw LMDBFailure.error(status, "begin", path: path) }
            return transaction
        }
    }

    private func renewedReadTransaction() throws(AccountError) -> OpaquePointer {
        if let readTransaction {
            if mdb_txn_renew(readTransaction) == MDB_SUCCESS { return readTransaction }
            dropReadTransaction()
        }
        let transaction = try begin(flags: UInt32(MDB_RDONLY))
        readTransaction = transaction
        return transaction
    }

    private func dropReadTransaction() {
        if let readTransaction { mdb_txn_abort(readTransaction) }
        readTransaction = nil
    }

    private func growMap() throws(AccountError) {
        dropReadTransaction()
        var info = MDB_envinfo()
        mdb_env_info(environment, &info)
        let status = mdb_env_set_mapsize(environment, info.me_mapsize * 2)
        guard status == MDB_SUCCESS else { throw LMDBFailure.error(status, "grow map", path: path) }
    }

    private func closeEnvironment() {
        dropReadTransaction()
        if let environment { mdb_env_close(environment) }
        environment = nil
    }

    private static func canonicalPath(_ path: String) -> String {
        let folder = StorePath.directory(of: path)
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let resolved = realpath(folder, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved) + "/" + name
    }
}
