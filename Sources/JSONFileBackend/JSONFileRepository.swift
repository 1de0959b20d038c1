public import AccountBackendKit
public import AccountCore
import DurableFiles

/// A `UserRepository` in one pretty-printed JSON file: for small deployments, fixtures, and
/// stores a person wants to read or diff.
///
/// Every change is a read-modify-write under an exclusive `flock` on `<path>.lock`: re-read the
/// file if another writer changed it, apply the change, write a temporary file, fsync it, rename
/// it over the store, fsync the folder. Readers need no lock, since a rename is atomic. A file
/// that is corrupt, foreign or newer is reported and never rewritten.
public final class JSONFileRepository: UserRepository, @unchecked Sendable {
    // `@unchecked`: `cached` is only touched by `current`, `write`, `close` and `createIfMissing`,
    // which all run on `io`, a serial queue; `current` checks that it is on it.
    private let options: JSONFileOptions
    private let recognizer: StoreRecognizer
    private let lockPath: String
    private let io: SerialIOQueue
    private var cached: (version: StoreFile.Version, document: JSONStoreDocument)?

    /// The store file.
    public var path: String { options.path }

    private init(options: JSONFileOptions, recognizer: StoreRecognizer) {
        self.options = options
        self.recognizer = recognizer
        lockPath = options.path + ".lock"
        io = SerialIOQueue(label: "JSONFileRepository \(options.path)")
    }

    /// Opens the store at `options.path`, creating an empty one when no file exists there.
    /// - Throws: `storeIO` when the folder is missing or unwritable; `storeCorrupted`,
    ///   `storeKindMismatch` or `storeVersionUnsupported` for a file that is not a readable store.
    public static func open(
        _ options: JSONFileOptions, recognizer: StoreRecognizer = .none,
        newStoreID: @escaping @Sendable () -> String = StoreInfo.randomStoreID
    ) async throws
        -> JSONFileRepository
    {
        var resolved = options
        // Replaced where a symbolic link points, under a lock beside that file: renaming over
        // the link would fork the store.
        resolved.path = StorePath.followingLinks(options.path)
        let options = resolved
        let repository = JSONFileRepository(options: options, recognizer: recognizer)
        try await repository.io.run {
            try StoreFile.requireRegularFile(options.path)
            let exists = try StoreFile.version(of: options.path) != nil
            if !exists && !options.createIfMissing { throw AccountError.storeNotFound(location: options.path) }
            try StoreFile.requireDirectory(of: options.path)
            if !exists {
                try repository.createIfMissing(storeID: newStoreID())
            }
            let found = try repository.current().formatVersion
            if found < JSONStoreDocument.formatVersion {
                // Refused before the lock is taken: a reader may not be able to make its file.
                guard options.upgradesFormat else {
                    throw AccountError.storeUpgradeNeeded(found: found, current: JSONStoreDocument.formatVersion)
                }
                try repository.upgrade()
            }
        }
        return repository
    }

    /// Brings a store of an older format to this build's, under the lock, in one rename: a crash
    /// leaves the old file or the new one.
    private func upgrade() throws {
        try FileLock.withExclusiveLock(path: lockPath, timeoutMilliseconds: options.lockTimeoutMilliseconds) {
            // Another process may have upgraded it while we waited for the lock.
            let document = try current()
            guard document.formatVersion < JSONStoreDocument.formatVersion else { return }
            let upgraded = document.upgraded()
            cached = (try StoreFile.replace(options.path, with: JSONStoreEncoder.encode(upgraded)), upgraded)
        }
    }

    /// Writes an empty store stamped with `formatVersion`: the conformance suite uses it (through
    /// the descriptor) to check that a newer format is refused.
    package static func plantEmptyStore(at path: String, formatVersion: Int) throws {
        let bytes = JSONStoreEncoder.encode(
            JSONStoreDocument(storeID: "planted", createdAt: Timestamp(millisecondsSince1970: 0)),
            formatVersion: formatVersion)
        _ = try StoreFile.replace(path, with: bytes)
    }

