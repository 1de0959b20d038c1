import AccountCore
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

    private struct State {
        var usersByID: [UserID: UserRecord] = [:]
        var idsByEmail: [String: UserID] = [:]
        var sessionsByHash: [String: SessionRecord] = [:]

        /// A taken email first, then a taken id: what a refusal names is the first clash.
        func refuseClash(_ user: UserRecord) throws(AccountError) {
            guard idsByEmail[user.email] == nil else { throw .emailTaken }
            guard usersByID[user.id] == nil else { throw .userIDInUse(user.id) }
        }

        /// A stored token hash: overwriting it would hand that session to another user.
        func refuseClash(_ session: SessionRecord) throws(AccountError) {
            guard sessionsByHash[session.tokenHash] == nil else { throw .sessionAlreadyStored(of: session.userID) }
        }

        mutating func insert(_ user: UserRecord) throws(AccountError) {
            try refuseClash(user)
            usersByID[user.id] = user
            idsByEmail[user.email] = user.id
        }

        mutating func insert(_ session: SessionRecord) throws(AccountError) {
            try refuseClash(session)
            sessionsByHash[session.tokenHash] = session
        }

        mutating func removeSessions(of userID: UserID, except kept: String?) {
            for (hash, session) in sessionsByHash where session.userID == userID && hash != kept {
                sessionsByHash[hash] = nil
            }
        }
    }

    private let state = Mutex(State())
    private let info: StoreInfo

    /// A new, empty store.
    public init(storeID: String = StoreInfo.randomStoreID()) {
        info = StoreInfo(formatName: Self.formatName, formatVersion: Self.formatVersion, storeID: storeID)
    }

    public func storeInfo() async throws -> StoreInfo { info }

    public func createUser(_ user: UserRecord, initialSession: SessionRecord?) async throws {
        try state.withLock { (state) throws(AccountError) in
            // Both are checked before either is stored, so that a refusal stores neither.
            try state.refuseClash(user)
            if let initialSession { try state.refuseClash(initialSession) }
            try state.insert(user)
            if let initialSession { try state.insert(initialSession) }
        }
    }

    public func createUsers(_ users: [UserRecord], sessions: [SessionRecord]) async throws -> [String] {
        try state.withLock { (state) throws(AccountError) -> [String] in
            // Changes go to a copy, kept only if the whole batch is accepted.
            var next = state
            var skipped: [String] = []
            var stored: Set<UserID> = []
            for user in users {
                guard next.idsByEmail[user.email] == nil else {
                    skipped.append(user.email)
                    continue
                }
                try next.insert(user)
                stored.insert(user.id)
            }
            for session in sessions where stored.contains(session.userID) {
                try next.insert(session)
            }
            state = next
            return skipped
        }
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
        state.withLock { state in
            // Byte order of the UTF-8, as the other backends sort.
            let emails = state.idsByEmail.keys.filter { email == nil || Self.utf8Less(email!, $0) }
                .sorted(by: Self.utf8Less)
            return emails.prefix(max(0, limit)).compactMap { state.idsByEmail[$0].flatMap { state.usersByID[$0] } }
        }
    }

    public func updatePassword(
        userID: UserID, passwordHash: String, changedAt: Timestamp, revoking: SessionRevocation
    ) async throws -> Bool {
        state.withLock { state in
            guard var user = state.usersByID[userID] else { return false }
            user.passwordHash = passwordHash
            user.passwordChangedAt = changedAt
            state.usersByID[userID] = user
            if revoking.revokesSessions { state.removeSessions(of: userID, except: revoking.keptTokenHash) }
            return true
        }
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
        state.withLock { state in
            guard let user = state.usersByID.removeValue(forKey: id) else { return false }
            state.idsByEmail[user.email] = nil
            state.removeSessions(of: id, except: nil)
            return true
        }
    }

    public func createSession(_ session: SessionRecord) async throws -> Bool {
        try state.withLock { (state) throws(AccountError) -> Bool in
            guard state.usersByID[session.userID] != nil else { return false }
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
            state.sessionsByHash.values.filter { $0.userID == userID }.sorted {
                Self.utf8Less($0.tokenHash, $1.tokenHash)
            }
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
        state.withLock { $0.sessionsByHash.removeValue(forKey: tokenHash) != nil }
    }

    /// Checks that the email index and the records agree and that every session has its user.
    public func integrityCheck() async throws -> [String] {
        state.withLock { state in
            var problems: [String] = []
            for (email, id) in state.idsByEmail where state.usersByID[id]?.email != email {
                problems.append("the email index entry \(email) does not match its user")
            }
            if state.idsByEmail.count != state.usersByID.count { problems.append("the email index is incomplete") }
            let orphans = state.sessionsByHash.values.filter { state.usersByID[$0.userID] == nil }.count
            if orphans > 0 { problems.append("\(orphans) sessions belong to no user") }
            return problems.isEmpty ? ["ok"] : problems
        }
    }

    public func deleteOrphanedSessions() async throws -> Int {
        state.withLock { state in
            let orphans = state.sessionsByHash.filter { state.usersByID[$0.value.userID] == nil }.map(\.key)
            for hash in orphans { state.sessionsByHash[hash] = nil }
            return orphans.count
        }
    }

    /// Nothing to release: the data stays for whoever opens the same location again.
    public func close() async throws {}

    private static func utf8Less(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }
}
