package import AccountCore

/// Another repository with a hook awaited before each of its calls (with the call's name): for
/// tests that check what is true whenever the store is used — such as that no hashing slot is
/// held then — or that act as another process writing to the store between two calls.
package struct ObservedRepository: UserRepository {
    package let inner: any UserRepository
    package let observe: @Sendable (String) async throws -> Void

    package init(_ inner: any UserRepository, observe: @escaping @Sendable (String) async throws -> Void) {
        self.inner = inner
        self.observe = observe
    }

    package func storeInfo() async throws -> StoreInfo {
        try await observe("storeInfo")
        return try await inner.storeInfo()
    }

    @discardableResult

    package func createUser(_ user: UserRecord, initialSession: SessionRecord?) async throws -> Int {
        try await observe("createUser")
        return try await inner.createUser(user, initialSession: initialSession)
    }

    package func createUsers(_ users: [UserRecord], sessions: [SessionRecord]) async throws -> [String] {
        try await observe("createUsers")
        return try await inner.createUsers(users, sessions: sessions)
    }

    package func lastUserNumber() async throws -> Int {
        try await observe("lastUserNumber")
        return try await inner.lastUserNumber()
    }

    package func raiseLastUserNumber(to number: Int) async throws {
        try await observe("raiseLastUserNumber")
        try await inner.raiseLastUserNumber(to: number)
    }

    package func user(email: String) async throws -> UserRecord? {
        try await observe("user(email:)")
        return try await inner.user(email: email)
    }

    package func user(id: UserID) async throws -> UserRecord? {
        try await observe("user(id:)")
        return try await inner.user(id: id)
    }

    package func userCount() async throws -> Int {
        try await observe("userCount")
        return try await inner.userCount()
    }

    package func setBlocked(userID: UserID, _ blocked: Bool) async throws -> Bool {
        try await observe("setBlocked")
        return try await inner.setBlocked(userID: userID, blocked)
    }

    package func setEmailVerified(userID: UserID, at time: Timestamp?) async throws -> Bool {
        try await observe("setEmailVerified")
        return try await inner.setEmailVerified(userID: userID, at: time)
    }

    package func storeValue(forKey key: String) async throws -> String? {
        try await observe("storeValue")
        return try await inner.storeValue(forKey: key)
    }

    package func setStoreValue(_ value: String?, forKey key: String) async throws {
        try await observe("setStoreValue")
        try await inner.setStoreValue(value, forKey: key)
    }

    package func users(after email: String?, limit: Int) async throws -> [UserRecord] {
        try await observe("users(after:limit:)")
        return try await inner.users(after: email, limit: limit)
    }

    package func updatePassword(
        userID: UserID, passwordHash: String, changedAt: Timestamp, revoking: SessionRevocation,
        ifPasswordHashIs expected: String?
    ) async throws -> Bool {
        try await observe("updatePassword")
        return try await inner.updatePassword(
            userID: userID, passwordHash: passwordHash, changedAt: changedAt, revoking: revoking,
            ifPasswordHashIs: expected)
    }

    package func recordLoginFailure(userID: UserID, at time: Timestamp) async throws -> Int? {
        try await observe("recordLoginFailure")
        return try await inner.recordLoginFailure(userID: userID, at: time)
    }

    package func resetLoginFailures(userID: UserID) async throws {
        try await observe("resetLoginFailures")
        try await inner.resetLoginFailures(userID: userID)
    }

    package func deleteUser(id: UserID) async throws -> Bool {
        try await observe("deleteUser")
        return try await inner.deleteUser(id: id)
    }

    package func createSession(_ session: SessionRecord, ifPasswordHashIs passwordHash: String) async throws -> Bool {
        try await observe("createSession")
        return try await inner.createSession(session, ifPasswordHashIs: passwordHash)
    }

    package func session(tokenHash: String) async throws -> SessionRecord? {
        try await observe("session")
        return try await inner.session(tokenHash: tokenHash)
    }

    package func signedIn(tokenHash: String) async throws -> (session: SessionRecord, user: UserRecord?)? {
        try await observe("signedIn")
        return try await inner.signedIn(tokenHash: tokenHash)
    }

    package func sessions(userID: UserID) async throws -> [SessionRecord] {
        try await observe("sessions")
        return try await inner.sessions(userID: userID)
    }

    package func touchSession(tokenHash: String, lastSeenAt: Timestamp) async throws {
        try await observe("touchSession")
        try await inner.touchSession(tokenHash: tokenHash, lastSeenAt: lastSeenAt)
    }

    package func deleteSession(tokenHash: String) async throws -> Bool {
        try await observe("deleteSession")
        return try await inner.deleteSession(tokenHash: tokenHash)
    }

    package func deleteOrphanedSessions() async throws -> Int {
        try await observe("deleteOrphanedSessions")
        return try await inner.deleteOrphanedSessions()
    }

    package func integrityCheck() async throws -> [String] {
        try await observe("integrityCheck")
        return try await inner.integrityCheck()
    }

    package func close() async throws {
        try await observe("close")
        try await inner.close()
    }
}
