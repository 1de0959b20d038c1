public import AccountBackendKit
public import AccountCore
import CLMDB
import DurableFiles
import Synchronization

/// A `UserRepository` in an LMDB environment (one data file plus `<path>-lock`): memory-mapped
/// B+trees with fast reads. Every operation is one transaction over the named databases of
/// `LMDBLayout`; uniqueness is the `emails` index checked and written in the same write
/// transaction, and LMDB allows one writer at a time across all processes.
public final class LMDBRepository: UserRepository, Sendable {
    private let environment: LMDBEnvironment
    private let io: SerialIOQueue
    /// Set by the first `close`, so the environment is released once.
    private let closed = Atomic(false)
    /// The data file.
    public let path: String

    private init(environment: LMDBEnvironment, io: SerialIOQueue) {
        self.environment = environment
        self.io = io
        path = environment.path
    }

    /// Opens the store at `options.path`, creating an empty one when no file exists there.
    /// Opening a path this process already has open shares its environment.
    public static func open(
        _ options: LMDBOptions, recognizer: StoreRecognizer = .none,
        newStoreID: @escaping @Sendable () -> String = StoreInfo.randomStoreID
    ) async throws -> LMDBRepository {
        var resolved = options
        // Created where a symbolic link points, with its lock file beside it (not beside the
        // link), and one environment per store in this process whatever name reached it.
        resolved.path = StorePath.followingLinks(options.path)
        let options = resolved
        let io = SerialIOQueue(label: "LMDBRepository \(options.path)")
        let environment = try await io.run {
            try LMDBEnvironment.acquire(options, recognizer: recognizer, newStoreID: newStoreID)
        }
        return LMDBRepository(environment: environment, io: io)
    }

    /// Writes an empty store stamped with `formatVersion`: the conformance suite uses it (through
    /// the descriptor) to check that a newer format is refused.
    package static func plantEmptyStore(at path: String, formatVersion: Int) throws {
        let environment = try LMDBEnvironment.acquire(LMDBOptions(path: path), newStoreID: { "planted" })
        defer { environment.release() }
        try environment.write { (txn) throws(AccountError) in
            _ = try txn.put(environment.layout.meta, Array("format_version".utf8), Array(String(formatVersion).utf8))
        }
    }

    /// The format version this build writes.
    public static var formatVersion: Int { LMDBLayout.formatVersion }

    /// Whether both repositories use the same `MDB_env` (they do when they share a path).
    func sharesEnvironment(with other: LMDBRepository) -> Bool {
        environment === other.environment
    }

    /// The current map size in bytes (it grows by doubling when a write fills it).
    func mapSize() async -> Int {
        await io.run { [environment] in environment.mapSize }
    }

    /// Checks that every record decodes and the indexes agree with the records: each user's
    /// email maps back to it, each session's user exists and is indexed. `["ok"]` when sound.
    public func integrityCheck() async throws -> [String] {
        try await io.run { [environment, path] () throws -> [String] in
            try environment.read { (txn) throws(AccountError) -> [String] in
                let layout = environment.layout
                var problems: [String] = []
                var userIDs = Set<String>()
                var highestNumber = 0
                try txn.scan(layout.users, from: nil) { (key, value) throws(AccountError) in
                    let id = String(decoding: key, as: UTF8.self)
                    let user = try LMDBRecordCodec.decodeUser(id: UserID(rawValue: id), value, path: path)
                    userIDs.insert(id)
                    if try txn.get(layout.emails, Array(user.email.utf8)) != key {
                        problems.append("user \(id): its email is not indexed to it")
                    }
                    let number = user.number ?? 0
                    highestNumber = max(highestNumber, number)
                    if try txn.get(layout.numbers, LMDBRecordCodec.numberKey(number)) != key {
                        problems.append("user \(id): its number is not indexed to it")
                    }
                    return true
                }
                if try txn.count(layout.emails) != userIDs.count {
                    problems.append(
                        "the email index has \(try txn.count(layout.emails)) entries for \(userIDs.count) users")
                }
                if try txn.count(layout.numbers) != userIDs.count {
                    problems.append(
                        "the number index has \(try txn.count(layout.numbers)) entries for \(userIDs.count) users")
                }
                if try Self.lastUserNumber(txn, layout) < highestNumber {
                    problems.append("last_user_number is lower than user number \(highestNumber)")
                }
                var sessionCount = 0
                try txn.scan(layout.sessions, from: nil) { (key, value) throws(AccountError) in
                    let tokenHash = String(decoding: key, as: UTF8.self)
                    let session = try LMDBRecordCodec.decodeSession(tokenHash: tokenHash, value, path: path)
                    sessionCount += 1
                    if !userIDs.contains(session.userID.rawValue) { problems.append("a session belongs to no user") }
                    if try txn.get(layout.userSessions, LMDBLayout.userSessionKey(session.userID.rawValue, tokenHash))
                        == nil
                    {
                        problems.append("a session is missing from its user's index")
                    }
                    return true
                }
                if try txn.count(layout.userSessions) != sessionCount {
                    problems.append("the per-user session index does not match the sessions")
                }
                return problems.isEmpty ? ["ok"] : problems
            }
        }
    }

