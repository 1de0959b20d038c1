import AccountCore
import Synchronization

/// A `UserRepository` in an append-only journal: a header line, then one JSON line per
/// transaction. Each call replays what other writers appended since it last looked, checks the
/// change against that state, appends it as one line and flushes it, all under the file's lock.
///
/// Calls do blocking file I/O on the caller's thread (a journal append is one `pwrite` and one
/// `fdatasync`). The journal is never compacted: fine for an example, not for a million users.
public final class JournalRepository: UserRepository {
    private struct Cache {
        var state = JournalState()
        /// Where the last complete line read so far ends.
        var offset = 0
        var info: StoreInfo?
    }

    private let file: JournalFile
    /// Serialises this instance's calls: `flock` excludes other descriptors, not other threads
    /// sharing this one.
    private let cache = Mutex(Cache())

    init(file: JournalFile) {
        self.file = file
    }

    // MARK: - Reading and writing under the lock

    /// Brings the cache up to date with the file. Under an exclusive lock a torn last line (a
    /// writer that crashed mid-append) is cut off; under a shared lock it is only skipped.
    private static func catchUp(_ cache: inout Cache, _ file: JournalFile) throws(AccountError) {
        let bytes = try file.bytes(from: cache.offset)
        var lineStart = 0
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x0A {
                let line = bytes[lineStart..<index]
                if cache.offset == 0 && lineStart == 0 {
                    guard let header = JournalCodec.decodeHeader(Array(line)) else {
                        throw .storeCorrupted(detail: "\(file.path): the journal's header line is damaged")
                    }
                    cache.info = StoreInfo(
                        formatName: header.format, formatVersion: header.formatVersion, storeID: header.storeID)
                    cache.state.requiresNumbers = header.formatVersion >= 2
                } else {
                    guard let entry = JournalCodec.decodeEntry(line) else {
                        throw .storeCorrupted(
                            detail: "\(file.path): a line at byte \(cache.offset + lineStart) is damaged")
                    }
                    do throws(JournalProblem) {
                        try cache.state.apply(entry)
                    } catch {
                        throw .storeCorrupted(
                            detail: "\(file.path): the line at byte \(cache.offset + lineStart) \(error.reason)")
                    }
                }
                lineStart = index + 1
            }
            index += 1
        }
        cache.offset += lineStart
    }

    private func read<T: Sendable>(_ body: (JournalState) throws(AccountError) -> T) throws(AccountError) -> T {
        try cache.withLock { (cache) throws(AccountError) -> T in
            try file.withLock(exclusive: false) { () throws(AccountError) -> T in
                try Self.catchUp(&cache, file)
                return try body(cache.state)
            }
        }
    }

    /// Catches up, asks `decide` for the entry to append (nil: nothing to write), applies it to
    /// a copy of the state, and only then appends and flushes it.
    private func write<T: Sendable>(
        _ decide: (JournalState) throws(AccountError) -> (JournalEntry?, T)
    ) throws(AccountError) -> T {
        try cache.withLock { (cache) throws(AccountError) -> T in
            try file.withLock(exclusive: true) { () throws(AccountError) -> T in
                try Self.catchUp(&cache, file)
                let (entry, result) = try decide(cache.state)
                guard let entry else { return result }
                var next = cache.state
                do throws(JournalProblem) {
                    try next.apply(entry)
                } catch {
                    throw .storeIO(detail: "refused an inconsistent change (\(error.reason))")
                }
                let line = JournalCodec.encode(entry) + [0x0A]
                try file.append(line, at: cache.offset)
                cache.state = next
                cache.offset += line.count
                return result
            }
        }
    }

    // MARK: - UserRepository

    public func storeInfo() async throws -> StoreInfo {
        try read { _ in () }
        guard let info = cache.withLock({ $0.info }) else {
            throw AccountError.storeCorrupted(detail: "\(file.path) has no header")
        }
        return info
    }

    @discardableResult

    public func createUser(_ user: UserRecord, initialSession: SessionRecord?) async throws -> Int {
        try write { (state) throws(AccountError) in
            guard state.user(email: user.email) == nil else { throw .emailTaken }
            guard state.user(id: user.id) == nil else { throw .userIDInUse(user.id) }
            var numbered = user
            numbered.number = try state.number(for: user)
            if let initialSession { try Self.refuseStored(initialSession, in: state) }
            return (JournalEntry(putUsers: [numbered], putSessions: initialSession.map { [$0] }), numbered.number ?? 0)
        }
    }

    /// The whole batch, users and their sessions, is one journal line: all of it or none.
    public func createUsers(_ users: [UserRecord], sessions: [SessionRecord]) async throws -> [String] {
        try write { (state) throws(AccountError) in
            var taken = Set(state.sortedEmails())
            var accepted: [UserRecord] = []
            var acceptedIDs: Set<UserID> = []
            var skipped: [String] = []
            for user in users {
                if taken.contains(user.email) {
                    skipped.append(user.email)
                    continue
                }
                guard state.user(id: user.id) == nil, !acceptedIDs.contains(user.id) else {
                    throw .userIDInUse(user.id)
                }
                taken.insert(user.email)
                acceptedIDs.insert(user.id)
                accepted.append(user)
            }
            // Given numbers first, so that the users without one come after all of them.
            var numbers: Set<Int> = []
            for given in [true, false] {
                for index in accepted.indices where (accepted[index].number != nil) == given {
                    let number = try state.number(for: accepted[index], besides: numbers)
                    accepted[index].number = number
                    numbers.insert(number)
                }
            }
            var theirSessions: [SessionRecord] = []
            var hashes: Set<String> = []
            for session in sessions where acceptedIDs.contains(session.userID) {
                try Self.refuseStored(session, in: state)
                guard hashes.insert(session.tokenHash).inserted else { throw .sessionAlreadyStored(of: session.userID) }
                theirSessions.append(session)
            }
            guard !accepted.isEmpty else { return (nil, skipped) }
            return (JournalEntry(putUsers: accepted, putSessions: theirSessions.isEmpty ? nil : theirSessions), skipped)
        }
    }

    public func lastUserNumber() async throws -> Int {
        try read { $0.lastUserNumber }
    }

    public func raiseLastUserNumber(to number: Int) async throws {
        try write { state in (number > state.lastUserNumber ? JournalEntry(lastUserNumber: number) : nil, ()) }
    }

    public func user(email: String) async throws -> UserRecord? {
        try read { $0.user(email: email) }
    }

    public func user(id: UserID) async throws -> UserRecord? {
        try read { $0.user(id: id) }
    }

    public func userCount() async throws -> Int {
        try read { $0.usersByID.count }
    }

    public func users(after email: String?, limit: Int) async throws -> [UserRecord] {
        try read { state in
            let emails = state.sortedEmails().filter { email == nil || email!.utf8.lexicographicallyPrecedes($0.utf8) }
            return emails.prefix(max(0, limit)).compactMap { state.user(email: $0) }
        }
    }

    public func updatePassword(
        userID: UserID, passwordHash: String, changedAt: Timestamp, revoking: SessionRevocation,
        ifPasswordHashIs expected: String?
    ) async throws -> Bool {
        try write { state in
            guard var user = state.user(id: userID), expected.map({ $0 == user.passwordHash }) ?? true else {
                return (nil, false)
            }
            user.passwordHash = passwordHash
            user.passwordChangedAt = changedAt
            user.mustChangePassword = false
            let revoked =
                revoking.revokesSessions
                ? state.sessions(of: userID).map(\.tokenHash).filter { $0 != revoking.keptTokenHash } : []
            var entry = JournalEntry(deleteSessions: revoked, putUsers: [user])
            let resetCodes = state.codes(of: userID, purpose: .passwordReset)
            entry.deleteCodes = resetCodes.isEmpty ? nil : resetCodes
            return (entry, true)
        }
    }

    public func setBlocked(userID: UserID, _ blocked: Bool) async throws -> Bool {
        try write { state in
            guard var user = state.user(id: userID) else { return (nil, false) }
            user.isBlocked = blocked
            let revoked = blocked ? state.sessions(of: userID).map(\.tokenHash) : []
            return (JournalEntry(deleteSessions: revoked, putUsers: [user]), true)
        }
    }

    public func setEmailVerified(userID: UserID, at time: Timestamp?) async throws -> Bool {
        try write { state in
            guard var user = state.user(id: userID) else { return (nil, false) }
            user.emailVerifiedAt = time
            return (JournalEntry(putUsers: [user]), true)
        }
    }

    public func storeValue(forKey key: String) async throws -> String? {
        try read { state in state.values[key] }
    }

    public func setStoreValue(_ value: String?, forKey key: String) async throws {
        try write { state in
            guard state.values[key] != value else { return (nil, ()) }
            return (JournalEntry(values: [key: value]), ())
        }
    }

    public func recordLoginFailure(userID: UserID, at time: Timestamp) async throws -> Int? {
        try write { state in
            guard var user = state.user(id: userID) else { return (nil, nil) }
            user.failedLoginCount += 1
            user.lastFailedLoginAt = time
            return (JournalEntry(putUsers: [user]), user.failedLoginCount)
        }
    }

    public func resetLoginFailures(userID: UserID) async throws {
        try write { state in
            guard var user = state.user(id: userID), user.failedLoginCount != 0 || user.lastFailedLoginAt != nil
            else { return (nil, ()) }
            user.failedLoginCount = 0
            user.lastFailedLoginAt = nil
            return (JournalEntry(putUsers: [user]), ())
        }
    }

    public func deleteUser(id: UserID) async throws -> Bool {
        try write { state in
            guard state.user(id: id) != nil else { return (nil, false) }
            return (JournalEntry(deleteUsers: [id]), true)
        }
    }

    public func createSession(_ session: SessionRecord, ifPasswordHashIs passwordHash: String) async throws -> Bool {
        try write { (state) throws(AccountError) in
            guard state.user(id: session.userID)?.passwordHash == passwordHash else { return (nil, false) }
            try Self.refuseStored(session, in: state)
            return (JournalEntry(putSessions: [session]), true)
        }
    }

    /// Overwriting a stored token hash would hand that session to another user.
    private static func refuseStored(_ session: SessionRecord, in state: JournalState) throws(AccountError) {
        guard state.sessionsByHash[session.tokenHash] == nil else { throw .sessionAlreadyStored(of: session.userID) }
    }

    public func session(tokenHash: String) async throws -> SessionRecord? {
        try read { $0.sessionsByHash[tokenHash] }
    }

    public func sessions(userID: UserID) async throws -> [SessionRecord] {
        try read { $0.sessions(of: userID) }
    }

    public func touchSession(tokenHash: String, lastSeenAt: Timestamp) async throws {
        try write { state in
            guard var session = state.sessionsByHash[tokenHash], lastSeenAt > session.lastSeenAt else {
                return (nil, ())
            }
            session.lastSeenAt = lastSeenAt
            return (JournalEntry(putSessions: [session]), ())
        }
    }

    public func deleteSession(tokenHash: String) async throws -> Bool {
        try write { state in
            guard state.sessionsByHash[tokenHash] != nil else { return (nil, false) }
            return (JournalEntry(deleteSessions: [tokenHash]), true)
        }
    }

    /// Replays the whole journal from its first byte into a fresh state: every line must decode
    /// and keep the rules (unique emails, sessions of existing users).
    public func integrityCheck() async throws -> [String] {
        try file.withLock(exclusive: false) { () throws(AccountError) -> [String] in
            var fresh = Cache()
            do throws(AccountError) {
                try Self.catchUp(&fresh, file)
            } catch {
                if case .storeCorrupted(let detail) = error { return [detail.description] }
                throw error
            }
            return fresh.info == nil ? ["no header line"] : ["ok"]
        }
    }

    /// A journal cannot hold one (replaying a session without its user is damage), so this finds
    /// none in a readable journal; it is here because the contract asks every backend.
    public func deleteOrphanedSessions() async throws -> Int {
        try write { state in
            let orphans = state.sessionsByHash.values.filter { state.user(id: $0.userID) == nil }.map(\.tokenHash)
            return (orphans.isEmpty ? nil : JournalEntry(deleteSessions: orphans), orphans.count)
        }
    }

    // MARK: Refresh families

    public func rotateSession(
        tokenHash: String, to renewed: SessionRecord, ifPasswordHashIs passwordHash: String, at time: Timestamp
    ) async throws -> Bool {
        try write { (state) throws(AccountError) in
            guard let old = state.sessionsByHash[tokenHash], state.user(id: old.userID)?.passwordHash == passwordHash
            else { return (nil, false) }
            try Self.refuseStored(renewed, in: state)
            let token = RotatedToken(
                tokenHash: tokenHash, userID: old.userID, family: old.family, rotatedAt: time, expiresAt: old.expiresAt)
            var entry = JournalEntry(deleteSessions: [tokenHash], putSessions: [renewed])
            entry.putRotated = [token]
            return (entry, true)
        }
    }

    public func rotatedToken(tokenHash: String) async throws -> RotatedToken? {
        try read { $0.rotated[tokenHash] }
    }

    public func revokeFamily(_ family: String, userID: UserID) async throws -> Int {
        try write { state in
            let doomed = state.sessions(of: userID).filter { $0.family == family }.count
            var entry = JournalEntry()
            entry.revokeFamilies = [FamilyOfUser(family: family, userID: userID)]
            return (doomed == 0 ? nil : entry, doomed)
        }
    }

    public func purgeExpiredFlowRecords(at now: Timestamp) async throws -> Int {
        try write { state in
            var entry = JournalEntry()
            entry.deleteRotated = state.rotated.values.filter { $0.expiresAt <= now }.map(\.tokenHash).sorted()
            entry.deleteCodes = state.codes.values.filter { $0.expiresAt <= now }.map(\.codeHash).sorted()
            let purged = entry.deleteRotated!.count + entry.deleteCodes!.count
            return (purged == 0 ? nil : entry, purged)
        }
    }

    // MARK: One-time codes

    public func replaceCode(_ code: OneTimeCode) async throws -> Bool {
        try write { (state) throws(AccountError) in
            guard state.user(id: code.userID) != nil else { return (nil, false) }
            if let held = state.codes[code.codeHash], held.userID != code.userID || held.purpose != code.purpose {
                throw .storeIO(detail: "a code with this hash is stored for another user or purpose")
            }
            var entry = JournalEntry()
            entry.deleteCodes = state.codes(of: code.userID, purpose: code.purpose)
            entry.putCodes = [code]
            return (entry, true)
        }
    }

    public func code(hash: String) async throws -> OneTimeCode? {
        try read { $0.codes[hash] }
    }

    public func takeCode(hash: String) async throws -> OneTimeCode? {
        try write { state in
            guard let code = state.codes[hash] else { return (nil, nil) }
            var entry = JournalEntry()
            entry.deleteCodes = [hash]
            return (entry, code)
        }
    }

    // MARK: Outbox

    public func enqueueMail(_ mail: OutboxMail) async throws {
        try write { (state) throws(AccountError) in
            guard state.outbox[mail.id] == nil else {
                throw .storeIO(detail: "a mail with id \(mail.id) is stored already")
            }
            var entry = JournalEntry()
            entry.putMail = [mail]
            return (entry, ())
        }
    }

    public func dueMail(at time: Timestamp, limit: Int) async throws -> [OutboxMail] {
        try read { state in
            Array(
                state.outbox.values.filter { $0.notBefore <= time }
                    .sorted { ($0.notBefore, $0.id) < ($1.notBefore, $1.id) }.prefix(max(0, limit)))
        }
    }

    public func leaseMail(id: String, from expected: Timestamp, until: Timestamp) async throws -> Bool {
        try changeMail(id) { mail in
            guard mail.notBefore == expected else { return false }
            mail.notBefore = until
            return true
        }
    }

    public func rescheduleMail(id: String, attempts: Int, notBefore: Timestamp, lastError: String?) async throws
        -> Bool
    {
        try changeMail(id) { mail in
            mail.attempts = attempts
            mail.notBefore = notBefore
            mail.lastError = lastError
            return true
        }
    }

    /// Writes the mail `id` as `change` leaves it, when it is queued and `change` says so.
    private func changeMail(_ id: String, _ change: (inout OutboxMail) -> Bool) throws(AccountError) -> Bool {
        try write { state in
            guard var mail = state.outbox[id], change(&mail) else { return (nil, false) }
            var entry = JournalEntry()
            entry.putMail = [mail]
            return (entry, true)
        }
    }

    public func deleteMail(id: String) async throws -> Bool {
        try write { state in
            guard state.outbox[id] != nil else { return (nil, false) }
            var entry = JournalEntry()
            entry.deleteMail = [id]
            return (entry, true)
        }
    }

    public func outboxSummary() async throws -> OutboxSummary {
        try read { state in
            OutboxSummary(
                queued: state.outbox.count, failing: state.outbox.values.count { $0.attempts > 0 },
                oldest: state.outbox.values.map(\.createdAt).min())
        }
    }

    // MARK: Provider identities

    public func linkIdentity(_ identity: ProviderIdentity) async throws -> Bool {
        try write { (state) throws(AccountError) in
            guard state.user(id: identity.userID) != nil else { return (nil, false) }
            guard state.identities[IdentityKey(provider: identity.provider, subject: identity.subject)] == nil else {
                throw .identityTaken
            }
            var entry = JournalEntry()
            entry.putIdentities = [identity]
            return (entry, true)
        }
    }

    public func identity(provider: String, subject: String) async throws -> ProviderIdentity? {
        try read { $0.identities[IdentityKey(provider: provider, subject: subject)] }
    }

    public func identities(userID: UserID) async throws -> [ProviderIdentity] {
        try read { state in
            state.identities.values.filter { $0.userID == userID }.sorted {
                $0.provider.utf8.lexicographicallyPrecedes($1.provider.utf8)
                    || ($0.provider == $1.provider && $0.subject.utf8.lexicographicallyPrecedes($1.subject.utf8))
            }
        }
    }

    public func unlinkIdentity(provider: String, subject: String, userID: UserID) async throws -> Bool {
        try write { state in
            let key = IdentityKey(provider: provider, subject: subject)
            guard state.identities[key]?.userID == userID else { return (nil, false) }
            var entry = JournalEntry()
            entry.deleteIdentities = [key]
            return (entry, true)
        }
    }

    public func close() async throws {}

    /// What the journal holds, replayed from its first byte; the caller holds the file's lock.
    static func replayed(_ file: JournalFile) throws(AccountError) -> JournalState {
        var fresh = Cache()
        try catchUp(&fresh, file)
        return fresh.state
    }
}
