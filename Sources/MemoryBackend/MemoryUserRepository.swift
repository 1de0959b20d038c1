public import AccountCore
import Synchronization

/// A `UserRepository` in memory: the reference backend, for applications' unit tests (as
/// Hummingbird ships `MemoryPersistDriver`). Every call is atomic under one lock, so uniqueness,
/// withdrawal and revocation hold as in the real backends; nothing reaches a disk and nothing is
/// shared between processes.
public final class MemoryUserRepository: UserRepository {
    /// The format name its `storeInfo()` reports.
    public static let formatName = "accountstore-memory"
    /// The format version its `storeInfo()` reports.
    public static let formatVersion = 1

    /// The records, with the indexes the calls need so that none scans the whole store: the
    /// emails in order for paging, a user's session digests for revoking them.
    private struct State {
        var usersByID: [UserID: UserRecord] = [:]
        var idsByEmail: [String: UserID] = [:]
        /// Every stored email, in the byte order of its UTF-8, as the other backends list them:
        /// sorted by the first listing that needs it and kept in order from then on, except by a
        /// batch, which drops it (thousands of inserts into the middle of a long array cost more
        /// than one sort at the next listing).
        var emailsInOrder: [String]?
        var sessionsByHash: [String: SessionRecord] = [:]
        var hashesByUser: [UserID: Set<String>] = [:]
        /// The numbers of the stored users, and the highest ever given (never given again).
        var numbersInUse: Set<Int> = []
        var lastNumber = 0
        var values: [String: String] = [:]
        var rotated: [String: RotatedToken] = [:]
        var codes: [String: OneTimeCode] = [:]
        var outbox: [String: OutboxMail] = [:]
        /// Identities by provider and subject (`provider` NUL `subject`).
        var identities: [String: ProviderIdentity] = [:]

        static func identityKey(_ provider: String, _ subject: String) -> String { provider + "\u{0}" + subject }

        mutating func removeCodes(of userID: UserID, purpose: OneTimeCode.Purpose? = nil) {
            for (hash, code) in codes where code.userID == userID && (purpose == nil || code.purpose == purpose) {
                codes[hash] = nil
            }
        }

        /// A taken email first, then a taken id, then a taken number: what a refusal names is
        /// the first clash.
        func refuseClash(_ user: UserRecord) throws(AccountError) {
            guard idsByEmail[user.email] == nil else { throw .emailTaken }
            guard usersByID[user.id] == nil else { throw .userIDInUse(user.id) }
            if let number = user.number, number <= 0 || numbersInUse.contains(number) {
                throw .userNumberInUse(number)
            }
        }

        /// A stored token hash: overwriting it would hand that session to another user.
        func refuseClash(_ session: SessionRecord) throws(AccountError) {
            guard sessionsByHash[session.tokenHash] == nil else { throw .sessionAlreadyStored(of: session.userID) }
        }

        /// Stores `user`, numbered with the next number unless it has one; returns its number.
        @discardableResult
        mutating func insert(_ user: UserRecord) throws(AccountError) -> Int {
            try refuseClash(user)
            var user = user
            let number = user.number ?? lastNumber + 1
            user.number = number
            lastNumber = max(lastNumber, number)
            numbersInUse.insert(number)
            usersByID[user.id] = user
            idsByEmail[user.email] = user.id
            if let index = orderIndex(of: user.email) { emailsInOrder?.insert(user.email, at: index) }
            return number
        }

        mutating func insert(_ session: SessionRecord) throws(AccountError) {
            try refuseClash(session)
            sessionsByHash[session.tokenHash] = session
            hashesByUser[session.userID, default: []].insert(session.tokenHash)
        }

        mutating func removeUser(_ id: UserID) -> Bool {
            guard let user = usersByID.removeValue(forKey: id) else { return false }
            idsByEmail[user.email] = nil
            if let number = user.number { numbersInUse.remove(number) }
            if let index = orderIndex(of: user.email), index < emailsInOrder?.count ?? 0,
                emailsInOrder?[index] == user.email
            {
                emailsInOrder?.remove(at: index)
            }
            removeSessions(of: id, except: nil)
            for (hash, token) in rotated where token.userID == id { rotated[hash] = nil }
            removeCodes(of: id)
            for (key, identity) in identities where identity.userID == id { identities[key] = nil }
            return true
        }