    // MARK: - UserRepository

    public func storeInfo() async throws -> StoreInfo {
        try await read { (txn, layout, path) throws(AccountError) -> StoreInfo in
            func text(_ key: String) throws(AccountError) -> String? {
                try txn.get(layout.meta, Array(key.utf8)).map { String(decoding: $0, as: UTF8.self) }
            }
            guard try text("format") == LMDBLayout.formatName, let storeID = try text("store_id"),
                let version = try text("format_version").flatMap({ Int($0) })
            else { throw .storeCorrupted(detail: "\(path): the meta database lacks the format or store id") }
            return StoreInfo(formatName: LMDBLayout.formatName, formatVersion: version, storeID: storeID)
        }
    }

    @discardableResult

    public func createUser(_ user: UserRecord, initialSession: SessionRecord?) async throws -> Int {
        // A taken email is refused by a read on the caller's thread, without waiting for the
        // writer; a race between two creators is still decided inside the write transaction.
        let taken = try await read { (txn, layout, _) throws(AccountError) -> Bool in
            try txn.withValue(layout.emails, key: user.email) { _ in true } ?? false
        }
        if taken { throw AccountError.emailTaken }
        return try await write { (txn, layout, _) throws(AccountError) -> Int in
            // Check and insert in one write transaction: LMDB admits one writer at a time.
            guard try txn.put(layout.emails, Array(user.email.utf8), Array(user.id.rawValue.utf8), unique: true) else {
                throw .emailTaken
            }
            guard try txn.get(layout.users, Array(user.id.rawValue.utf8)) == nil else { throw .userIDInUse(user.id) }
            let number = try Self.putUser(user, txn, layout)
            // A throw aborts the transaction: neither the user nor the session is written.
            if let initialSession, try !Self.putSession(initialSession, txn, layout) {
                throw .sessionAlreadyStored(of: initialSession.userID)
            }
            return number
        }
    }

    public func createUsers(_ users: [UserRecord], sessions: [SessionRecord]) async throws -> [String] {
        try await write { (txn, layout, _) throws(AccountError) -> [String] in
            var skipped: [String] = []
            var accepted: [UserRecord] = []
            var stored: Set<UserID> = []
            for user in users {
                guard try txn.put(layout.emails, Array(user.email.utf8), Array(user.id.rawValue.utf8), unique: true)
                else {
                    skipped.append(user.email)
                    continue
                }
                guard try txn.get(layout.users, Array(user.id.rawValue.utf8)) == nil, stored.insert(user.id).inserted
                else { throw .userIDInUse(user.id) }
                accepted.append(user)
            }
            // Given numbers first, so that the users without one come after all of them.
            for given in [true, false] {
                for user in accepted where (user.number != nil) == given { try Self.putUser(user, txn, layout) }
            }
            for session in sessions where stored.contains(session.userID) {
                // Overwriting would hand a stored session to another user and leave it in the
                // first user's index. A throw aborts the transaction: nothing of the batch stays.
                guard try Self.putSession(session, txn, layout) else {
                    throw .sessionAlreadyStored(of: session.userID)
                }
            }
            return skipped
        }
    }

    public func lastUserNumber() async throws -> Int {
        try await read { (txn, layout, _) throws(AccountError) -> Int in try Self.lastUserNumber(txn, layout) }
    }

    public func raiseLastUserNumber(to number: Int) async throws {
        try await write { (txn, layout, _) throws(AccountError) in
            if number > (try Self.lastUserNumber(txn, layout)) {
                try txn.put(layout.meta, LMDBLayout.lastUserNumberKey, Array(String(number).utf8))
            }
        }
    }

    public func user(email: String) async throws -> UserRecord? {
        try await read { (txn, layout, path) throws(AccountError) -> UserRecord? in
            // In place: the email's bytes, the id and the record are read from LMDB's memory;
            // only the returned record's strings are allocated.
            try txn.withValue(layout.emails, key: email) { (id) throws(AccountError) -> UserRecord? in
                try txn.withValue(layout.users, key: id) { (record) throws(AccountError) -> UserRecord in
                    try LMDBRecordCodec.decodeUser(
                        id: UserID(rawValue: String(decoding: id, as: UTF8.self)), record, path: path)
                }
            } ?? nil
        }
    }