    /// Re-reads and fully validates the file (types, unique ids, emails and tokens) and looks
    /// for sessions whose user is gone: `["ok"]` for a sound store.
    public func integrityCheck() async throws -> [String] {
        try await io.run {
            let (bytes, _) = try StoreFile.read(self.options.path)
            let document = try JSONStoreDecoder.decode(bytes, path: self.options.path, recognizer: self.recognizer)
            let orphans = document.sortedSessions.filter { document.user(id: $0.userID) == nil }.count
            return orphans == 0 ? ["ok"] : ["\(orphans) sessions belong to no user"]
        }
    }

    /// Checks the bytes of a store file the way opening it would (kind, version, every field,
    /// uniqueness), without touching any file: for tools and fuzzing.
    /// - Returns: the store's description and its user and session counts.
    public static func inspect(_ bytes: [UInt8], path: String = "(bytes)") throws(AccountError) -> (
        info: StoreInfo, users: Int, sessions: Int
    ) {
        let document = try JSONStoreDecoder.decode(bytes, path: path)
        return (document.info, document.usersByEmail.count, document.sessionsByHash.count)
    }

    // MARK: - UserRepository

    public func storeInfo() async throws -> StoreInfo {
        try await read { $0.info }
    }

    @discardableResult

    public func createUser(_ user: UserRecord, initialSession: SessionRecord?) async throws -> Int {
        try await write { document in
            guard document.usersByEmail[user.email] == nil else { throw AccountError.emailTaken }
            guard document.user(id: user.id) == nil else {
                throw AccountError.userIDInUse(user.id)
            }
            if let initialSession { try Self.refuseStored(initialSession, in: document) }
            // A refusal after this point would leave the document's highest number raised; the
            // throw drops the changed document (the cache was let go of) and the file is unchanged.
            var numbered = user
            numbered.number = try document.number(for: user)
            document.put(numbered)
            if let initialSession { document.put(initialSession) }
            return (numbered.number ?? 0, true)
        }
    }

    public func createUsers(_ users: [UserRecord], sessions: [SessionRecord]) async throws -> [String] {
        try await write { document in
            var skipped: [String] = []
            var accepted: [UserRecord] = []
            var emails: Set<String> = []
            var ids: Set<UserID> = []
            for user in users {
                guard document.usersByEmail[user.email] == nil, emails.insert(user.email).inserted else {
                    skipped.append(user.email)
                    continue
                }
                guard document.user(id: user.id) == nil, ids.insert(user.id).inserted else {
                    throw AccountError.userIDInUse(user.id)
                }
                accepted.append(user)
            }
            // Given numbers first, so that the users without one come after all of them. A throw
            // drops the changed document; the file is unchanged.
            for given in [true, false] {
                for var user in accepted where (user.number != nil) == given {
                    user.number = try document.number(for: user)
                    document.put(user)
                }
            }
            for session in sessions where ids.contains(session.userID) {
                try Self.refuseStored(session, in: document)
                document.put(session)
            }
            return (skipped, !accepted.isEmpty)
        }
    }

    public func lastUserNumber() async throws -> Int {
        try await read { $0.lastUserNumber }
    }

    public func raiseLastUserNumber(to number: Int) async throws {
        try await write { document in ((), document.raiseLastUserNumber(to: number)) }
    }

    public func user(email: String) async throws -> UserRecord? {
        try await read { $0.usersByEmail[email] }
    }

    public func user(id: UserID) async throws -> UserRecord? {
        try await read { $0.user(id: id) }
    }

    public func userCount() async throws -> Int {
        try await read { $0.usersByEmail.count }
    }

    public func users(after email: String?, limit: Int) async throws -> [UserRecord] {
        try await read { document in
            document.users(after: email, limit: limit)
        }
    }

    public func updatePassword(
        userID: UserID, passwordHash: String, changedAt: Timestamp, revoking: SessionRevocation,
        ifPasswordHashIs expected: String?
    ) async throws -> Bool {
        try await write { document in
            guard var user = document.user(id: userID), expected.map({ $0 == user.passwordHash }) ?? true else {
                return (false, false)
            }
            user.passwordHash = passwordHash
            user.passwordChangedAt = changedAt
            user.mustChangePassword = false
            document.put(user)
            document.flows.removeCode(of: userID, purpose: .passwordReset)
            if revoking.revokesSessions { _ = document.removeSessions(of: userID, except: revoking.keptTokenHash) }
            return (true, true)
        }
    }