        mutating func removeSession(_ tokenHash: String) -> Bool {
            guard let session = sessionsByHash.removeValue(forKey: tokenHash) else { return false }
            hashesByUser[session.userID]?.remove(tokenHash)
            if hashesByUser[session.userID]?.isEmpty == true { hashesByUser[session.userID] = nil }
            return true
        }

        mutating func removeSessions(of userID: UserID, except kept: String?) {
            for hash in hashesByUser[userID] ?? [] where hash != kept { _ = removeSession(hash) }
        }

        /// Where `email` is or would go in `emailsInOrder`; nil while there is no order kept. The
        /// index is found before the caller changes the array, so that no second reference to
        /// it is alive then (one would make the change copy the whole array).
        func orderIndex(of email: String) -> Int? {
            emailsInOrder.map { emails in Self.firstIndex(in: emails) { !utf8Less($0, email) } }
        }

        /// Up to `limit` users whose emails come after `email` (all, for nil), in email order.
        mutating func users(after email: String?, limit: Int) -> [UserRecord] {
            let emails = emailsInOrder ?? idsByEmail.keys.sorted(by: utf8Less)
            emailsInOrder = emails
            let start = email.map { after in Self.firstIndex(in: emails) { utf8Less(after, $0) } } ?? 0
            return emails[start...].prefix(max(0, limit)).compactMap {
                idsByEmail[$0].flatMap { usersByID[$0] }
            }
        }

        /// The first index of the sorted `emails` where `isAtOrPast` holds, by binary search.
        static func firstIndex(in emails: [String], where isAtOrPast: (String) -> Bool) -> Int {
            var low = 0
            var high = emails.count
            while low < high {
                let middle = (low + high) / 2
                if isAtOrPast(emails[middle]) { high = middle } else { low = middle + 1 }
            }
            return low
        }
    }

    private let state = Mutex(State())
    private let info: StoreInfo

    /// A new, empty store.
    public init(storeID: String = StoreInfo.randomStoreID()) {
        info = StoreInfo(formatName: Self.formatName, formatVersion: Self.formatVersion, storeID: storeID)
    }

    public func storeInfo() async throws -> StoreInfo { info }

    @discardableResult

    public func createUser(_ user: UserRecord, initialSession: SessionRecord?) async throws -> Int {
        try state.withLock { (state) throws(AccountError) -> Int in
            // Both are checked before either is stored, so that a refusal stores neither.
            try state.refuseClash(user)
            if let initialSession { try state.refuseClash(initialSession) }
            let number = try state.insert(user)
            if let initialSession { try state.insert(initialSession) }
            return number
        }
    }

    public func createUsers(_ users: [UserRecord], sessions: [SessionRecord]) async throws -> [String] {
        try state.withLock { (state) throws(AccountError) -> [String] in
            // Every refusal is found before anything is stored, so that a refused batch stores
            // nothing, without a copy of the whole store to throw away.
            var skipped: [String] = []
            var accepted: [UserRecord] = []
            var emails: Set<String> = []
            var ids: Set<UserID> = []
            var numbers: Set<Int> = []
            for user in users {
                guard state.idsByEmail[user.email] == nil, !emails.contains(user.email) else {
                    skipped.append(user.email)
                    continue
                }
                guard state.usersByID[user.id] == nil, !ids.contains(user.id) else { throw .userIDInUse(user.id) }
                if let number = user.number {
                    guard number > 0, !state.numbersInUse.contains(number), numbers.insert(number).inserted else {
                        throw .userNumberInUse(number)
                    }
                }
                emails.insert(user.email)
                ids.insert(user.id)
                accepted.append(user)
            }
            var acceptedSessions: [SessionRecord] = []
            var hashes: Set<String> = []
            for session in sessions where ids.contains(session.userID) {
                guard state.sessionsByHash[session.tokenHash] == nil, !hashes.contains(session.tokenHash) else {
                    throw .sessionAlreadyStored(of: session.userID)
                }
                hashes.insert(session.tokenHash)
                acceptedSessions.append(session)
            }
            if !accepted.isEmpty { state.emailsInOrder = nil }
            // Users without a number come after every number the batch gives.
            state.lastNumber = max(state.lastNumber, numbers.max() ?? 0)
            for user in accepted { try state.insert(user) }
            for session in acceptedSessions { try state.insert(session) }
            return skipped
        }
    }