    public func user(id: UserID) async throws -> UserRecord? {
        try await read { (txn, layout, path) throws(AccountError) -> UserRecord? in
            try Self.user(id: id.rawValue, txn, layout, path)
        }
    }

    public func userCount() async throws -> Int {
        try await read { (txn, layout, _) throws(AccountError) -> Int in try txn.count(layout.users) }
    }

    public func users(after email: String?, limit: Int) async throws -> [UserRecord] {
        try await read { (txn, layout, path) throws(AccountError) -> [UserRecord] in
            var result: [UserRecord] = []
            guard limit > 0 else { return result }
            let after = email.map { Array($0.utf8) }
            try txn.scan(layout.emails, from: after) { (key, id) throws(AccountError) in
                if key == after { return true }
                guard let user = try Self.user(id: String(decoding: id, as: UTF8.self), txn, layout, path) else {
                    throw .storeCorrupted(detail: "\(path): the email index points at a missing user")
                }
                result.append(user)
                return result.count < limit
            }
            return result
        }
    }

    public func updatePassword(
        userID: UserID, passwordHash: String, changedAt: Timestamp, revoking: SessionRevocation,
        ifPasswordHashIs expected: String?
    ) async throws -> Bool {
        try await write { (txn, layout, path) throws(AccountError) -> Bool in
            guard var user = try Self.user(id: userID.rawValue, txn, layout, path),
                expected.map({ $0 == user.passwordHash }) ?? true
            else { return false }
            user.passwordHash = passwordHash
            user.passwordChangedAt = changedAt
            user.mustChangePassword = false
            try txn.put(layout.users, Array(userID.rawValue.utf8), LMDBRecordCodec.encode(user))
            try Self.deleteCode(
                userID: userID.rawValue, purpose: OneTimeCode.Purpose.passwordReset.rawValue, txn, layout)
            if revoking.revokesSessions {
                let keep = revoking.keptTokenHash
                for tokenHash in try Self.sessionHashes(of: userID.rawValue, txn, layout) where tokenHash != keep {
                    try Self.deleteSession(tokenHash, userID: userID.rawValue, txn, layout)
                }
            }
            return true
        }
    }

    public func setBlocked(userID: UserID, _ blocked: Bool) async throws -> Bool {
        try await write { (txn, layout, path) throws(AccountError) -> Bool in
            guard var user = try Self.user(id: userID.rawValue, txn, layout, path) else { return false }
            user.isBlocked = blocked
            try txn.put(layout.users, Array(userID.rawValue.utf8), LMDBRecordCodec.encode(user))
            if blocked {
                for tokenHash in try Self.sessionHashes(of: userID.rawValue, txn, layout) {
                    try Self.deleteSession(tokenHash, userID: userID.rawValue, txn, layout)
                }
            }
            return true
        }
    }

    public func setEmailVerified(userID: UserID, at time: Timestamp?) async throws -> Bool {
        try await write { (txn, layout, path) throws(AccountError) -> Bool in
            guard var user = try Self.user(id: userID.rawValue, txn, layout, path) else { return false }
            user.emailVerifiedAt = time
            try txn.put(layout.users, Array(userID.rawValue.utf8), LMDBRecordCodec.encode(user))
            return true
        }
    }

    // MARK: Refresh families

    public func rotateSession(
        tokenHash: String, to renewed: SessionRecord, ifPasswordHashIs passwordHash: String, at: Timestamp
    ) async throws -> Bool {
        try await write { (txn, layout, path) throws(AccountError) -> Bool in
            guard let bytes = try txn.get(layout.sessions, Array(tokenHash.utf8)) else { return false }
            let old = try LMDBRecordCodec.decodeSession(tokenHash: tokenHash, bytes, path: path)
            guard try Self.user(id: old.userID.rawValue, txn, layout, path)?.passwordHash == passwordHash else {
                return false
            }
            try Self.deleteSession(tokenHash, userID: old.userID.rawValue, txn, layout)
            guard try Self.putSession(renewed, txn, layout) else { throw .sessionAlreadyStored(of: renewed.userID) }
            let token = RotatedToken(
                tokenHash: tokenHash, userID: old.userID, family: old.family, rotatedAt: at, expiresAt: old.expiresAt)
            try txn.put(layout.rotated, Array(tokenHash.utf8), LMDBRecordCodec.encode(token))
            try txn.put(layout.userRotated, LMDBLayout.pair(old.userID.rawValue, tokenHash), [])
            return true
        }
    }