    public func setBlocked(userID: UserID, _ blocked: Bool) async throws -> Bool {
        try await write { document in
            guard var user = document.user(id: userID) else { return (false, false) }
            user.isBlocked = blocked
            document.put(user)
            if blocked { _ = document.removeSessions(of: userID, except: nil) }
            return (true, true)
        }
    }

    public func setEmailVerified(userID: UserID, at time: Timestamp?) async throws -> Bool {
        try await write { document in
            guard var user = document.user(id: userID) else { return (false, false) }
            user.emailVerifiedAt = time
            document.put(user)
            return (true, true)
        }
    }

    // MARK: Refresh families

    public func rotateSession(
        tokenHash: String, to renewed: SessionRecord, ifPasswordHashIs passwordHash: String, at: Timestamp
    ) async throws -> Bool {
        try await write { document in
            guard let old = document.sessionsByHash[tokenHash],
                document.user(id: old.userID)?.passwordHash == passwordHash
            else { return (false, false) }
            try Self.refuseStored(renewed, in: document)
            _ = document.removeSession(tokenHash: tokenHash)
            document.put(renewed)
            document.flows.rotated[tokenHash] = RotatedToken(
                tokenHash: tokenHash, userID: old.userID, family: old.family, rotatedAt: at, expiresAt: old.expiresAt)
            return (true, true)
        }
    }

    public func rotatedToken(tokenHash: String) async throws -> RotatedToken? {
        try await read { document in document.flows.rotated[tokenHash] }
    }

    public func revokeFamily(_ family: String, userID: UserID) async throws -> Int {
        try await write { document in
            let doomed = document.sessions(of: userID).filter { $0.family == family }
            for session in doomed { _ = document.removeSession(tokenHash: session.tokenHash) }
            return (doomed.count, !doomed.isEmpty)
        }
    }

    public func purgeExpiredFlowRecords(at now: Timestamp) async throws -> Int {
        try await write { document in
            let before = document.flows.rotated.count + document.flows.codes.count
            document.flows.rotated = document.flows.rotated.filter { $0.value.expiresAt > now }
            document.flows.codes = document.flows.codes.filter { $0.value.expiresAt > now }
            let purged = before - document.flows.rotated.count - document.flows.codes.count
            return (purged, purged > 0)
        }
    }

    // MARK: One-time codes

    public func replaceCode(_ code: OneTimeCode) async throws -> Bool {
        try await write { document in
            guard document.user(id: code.userID) != nil else { return (false, false) }
            if let held = document.flows.codes[code.codeHash],
                held.userID != code.userID || held.purpose != code.purpose
            {
                throw AccountError.storeIO(detail: "a code with this hash is stored for another user or purpose")
            }
            document.flows.removeCode(of: code.userID, purpose: code.purpose)
            document.flows.codes[code.codeHash] = code
            return (true, true)
        }
    }

    public func code(hash: String) async throws -> OneTimeCode? {
        try await read { document in document.flows.codes[hash] }
    }

    public func takeCode(hash: String) async throws -> OneTimeCode? {
        try await write { document in
            let taken = document.flows.codes.removeValue(forKey: hash)
            return (taken, taken != nil)
        }
    }

    // MARK: Outbox

    public func enqueueMail(_ mail: OutboxMail) async throws {
        try await write { document in
            guard document.flows.outbox[mail.id] == nil else {
                throw AccountError.storeIO(detail: "a mail with id \(mail.id) is stored already")
            }
            document.flows.outbox[mail.id] = mail
            return ((), true)
        }
    }

    public func dueMail(at: Timestamp, limit: Int) async throws -> [OutboxMail] {
        try await read { document in
            Array(
                document.flows.outbox.values.filter { $0.notBefore <= at }
                    .sorted { ($0.notBefore, $0.id) < ($1.notBefore, $1.id) }.prefix(max(0, limit)))
        }
    }