    public func lastUserNumber() async throws -> Int {
        state.withLock { $0.lastNumber }
    }

    public func raiseLastUserNumber(to number: Int) async throws {
        state.withLock { $0.lastNumber = max($0.lastNumber, number) }
    }

    public func user(email: String) async throws -> UserRecord? {
        state.withLock { state in state.idsByEmail[email].flatMap { state.usersByID[$0] } }
    }

    public func user(id: UserID) async throws -> UserRecord? {
        state.withLock { $0.usersByID[id] }
    }

    public func userCount() async throws -> Int {
        state.withLock { $0.usersByID.count }
    }

    public func users(after email: String?, limit: Int) async throws -> [UserRecord] {
        state.withLock { $0.users(after: email, limit: limit) }
    }

    public func updatePassword(
        userID: UserID, passwordHash: String, changedAt: Timestamp, revoking: SessionRevocation,
        ifPasswordHashIs expected: String?
    ) async throws -> Bool {
        state.withLock { state in
            guard var user = state.usersByID[userID], expected.map({ $0 == user.passwordHash }) ?? true else {
                return false
            }
            user.passwordHash = passwordHash
            user.passwordChangedAt = changedAt
            user.mustChangePassword = false
            state.usersByID[userID] = user
            state.removeCodes(of: userID, purpose: .passwordReset)
            if revoking.revokesSessions { state.removeSessions(of: userID, except: revoking.keptTokenHash) }
            return true
        }
    }

    public func setBlocked(userID: UserID, _ blocked: Bool) async throws -> Bool {
        state.withLock { state in
            guard state.usersByID[userID] != nil else { return false }
            state.usersByID[userID]?.isBlocked = blocked
            if blocked { state.removeSessions(of: userID, except: nil) }
            return true
        }
    }

    public func setEmailVerified(userID: UserID, at time: Timestamp?) async throws -> Bool {
        state.withLock { state in
            guard state.usersByID[userID] != nil else { return false }
            state.usersByID[userID]?.emailVerifiedAt = time
            return true
        }
    }

    // MARK: Refresh families

    public func rotateSession(
        tokenHash: String, to renewed: SessionRecord, ifPasswordHashIs passwordHash: String, at: Timestamp
    ) async throws -> Bool {
        try state.withLock { (state) throws(AccountError) -> Bool in
            guard let old = state.sessionsByHash[tokenHash], state.usersByID[old.userID]?.passwordHash == passwordHash
            else { return false }
            try state.refuseClash(renewed)
            _ = state.removeSession(tokenHash)
            try state.insert(renewed)
            state.rotated[tokenHash] = RotatedToken(
                tokenHash: tokenHash, userID: old.userID, family: old.family, rotatedAt: at, expiresAt: old.expiresAt)
            return true
        }
    }

    public func rotatedToken(tokenHash: String) async throws -> RotatedToken? {
        state.withLock { $0.rotated[tokenHash] }
    }

    public func revokeFamily(_ family: String, userID: UserID) async throws -> Int {
        state.withLock { state in
            let doomed = (state.hashesByUser[userID] ?? []).filter { state.sessionsByHash[$0]?.family == family }
            for hash in doomed { _ = state.removeSession(hash) }
            return doomed.count
        }
    }

    public func purgeExpiredFlowRecords(at now: Timestamp) async throws -> Int {
        state.withLock { state in
            let tokens = state.rotated.filter { $0.value.expiresAt <= now }.map(\.key)
            let codes = state.codes.filter { $0.value.expiresAt <= now }.map(\.key)
            for hash in tokens { state.rotated[hash] = nil }
            for hash in codes { state.codes[hash] = nil }
            return tokens.count + codes.count
        }
    }