    public func rotatedToken(tokenHash: String) async throws -> RotatedToken? {
        try await read { (txn, layout, path) throws(AccountError) -> RotatedToken? in
            guard let bytes = try txn.get(layout.rotated, Array(tokenHash.utf8)) else { return nil }
            return try LMDBRecordCodec.decodeRotated(tokenHash: tokenHash, bytes, path: path)
        }
    }

    public func revokeFamily(_ family: String, userID: UserID) async throws -> Int {
        try await write { (txn, layout, path) throws(AccountError) -> Int in
            var revoked = 0
            for tokenHash in try Self.sessionHashes(of: userID.rawValue, txn, layout) {
                guard let bytes = try txn.get(layout.sessions, Array(tokenHash.utf8)),
                    try LMDBRecordCodec.decodeSession(tokenHash: tokenHash, bytes, path: path).family == family
                else { continue }
                try Self.deleteSession(tokenHash, userID: userID.rawValue, txn, layout)
                revoked += 1
            }
            return revoked
        }
    }

    public func purgeExpiredFlowRecords(at now: Timestamp) async throws -> Int {
        try await write { (txn, layout, path) throws(AccountError) -> Int in
            // Collected first, deleted after: a scan does not delete under itself.
            var tokens: [RotatedToken] = []
            try txn.scan(layout.rotated, from: nil) { (key, value) throws(AccountError) -> Bool in
                let token = try LMDBRecordCodec.decodeRotated(
                    tokenHash: String(decoding: key, as: UTF8.self), value, path: path)
                if token.expiresAt <= now { tokens.append(token) }
                return true
            }
            var codes: [OneTimeCode] = []
            try txn.scan(layout.codes, from: nil) { (key, value) throws(AccountError) -> Bool in
                let code = try LMDBRecordCodec.decodeCode(hash: String(decoding: key, as: UTF8.self), value, path: path)
                if code.expiresAt <= now { codes.append(code) }
                return true
            }
            for token in tokens {
                try txn.delete(layout.rotated, Array(token.tokenHash.utf8))
                try txn.delete(layout.userRotated, LMDBLayout.pair(token.userID.rawValue, token.tokenHash))
            }
            for code in codes {
                try Self.deleteCode(userID: code.userID.rawValue, purpose: code.purpose.rawValue, txn, layout)
            }
            return tokens.count + codes.count
        }
    }

    // MARK: One-time codes

    public func replaceCode(_ code: OneTimeCode) async throws -> Bool {
        try await write { (txn, layout, path) throws(AccountError) -> Bool in
            guard try txn.get(layout.users, Array(code.userID.rawValue.utf8)) != nil else { return false }
            if let bytes = try txn.get(layout.codes, Array(code.codeHash.utf8)) {
                let held = try LMDBRecordCodec.decodeCode(hash: code.codeHash, bytes, path: path)
                guard held.userID == code.userID, held.purpose == code.purpose else {
                    throw .storeIO(detail: "a code with this hash is stored for another user or purpose")
                }
            }
            try Self.deleteCode(userID: code.userID.rawValue, purpose: code.purpose.rawValue, txn, layout)
            try txn.put(layout.codes, Array(code.codeHash.utf8), LMDBRecordCodec.encode(code))
            try txn.put(
                layout.userCodes, LMDBLayout.pair(code.userID.rawValue, code.purpose.rawValue),
                Array(code.codeHash.utf8))
            return true
        }
    }

    public func code(hash: String) async throws -> OneTimeCode? {
        try await read { (txn, layout, path) throws(AccountError) -> OneTimeCode? in
            guard let bytes = try txn.get(layout.codes, Array(hash.utf8)) else { return nil }
            return try LMDBRecordCodec.decodeCode(hash: hash, bytes, path: path)
        }
    }

    public func takeCode(hash: String) async throws -> OneTimeCode? {
        try await write { (txn, layout, path) throws(AccountError) -> OneTimeCode? in
            guard let bytes = try txn.get(layout.codes, Array(hash.utf8)) else { return nil }
            let code = try LMDBRecordCodec.decodeCode(hash: hash, bytes, path: path)
            try Self.deleteCode(userID: code.userID.rawValue, purpose: code.purpose.rawValue, txn, layout)
            return code
        }
    }

    /// Deletes the user's code of `purpose`, if any, and its index entry.
    private static func deleteCode(userID: String, purpose: String, _ txn: LMDBTransaction, _ layout: LMDBLayout)
        throws(AccountError)
    {
        let key = LMDBLayout.pair(userID, purpose)
        guard let hash = try txn.get(layout.userCodes, key) else { return }
        try txn.delete(layout.codes, hash)
        try txn.delete(layout.userCodes, key)
    }

