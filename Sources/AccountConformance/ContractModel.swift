import AccountCore

/// The `UserRepository` contract as a plain value, written from the protocol's documentation
/// and from no backend's code: the answers ``SequenceChecks`` holds every backend to, the
/// memory backend included.
struct ContractModel {
    private(set) var usersByID: [UserID: UserRecord] = [:]
    private(set) var sessionsByHash: [String: SessionRecord] = [:]
    /// The highest user number ever given: a withdrawal does not lower it.
    private(set) var lastUserNumber = 0
    /// The services' values.
    private(set) var values: [String: String] = [:]

    func user(email: String) -> UserRecord? { usersByID.values.first { $0.email == email } }

    func user(id: UserID) -> UserRecord? { usersByID[id] }

    var userCount: Int { usersByID.count }

    /// Emails compare by their UTF-8 bytes, the order every backend sorts by.
    func users(after email: String?, limit: Int) -> [UserRecord] {
        let sorted = usersByID.values.sorted { $0.email.utf8.lexicographicallyPrecedes($1.email.utf8) }
        let after = sorted.filter { user in email.map { $0.utf8.lexicographicallyPrecedes(user.email.utf8) } ?? true }
        return Array(after.prefix(limit))
    }

    /// The email first, then the id, then the number, then the session: what is refused names
    /// the first clash. Returns the user's number: its own when given, else one past the
    /// highest ever given.
    @discardableResult
    mutating func createUser(_ user: UserRecord, initialSession: SessionRecord?) throws(AccountError) -> Int {
        guard self.user(email: user.email) == nil else { throw .emailTaken }
        guard usersByID[user.id] == nil else { throw .userIDInUse(user.id) }
        if let given = user.number, given <= 0 || usersByID.values.contains(where: { $0.number == given }) {
            throw .userNumberInUse(given)
        }
        if let initialSession, sessionsByHash[initialSession.tokenHash] != nil {
            throw .sessionAlreadyStored(of: initialSession.userID)
        }
        var numbered = user
        let number = user.number ?? lastUserNumber + 1
        numbered.number = number
        lastUserNumber = max(lastUserNumber, number)
        usersByID[user.id] = numbered
        if let initialSession { sessionsByHash[initialSession.tokenHash] = initialSession }
        return number
    }

    mutating func createUsers(_ users: [UserRecord], sessions: [SessionRecord]) throws(AccountError) -> [String] {
        var next = self
        var skipped: [String] = []
        var stored: Set<UserID> = []
        var emails: Set<String> = []
        var accepted: [UserRecord] = []
        for user in users {
            guard next.user(email: user.email) == nil, emails.insert(user.email).inserted else {
                skipped.append(user.email)
                continue
            }
            accepted.append(user)
        }
        // Given numbers first: the users without one come after all of them.
        for user in accepted.filter({ $0.number != nil }) + accepted.filter({ $0.number == nil }) {
            try next.createUser(user, initialSession: nil)
            stored.insert(user.id)
        }
        for session in sessions where stored.contains(session.userID) {
            guard next.sessionsByHash[session.tokenHash] == nil else { throw .sessionAlreadyStored(of: session.userID) }
            next.sessionsByHash[session.tokenHash] = session
        }
        self = next
        return skipped
    }

    mutating func updatePassword(
        userID: UserID, passwordHash: String, changedAt: Timestamp, revoking: SessionRevocation,
        ifPasswordHashIs expected: String?
    ) -> Bool {
        guard var user = usersByID[userID], expected.map({ $0 == user.passwordHash }) ?? true else { return false }
        user.passwordHash = passwordHash
        user.passwordChangedAt = changedAt
        user.mustChangePassword = false
        usersByID[userID] = user
        if revoking != .none {
            for session in sessions(userID: userID) where session.tokenHash != revoking.keptTokenHash {
                sessionsByHash[session.tokenHash] = nil
            }
        }
        return true
    }

    /// Blocking signs the user out everywhere.
    mutating func setBlocked(userID: UserID, _ blocked: Bool) -> Bool {
        guard usersByID[userID] != nil else { return false }
        usersByID[userID]?.isBlocked = blocked
        if blocked { for session in sessions(userID: userID) { sessionsByHash[session.tokenHash] = nil } }
        return true
    }

    mutating func setEmailVerified(userID: UserID, at time: Timestamp?) -> Bool {
        guard usersByID[userID] != nil else { return false }
        usersByID[userID]?.emailVerifiedAt = time
        return true
    }

    func storeValue(forKey key: String) -> String? { values[key] }

    mutating func setStoreValue(_ value: String?, forKey key: String) { values[key] = value }

    mutating func recordLoginFailure(userID: UserID, at time: Timestamp) -> Int? {
        guard var user = usersByID[userID] else { return nil }
        user.failedLoginCount += 1
        user.lastFailedLoginAt = time
        usersByID[userID] = user
        return user.failedLoginCount
    }

    mutating func resetLoginFailures(userID: UserID) {
        usersByID[userID]?.failedLoginCount = 0
        usersByID[userID]?.lastFailedLoginAt = nil
    }

    mutating func deleteUser(id: UserID) -> Bool {
        guard usersByID.removeValue(forKey: id) != nil else { return false }
        for session in sessions(userID: id) { sessionsByHash[session.tokenHash] = nil }
        return true
    }

    mutating func createSession(_ session: SessionRecord, ifPasswordHashIs passwordHash: String) throws(AccountError)
        -> Bool
    {
        guard usersByID[session.userID]?.passwordHash == passwordHash else { return false }
        guard sessionsByHash[session.tokenHash] == nil else { throw .sessionAlreadyStored(of: session.userID) }
        sessionsByHash[session.tokenHash] = session
        return true
    }

    func session(tokenHash: String) -> SessionRecord? { sessionsByHash[tokenHash] }

    func sessions(userID: UserID) -> [SessionRecord] {
        sessionsByHash.values.filter { $0.userID == userID }.sorted { $0.tokenHash < $1.tokenHash }
    }

    /// Forward only: an older time (a request that finished late) leaves the session as it is.
    mutating func touchSession(tokenHash: String, lastSeenAt: Timestamp) {
        guard let session = sessionsByHash[tokenHash], lastSeenAt > session.lastSeenAt else { return }
        sessionsByHash[tokenHash]?.lastSeenAt = lastSeenAt
    }

    mutating func deleteSession(tokenHash: String) -> Bool {
        sessionsByHash.removeValue(forKey: tokenHash) != nil
    }
}