    public func leaseMail(id: String, from expected: Timestamp, until: Timestamp) async throws -> Bool {
        try await write { document in
            guard document.flows.outbox[id]?.notBefore == expected else { return (false, false) }
            document.flows.outbox[id]?.notBefore = until
            return (true, true)
        }
    }

    public func rescheduleMail(id: String, attempts: Int, notBefore: Timestamp, lastError: String?) async throws
        -> Bool
    {
        try await write { document in
            guard var mail = document.flows.outbox[id] else { return (false, false) }
            (mail.attempts, mail.notBefore, mail.lastError) = (attempts, notBefore, lastError)
            document.flows.outbox[id] = mail
            return (true, true)
        }
    }

    public func deleteMail(id: String) async throws -> Bool {
        try await write { document in
            let deleted = document.flows.outbox.removeValue(forKey: id) != nil
            return (deleted, deleted)
        }
    }

    public func outboxSummary() async throws -> OutboxSummary {
        try await read { document in
            let mails = document.flows.outbox.values
            return OutboxSummary(
                queued: mails.count, failing: mails.count { $0.attempts > 0 }, oldest: mails.map(\.createdAt).min())
        }
    }

    // MARK: Provider identities

    public func linkIdentity(_ identity: ProviderIdentity) async throws -> Bool {
        try await write { document in
            guard document.user(id: identity.userID) != nil else { return (false, false) }
            let key = JSONFlows.identityKey(identity.provider, identity.subject)
            guard document.flows.identities[key] == nil else { throw AccountError.identityTaken }
            document.flows.identities[key] = identity
            return (true, true)
        }
    }

    public func identity(provider: String, subject: String) async throws -> ProviderIdentity? {
        try await read { document in document.flows.identities[JSONFlows.identityKey(provider, subject)] }
    }

    public func identities(userID: UserID) async throws -> [ProviderIdentity] {
        try await read { document in
            JSONFlows.sorted(document.flows.identities.filter { $0.value.userID == userID }.keys).map {
                document.flows.identities[$0]!
            }
        }
    }

    public func unlinkIdentity(provider: String, subject: String, userID: UserID) async throws -> Bool {
        try await write { document in
            let key = JSONFlows.identityKey(provider, subject)
            guard document.flows.identities[key]?.userID == userID else { return (false, false) }
            document.flows.identities[key] = nil
            return (true, true)
        }
    }

    public func storeValue(forKey key: String) async throws -> String? {
        try await read { document in document.values[key] }
    }

    public func setStoreValue(_ value: String?, forKey key: String) async throws {
        try await write { document in
            guard document.values[key] != value else { return ((), false) }
            document.values[key] = value
            return ((), true)
        }
    }

    public func recordLoginFailure(userID: UserID, at time: Timestamp) async throws -> Int? {
        try await write { document in
            guard var user = document.user(id: userID) else { return (nil, false) }
            user.failedLoginCount += 1
            user.lastFailedLoginAt = time
            document.put(user)
            return (user.failedLoginCount, true)
        }
    }

    public func resetLoginFailures(userID: UserID) async throws {
        try await write { document in
            guard var user = document.user(id: userID), user.failedLoginCount != 0 || user.lastFailedLoginAt != nil
            else { return ((), false) }
            user.failedLoginCount = 0
            user.lastFailedLoginAt = nil
            document.put(user)
            return ((), true)
        }
    }

    public func deleteUser(id: UserID) async throws -> Bool {
        try await write { document in
            let removed = document.removeUser(id: id) != nil
            return (removed, removed)
        }
    }

    public func createSession(_ session: SessionRecord, ifPasswordHashIs passwordHash: String) async throws -> Bool {
        try await write { document in
            guard document.user(id: session.userID)?.passwordHash == passwordHash else { return (false, false) }
            try Self.refuseStored(session, in: document)
            document.put(session)
            return (true, true)
        }
    }

    public func session(tokenHash: String) async throws -> SessionRecord? {
        try await read { $0.sessionsByHash[tokenHash] }
    }

    /// Both from one snapshot of the document.
    public func signedIn(tokenHash: String) async throws -> (session: SessionRecord, user: UserRecord?)? {
        try await read { document -> (session: SessionRecord, user: UserRecord?)? in
            guard let session = document.sessionsByHash[tokenHash] else { return nil }
            return (session, document.user(id: session.userID))
        }
    }