    // MARK: Outbox

    public func enqueueMail(_ mail: OutboxMail) async throws {
        try await write { (txn, layout, _) throws(AccountError) in
            guard try txn.put(layout.outbox, Array(mail.id.utf8), LMDBRecordCodec.encode(mail), unique: true) else {
                throw .storeIO(detail: "a mail with id \(mail.id) is stored already")
            }
        }
    }

    public func dueMail(at: Timestamp, limit: Int) async throws -> [OutboxMail] {
        try await read { (txn, layout, path) throws(AccountError) -> [OutboxMail] in
            // The outbox is short (mail waits only while the relay is away): read whole.
            var due: [OutboxMail] = []
            try txn.scan(layout.outbox, from: nil) { (key, value) throws(AccountError) -> Bool in
                let mail = try LMDBRecordCodec.decodeMail(id: String(decoding: key, as: UTF8.self), value, path: path)
                if mail.notBefore <= at { due.append(mail) }
                return true
            }
            return Array(due.sorted { ($0.notBefore, $0.id) < ($1.notBefore, $1.id) }.prefix(max(0, limit)))
        }
    }

    public func leaseMail(id: String, from expected: Timestamp, until: Timestamp) async throws -> Bool {
        try await changeMail(id) { mail in
            guard mail.notBefore == expected else { return false }
            mail.notBefore = until
            return true
        }
    }

    public func rescheduleMail(id: String, attempts: Int, notBefore: Timestamp, lastError: String?) async throws
        -> Bool
    {
        try await changeMail(id) { mail in
            (mail.attempts, mail.notBefore, mail.lastError) = (attempts, notBefore, lastError)
            return true
        }
    }

    /// Reads, changes (when `change` says so) and writes one mail; `false` when it is not there.
    private func changeMail(_ id: String, _ change: @escaping @Sendable (inout OutboxMail) -> Bool) async throws
        -> Bool
    {
        try await write { (txn, layout, path) throws(AccountError) -> Bool in
            guard let bytes = try txn.get(layout.outbox, Array(id.utf8)) else { return false }
            var mail = try LMDBRecordCodec.decodeMail(id: id, bytes, path: path)
            guard change(&mail) else { return false }
            try txn.put(layout.outbox, Array(id.utf8), LMDBRecordCodec.encode(mail))
            return true
        }
    }

    public func deleteMail(id: String) async throws -> Bool {
        try await write { (txn, layout, _) throws(AccountError) -> Bool in
            try txn.delete(layout.outbox, Array(id.utf8))
        }
    }

    public func outboxSummary() async throws -> OutboxSummary {
        try await read { (txn, layout, path) throws(AccountError) -> OutboxSummary in
            var summary = OutboxSummary(queued: 0, failing: 0, oldest: nil)
            try txn.scan(layout.outbox, from: nil) { (key, value) throws(AccountError) -> Bool in
                let mail = try LMDBRecordCodec.decodeMail(id: String(decoding: key, as: UTF8.self), value, path: path)
                summary.queued += 1
                if mail.attempts > 0 { summary.failing += 1 }
                summary.oldest = min(summary.oldest ?? mail.createdAt, mail.createdAt)
                return true
            }
            return summary
        }
    }

    // MARK: Provider identities

    public func linkIdentity(_ identity: ProviderIdentity) async throws -> Bool {
        try await write { (txn, layout, _) throws(AccountError) -> Bool in
            guard try txn.get(layout.users, Array(identity.userID.rawValue.utf8)) != nil else { return false }
            let key = LMDBLayout.pair(identity.provider, identity.subject)
            guard try txn.put(layout.identities, key, LMDBRecordCodec.encode(identity), unique: true) else {
                throw .identityTaken
            }
            try txn.put(
                layout.userIdentities, Array(identity.userID.rawValue.utf8) + [0] + key, [])
            return true
        }
    }

    public func identity(provider: String, subject: String) async throws -> ProviderIdentity? {
        try await read { (txn, layout, path) throws(AccountError) -> ProviderIdentity? in
            guard let bytes = try txn.get(layout.identities, LMDBLayout.pair(provider, subject)) else { return nil }
            return try LMDBRecordCodec.decodeIdentity(provider: provider, subject: subject, bytes, path: path)
        }
    }