    // MARK: One-time codes

    public func replaceCode(_ code: OneTimeCode) async throws -> Bool {
        try state.withLock { (state) throws(AccountError) -> Bool in
            guard state.usersByID[code.userID] != nil else { return false }
            if let held = state.codes[code.codeHash], held.userID != code.userID || held.purpose != code.purpose {
                throw AccountError.storeIO(detail: "a code with this hash is stored for another user or purpose")
            }
            state.removeCodes(of: code.userID, purpose: code.purpose)
            state.codes[code.codeHash] = code
            return true
        }
    }

    public func code(hash: String) async throws -> OneTimeCode? {
        state.withLock { $0.codes[hash] }
    }

    public func takeCode(hash: String) async throws -> OneTimeCode? {
        state.withLock { $0.codes.removeValue(forKey: hash) }
    }

    // MARK: Outbox

    public func enqueueMail(_ mail: OutboxMail) async throws {
        try state.withLock { (state) throws(AccountError) in
            guard state.outbox[mail.id] == nil else {
                throw AccountError.storeIO(detail: "a mail with id \(mail.id) is stored already")
            }
            state.outbox[mail.id] = mail
        }
    }

    public func dueMail(at: Timestamp, limit: Int) async throws -> [OutboxMail] {
        state.withLock { state in
            Array(
                state.outbox.values.filter { $0.notBefore <= at }
                    .sorted { ($0.notBefore, $0.id) < ($1.notBefore, $1.id) }.prefix(max(0, limit)))
        }
    }

    public func leaseMail(id: String, from expected: Timestamp, until: Timestamp) async throws -> Bool {
        state.withLock { state in
            guard state.outbox[id]?.notBefore == expected else { return false }
            state.outbox[id]?.notBefore = until
            return true
        }
    }

    public func rescheduleMail(id: String, attempts: Int, notBefore: Timestamp, lastError: String?) async throws
        -> Bool
    {
        state.withLock { state in
            guard state.outbox[id] != nil else { return false }
            state.outbox[id]?.attempts = attempts
            state.outbox[id]?.notBefore = notBefore
            state.outbox[id]?.lastError = lastError
            return true
        }
    }

    public func deleteMail(id: String) async throws -> Bool {
        state.withLock { $0.outbox.removeValue(forKey: id) != nil }
    }

    public func outboxSummary() async throws -> OutboxSummary {
        state.withLock { state in
            OutboxSummary(
                queued: state.outbox.count, failing: state.outbox.values.count { $0.attempts > 0 },
                oldest: state.outbox.values.map(\.createdAt).min())
        }
    }

    // MARK: Provider identities

    public func linkIdentity(_ identity: ProviderIdentity) async throws -> Bool {
        try state.withLock { (state) throws(AccountError) -> Bool in
            guard state.usersByID[identity.userID] != nil else { return false }
            let key = State.identityKey(identity.provider, identity.subject)
            guard state.identities[key] == nil else { throw AccountError.identityTaken }
            state.identities[key] = identity
            return true
        }
    }

    public func identity(provider: String, subject: String) async throws -> ProviderIdentity? {
        state.withLock { $0.identities[State.identityKey(provider, subject)] }
    }

    public func identities(userID: UserID) async throws -> [ProviderIdentity] {
        state.withLock { state in
            state.identities.values.filter { $0.userID == userID }.sorted {
                ($0.provider.utf8.lexicographicallyPrecedes($1.provider.utf8))
                    || ($0.provider == $1.provider && $0.subject.utf8.lexicographicallyPrecedes($1.subject.utf8))
            }
        }
    }

    public func unlinkIdentity(provider: String, subject: String, userID: UserID) async throws -> Bool {
        state.withLock { state in
            let key = State.identityKey(provider, subject)
            guard state.identities[key]?.userID == userID else { return false }
            state.identities[key] = nil
            return true
        }
    }

    public func storeValue(forKey key: String) async throws -> String? {
        state.withLock { $0.values[key] }
    }