    public func sessions(userID: UserID) async throws -> [SessionRecord] {
        try await read { $0.sessions(of: userID) }
    }

    public func touchSession(tokenHash: String, lastSeenAt: Timestamp) async throws {
        try await write { document in
            guard var session = document.sessionsByHash[tokenHash], session.lastSeenAt < lastSeenAt else {
                return ((), false)
            }
            session.lastSeenAt = lastSeenAt
            document.put(session)
            return ((), true)
        }
    }

    public func deleteSession(tokenHash: String) async throws -> Bool {
        try await write { document in
            let removed = document.removeSession(tokenHash: tokenHash) != nil
            return (removed, removed)
        }
    }

    public func deleteOrphanedSessions() async throws -> Int {
        try await write { document in
            let orphans = document.sortedSessions.filter { document.user(id: $0.userID) == nil }
            for session in orphans { _ = document.removeSession(tokenHash: session.tokenHash) }
            return (orphans.count, !orphans.isEmpty)
        }
    }

    public func close() async throws {
        await io.run { self.cached = nil }
    }

    /// Overwriting a stored token hash would hand that session to another user. A throw
    /// inside `write` writes nothing.
    private static func refuseStored(_ session: SessionRecord, in document: JSONStoreDocument) throws {
        guard document.sessionsByHash[session.tokenHash] == nil else {
            throw AccountError.sessionAlreadyStored(of: session.userID)
        }
    }

    // MARK: - File access (on `io` only)

    private func read<T: Sendable>(_ body: @escaping @Sendable (JSONStoreDocument) throws -> T) async throws -> T {
        try await io.run { try body(self.current()) }
    }

    /// Runs `body` on the latest document under the lock; writes the file when it reports a change.
    private func write<T: Sendable>(
        _ body: @escaping @Sendable (inout JSONStoreDocument) throws -> (T, Bool)
    ) async throws -> T {
        try await io.run {
            try FileLock.withExclusiveLock(
                path: self.lockPath, timeoutMilliseconds: self.options.lockTimeoutMilliseconds
            ) {
                var document = try self.current()
                let unchanged = self.cached?.version
                // The cache lets go of its reference first, so the change mutates the document in
                // place instead of copying every record (it is put back once the write is done).
                self.cached = nil
                let (result, changed) = try body(&document)
                if changed {
                    // Kept encoded in the cache: the next write on this document copies bytes.
                    document.encodeMissing()
                    let version = try StoreFile.replace(self.options.path, with: JSONStoreEncoder.encode(document))
                    self.cached = (version, document)
                } else if let unchanged {
                    self.cached = (unchanged, document)
                }
                return result
            }
        }
    }

    /// The document as it is on disk now, from the cache when the file has not changed.
    private func current() throws(AccountError) -> JSONStoreDocument {
        io.checkOnQueue()
        guard let version = try StoreFile.version(of: options.path) else {
            throw .storeIO(detail: "the store file \(options.path) has disappeared")
        }
        if let cached, cached.version == version { return cached.document }
        let (bytes, readVersion) = try StoreFile.read(options.path)
        let document = try JSONStoreDecoder.decode(bytes, path: options.path, recognizer: recognizer)
        cached = (readVersion, document)
        return document
    }

    private func createIfMissing(storeID: String) throws {
        try FileLock.withExclusiveLock(path: lockPath, timeoutMilliseconds: options.lockTimeoutMilliseconds) {
            // Another process may have created it while we waited for the lock.
            guard try StoreFile.version(of: options.path) == nil else { return }
            let document = JSONStoreDocument(storeID: storeID, createdAt: SystemClock().now())
            cached = (try StoreFile.replace(options.path, with: JSONStoreEncoder.encode(document)), document)
        }
    }
}

extension JSONFileRepository {
    /// The format version this build writes.
    public static var formatVersion: Int { JSONStoreDocument.formatVersion }
    /// The format name written in every file.
    public static var formatName: String { JSONStoreDocument.formatName }
}