    public func identities(userID: UserID) async throws -> [ProviderIdentity] {
        try await read { (txn, layout, path) throws(AccountError) -> [ProviderIdentity] in
            try Self.suffixes(of: userID.rawValue, in: layout.userIdentities, txn).map {
                (key) throws(AccountError) -> ProviderIdentity in
                let parts = key.split(separator: "\u{0}", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2, let bytes = try txn.get(layout.identities, Array(key.utf8)) else {
                    throw .storeCorrupted(detail: "\(path): the identity index points at a missing identity")
                }
                return try LMDBRecordCodec.decodeIdentity(
                    provider: String(parts[0]), subject: String(parts[1]), bytes, path: path)
            }
        }
    }

    public func unlinkIdentity(provider: String, subject: String, userID: UserID) async throws -> Bool {
        try await write { (txn, layout, path) throws(AccountError) -> Bool in
            let key = LMDBLayout.pair(provider, subject)
            guard let bytes = try txn.get(layout.identities, key),
                try LMDBRecordCodec.decodeIdentity(provider: provider, subject: subject, bytes, path: path).userID
                    == userID
            else { return false }
            try txn.delete(layout.identities, key)
            try txn.delete(layout.userIdentities, Array(userID.rawValue.utf8) + [0] + key)
            return true
        }
    }

    /// What follows `owner` NUL in the keys of `index` that start so, in key order.
    private static func suffixes(of owner: String, in index: MDB_dbi, _ txn: LMDBTransaction) throws(AccountError)
        -> [String]
    {
        let prefix = Array(owner.utf8) + [0]
        var found: [String] = []
        try txn.scan(index, from: prefix) { (key, _) throws(AccountError) in
            guard key.starts(with: prefix) else { return false }
            found.append(String(decoding: key[prefix.count...], as: UTF8.self))
            return true
        }
        return found
    }

    public func storeValue(forKey key: String) async throws -> String? {
        try await read { (txn, layout, path) throws(AccountError) -> String? in
            guard let bytes = try txn.get(layout.values, Array(key.utf8)) else { return nil }
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw .storeCorrupted(detail: "\(path): the value under '\(VisibleText.escaping(key))' is not UTF-8")
            }
            return text
        }
    }

    public func setStoreValue(_ value: String?, forKey key: String) async throws {
        try await write { (txn, layout, _) throws(AccountError) in
            if let value {
                try txn.put(layout.values, Array(key.utf8), Array(value.utf8))
            } else {
                _ = try txn.delete(layout.values, Array(key.utf8))
            }
        }
    }

    public func recordLoginFailure(userID: UserID, at time: Timestamp) async throws -> Int? {
        try await write { (txn, layout, path) throws(AccountError) -> Int? in
            guard var user = try Self.user(id: userID.rawValue, txn, layout, path) else { return nil }
            user.failedLoginCount += 1
            user.lastFailedLoginAt = time
            try txn.put(layout.users, Array(userID.rawValue.utf8), LMDBRecordCodec.encode(user))
            return user.failedLoginCount
        }
    }

    public func resetLoginFailures(userID: UserID) async throws {
        try await write { (txn, layout, path) throws(AccountError) in
            guard var user = try Self.user(id: userID.rawValue, txn, layout, path),
                user.failedLoginCount != 0 || user.lastFailedLoginAt != nil
            else { return }
            user.failedLoginCount = 0
            user.lastFailedLoginAt = nil
            try txn.put(layout.users, Array(userID.rawValue.utf8), LMDBRecordCodec.encode(user))
        }
    }

    public func deleteUser(id: UserID) async throws -> Bool {
        try await write { (txn, layout, path) throws(AccountError) -> Bool in
            // User, email index and every session go in one transaction.
            guard let user = try Self.user(id: id.rawValue, txn, layout, path) else { return false }
            for tokenHash in try Self.sessionHashes(of: id.rawValue, txn, layout) {
                try Self.deleteSession(tokenHash, userID: id.rawValue, txn, layout)
            }
            for tokenHash in try Self.suffixes(of: id.rawValue, in: layout.userRotated, txn) {
                try txn.delete(layout.rotated, Array(tokenHash.utf8))
                try txn.delete(layout.userRotated, LMDBLayout.pair(id.rawValue, tokenHash))
            }
            for purpose in try Self.suffixes(of: id.rawValue, in: layout.userCodes, txn) {
                try Self.deleteCode(userID: id.rawValue, purpose: purpose, txn, layout)
            }
            for key in try Self.suffixes(of: id.rawValue, in: layout.userIdentities, txn) {
                try txn.delete(layout.identities, Array(key.utf8))
                try txn.delete(layout.userIdentities, LMDBLayout.pair(id.rawValue, key))
            }
            try txn.delete(layout.emails, Array(user.email.utf8))
            try txn.delete(layout.users, Array(id.rawValue.utf8))
            // Its number leaves the index, not `last_user_number`: it is never given again.
            if let number = user.number { try txn.delete(layout.numbers, LMDBRecordCodec.numberKey(number)) }
            return true
        }
    }