    public func setStoreValue(_ value: String?, forKey key: String) async throws {
        state.withLock { $0.values[key] = value }
    }

    public func recordLoginFailure(userID: UserID, at time: Timestamp) async throws -> Int? {
        state.withLock { state in
            guard var user = state.usersByID[userID] else { return nil }
            user.failedLoginCount += 1
            user.lastFailedLoginAt = time
            state.usersByID[userID] = user
            return user.failedLoginCount
        }
    }

    public func resetLoginFailures(userID: UserID) async throws {
        state.withLock { state in
            guard var user = state.usersByID[userID] else { return }
            user.failedLoginCount = 0
            user.lastFailedLoginAt = nil
            state.usersByID[userID] = user
        }
    }

    public func deleteUser(id: UserID) async throws -> Bool {
        state.withLock { $0.removeUser(id) }
    }

    public func createSession(_ session: SessionRecord, ifPasswordHashIs passwordHash: String) async throws -> Bool {
        try state.withLock { (state) throws(AccountError) -> Bool in
            guard state.usersByID[session.userID]?.passwordHash == passwordHash else { return false }
            try state.insert(session)
            return true
        }
    }

    public func session(tokenHash: String) async throws -> SessionRecord? {
        state.withLock { $0.sessionsByHash[tokenHash] }
    }

    /// Both under one hold of the lock.
    public func signedIn(tokenHash: String) async throws -> (session: SessionRecord, user: UserRecord?)? {
        state.withLock { state in
            state.sessionsByHash[tokenHash].map { ($0, state.usersByID[$0.userID]) }
        }
    }

    public func sessions(userID: UserID) async throws -> [SessionRecord] {
        state.withLock { state in
            (state.hashesByUser[userID] ?? []).sorted(by: utf8Less).compactMap { state.sessionsByHash[$0] }
        }
    }

    public func touchSession(tokenHash: String, lastSeenAt: Timestamp) async throws {
        state.withLock { state in
            guard var session = state.sessionsByHash[tokenHash], lastSeenAt > session.lastSeenAt else { return }
            session.lastSeenAt = lastSeenAt
            state.sessionsByHash[tokenHash] = session
        }
    }

    public func deleteSession(tokenHash: String) async throws -> Bool {
        state.withLock { $0.removeSession(tokenHash) }
    }

    /// Checks that the email index and the records agree and that every session has its user.
    public func integrityCheck() async throws -> [String] {
        state.withLock { state in
            var problems: [String] = []
            for (email, id) in state.idsByEmail where state.usersByID[id]?.email != email {
                problems.append("the email index entry \(email) does not match its user")
            }
            if state.idsByEmail.count != state.usersByID.count { problems.append("the email index is incomplete") }
            if let emails = state.emailsInOrder, emails != state.idsByEmail.keys.sorted(by: utf8Less) {
                problems.append("the emails in order do not match the email index")
            }
            let indexed = state.hashesByUser.reduce(into: [String: UserID]()) { index, entry in
                for hash in entry.value { index[hash] = entry.key }
            }
            if indexed != state.sessionsByHash.mapValues(\.userID) {
                problems.append("the sessions by user do not match the sessions")
            }
            let orphans = state.sessionsByHash.values.filter { state.usersByID[$0.userID] == nil }.count
            if orphans > 0 { problems.append("\(orphans) sessions belong to no user") }
            return problems.isEmpty ? ["ok"] : problems
        }
    }

    public func deleteOrphanedSessions() async throws -> Int {
        state.withLock { state in
            let orphans = state.sessionsByHash.filter { state.usersByID[$0.value.userID] == nil }.map(\.key)
            for hash in orphans { _ = state.removeSession(hash) }
            return orphans.count
        }
    }

    /// Nothing to release: the data stays for whoever opens the same location again.
    public func close() async throws {}
}

/// Byte order of the UTF-8, as the other backends sort emails and token digests.
private func utf8Less(_ a: String, _ b: String) -> Bool {
    a.utf8.lexicographicallyPrecedes(b.utf8)
}