    public func createSession(_ session: SessionRecord, ifPasswordHashIs passwordHash: String) async throws -> Bool {
        try await write { (txn, layout, path) throws(AccountError) -> Bool in
            // Read in the write transaction: a password change's is another, before or after.
            let user = try Self.user(id: session.userID.rawValue, txn, layout, path)
            guard user?.passwordHash == passwordHash else { return false }
            guard try Self.putSession(session, txn, layout) else {
                throw .sessionAlreadyStored(of: session.userID)
            }
            return true
        }
    }

    public func session(tokenHash: String) async throws -> SessionRecord? {
        try await read { (txn, layout, path) throws(AccountError) -> SessionRecord? in
            try txn.withValue(layout.sessions, key: tokenHash) { (record) throws(AccountError) -> SessionRecord in
                try LMDBRecordCodec.decodeSession(tokenHash: tokenHash, record, path: path)
            }
        }
    }

    /// Both reads in one read transaction.
    public func signedIn(tokenHash: String) async throws -> (session: SessionRecord, user: UserRecord?)? {
        try await read { (txn, layout, path) throws(AccountError) -> (session: SessionRecord, user: UserRecord?)? in
            let found = try txn.withValue(layout.sessions, key: tokenHash) {
                (record) throws(AccountError) -> SessionRecord in
                try LMDBRecordCodec.decodeSession(tokenHash: tokenHash, record, path: path)
            }
            guard let session = found else { return nil }
            return (session, try Self.user(id: session.userID.rawValue, txn, layout, path))
        }
    }

    public func sessions(userID: UserID) async throws -> [SessionRecord] {
        try await read { (txn, layout, path) throws(AccountError) -> [SessionRecord] in
            try Self.sessionHashes(of: userID.rawValue, txn, layout).map { (tokenHash) throws(AccountError) in
                guard let bytes = try txn.get(layout.sessions, Array(tokenHash.utf8)) else {
                    throw .storeCorrupted(detail: "\(path): the session index points at a missing session")
                }
                return try LMDBRecordCodec.decodeSession(tokenHash: tokenHash, bytes, path: path)
            }
        }
    }

    public func touchSession(tokenHash: String, lastSeenAt: Timestamp) async throws {
        try await write { (txn, layout, path) throws(AccountError) in
            guard let bytes = try txn.get(layout.sessions, Array(tokenHash.utf8)) else { return }
            var session = try LMDBRecordCodec.decodeSession(tokenHash: tokenHash, bytes, path: path)
            guard session.lastSeenAt < lastSeenAt else { return }
            session.lastSeenAt = lastSeenAt
            try txn.put(layout.sessions, Array(tokenHash.utf8), LMDBRecordCodec.encode(session))
        }
    }

    public func deleteSession(tokenHash: String) async throws -> Bool {
        try await write { (txn, layout, path) throws(AccountError) -> Bool in
            guard let bytes = try txn.get(layout.sessions, Array(tokenHash.utf8)) else { return false }
            let session = try LMDBRecordCodec.decodeSession(tokenHash: tokenHash, bytes, path: path)
            try Self.deleteSession(tokenHash, userID: session.userID.rawValue, txn, layout)
            return true
        }
    }

    public func deleteOrphanedSessions() async throws -> Int {
        try await write { (txn, layout, path) throws(AccountError) -> Int in
            var orphans: [(tokenHash: String, userID: String)] = []
            try txn.scan(layout.sessions, from: nil) { (key, value) throws(AccountError) in
                let tokenHash = String(decoding: key, as: UTF8.self)
                let session = try LMDBRecordCodec.decodeSession(tokenHash: tokenHash, value, path: path)
                if try txn.get(layout.users, Array(session.userID.rawValue.utf8)) == nil {
                    orphans.append((tokenHash, session.userID.rawValue))
                }
                return true
            }
            for orphan in orphans { try Self.deleteSession(orphan.tokenHash, userID: orphan.userID, txn, layout) }
            return orphans.count
        }
    }

    /// Gives back this repository's share of the process's environment for the store; the last
    /// one closes it, after the transaction in progress. A call made after that (one that lost a
    /// race with a server's stop) is refused with `storeIO`, never run on the closed handle;
    /// while another repository of this process keeps the store open, such a call still runs.
    public func close() async throws {
        await io.run { [self] in
            guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
            environment.release()
        }
    }

    deinit {
        if !closed.load(ordering: .acquiring) { environment.release() }
    }

    // MARK: - Helpers (inside a transaction)

    private typealias Body<T> = @Sendable (LMDBTransaction, LMDBLayout, String) throws(AccountError) -> T

    /// Reads run on the caller's thread, in the environment's reused read transaction, so a lookup
    /// costs microseconds instead of a thread hop. Writers of other processes never hold a read
    /// up, but a write of this process does: the environment's one lock (which makes growing the
    /// map safe) is held through the write's commit and its fsync, so an in-process read can
    /// wait that long on a cooperative thread — a durable commit, about a millisecond on an SSD.
    private func read<T: Sendable>(_ body: Body<T>) async throws -> T {
        try environment.read { (txn) throws(AccountError) -> T in try body(txn, environment.layout, path) }
    }

    /// Uncontended, a write runs right here on the caller's thread: two thread hops cost a
    /// good part of a durable commit. When another call of this process is using the
    /// environment it queues on `io` instead, so waiting for it never pins a cooperative thread.
    /// (Another process's write transaction can still make the in-place one wait: LMDB has no
    /// way to ask whether its writer lock is free, and its transactions are short.)
    private func write<T: Sendable>(_ body: @escaping Body<T>) async throws -> T {
        let layout = environment.layout
        if let result = try environment.writeIfFree({ (txn) throws(AccountError) -> T in try body(txn, layout, path) })
        {
            return result
        }
        return try await io.run { [environment, path] in
            try environment.write { (txn) throws(AccountError) -> T in try body(txn, environment.layout, path) }
        }
    }

    private static func user(id: String, _ txn: LMDBTransaction, _ layout: LMDBLayout, _ path: String)
        throws(AccountError) -> UserRecord?
    {
        try txn.withValue(layout.users, key: id) { (record) throws(AccountError) -> UserRecord in
            try LMDBRecordCodec.decodeUser(id: UserID(rawValue: id), record, path: path)
        }
    }

    /// Puts a new user (its email already indexed) with its number: its own when given and free,
    /// else one past the highest ever given; `last_user_number` rises to it. Returns the number.
    @discardableResult
    private static func putUser(_ user: UserRecord, _ txn: LMDBTransaction, _ layout: LMDBLayout)
        throws(AccountError) -> Int
    {
        let last = try lastUserNumber(txn, layout)
        var numbered = user
        let number = user.number ?? last + 1
        numbered.number = number
        guard number > 0,
            try txn.put(layout.numbers, LMDBRecordCodec.numberKey(number), Array(user.id.rawValue.utf8), unique: true)
        else { throw .userNumberInUse(number) }
        if number > last { try txn.put(layout.meta, LMDBLayout.lastUserNumberKey, Array(String(number).utf8)) }
        try txn.put(layout.users, Array(user.id.rawValue.utf8), LMDBRecordCodec.encode(numbered))
        return number
    }

    /// The highest user number ever given.
    static func lastUserNumber(_ txn: LMDBTransaction, _ layout: LMDBLayout) throws(AccountError) -> Int {
        guard let bytes = try txn.get(layout.meta, LMDBLayout.lastUserNumberKey),
            let last = Int(String(decoding: bytes, as: UTF8.self)), last >= 0
        else { throw .storeCorrupted(detail: "\(txn.path): last_user_number is missing or not a number") }
        return last
    }

    /// Puts a session and its entry in its user's index, unless its token hash is already
    /// stored: then nothing is put and `false` returned, as overwriting would hand that session
    /// to another user.
    private static func putSession(
        _ session: SessionRecord, _ txn: LMDBTransaction, _ layout: LMDBLayout
    ) throws(AccountError) -> Bool {
        guard
            try txn.put(layout.sessions, Array(session.tokenHash.utf8), LMDBRecordCodec.encode(session), unique: true)
        else { return false }
        try txn.put(layout.userSessions, LMDBLayout.userSessionKey(session.userID.rawValue, session.tokenHash), [])
        return true
    }

    private static func deleteSession(_ tokenHash: String, userID: String, _ txn: LMDBTransaction, _ layout: LMDBLayout)
        throws(AccountError)
    {
        try txn.delete(layout.sessions, Array(tokenHash.utf8))
        try txn.delete(layout.userSessions, LMDBLayout.userSessionKey(userID, tokenHash))
    }

    /// The token hashes of a user's sessions, in ascending order.
    private static func sessionHashes(of userID: String, _ txn: LMDBTransaction, _ layout: LMDBLayout)
        throws(AccountError) -> [String]
    {
        let prefix = LMDBLayout.userSessionPrefix(userID)
        var hashes: [String] = []
        try txn.scan(layout.userSessions, from: prefix) { (key, _) throws(AccountError) in
            guard key.starts(with: prefix) else { return false }
            hashes.append(String(decoding: key[prefix.count...], as: UTF8.self))
            return true
        }
        return hashes
    }
}
