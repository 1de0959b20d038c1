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

    package func rotateSession(
        tokenHash: String, to renewed: SessionRecord, ifPasswordHashIs passwordHash: String, at: Timestamp
    ) async throws -> Bool {
        try await observe("rotateSession")
        return try await inner.rotateSession(tokenHash: tokenHash, to: renewed, ifPasswordHashIs: passwordHash, at: at)
    }

    package func rotatedToken(tokenHash: String) async throws -> RotatedToken? {
        try await observe("rotatedToken")
        return try await inner.rotatedToken(tokenHash: tokenHash)
    }

    package func revokeFamily(_ family: String, userID: UserID) async throws -> Int {
        try await observe("revokeFamily")
        return try await inner.revokeFamily(family, userID: userID)
    }

    package func purgeExpiredFlowRecords(at now: Timestamp) async throws -> Int {
        try await observe("purgeExpiredFlowRecords")
        return try await inner.purgeExpiredFlowRecords(at: now)
    }

    package func replaceCode(_ code: OneTimeCode) async throws -> Bool {
        try await observe("replaceCode")
        return try await inner.replaceCode(code)
    }

    package func code(hash: String) async throws -> OneTimeCode? {
        try await observe("code")
        return try await inner.code(hash: hash)
    }

    package func takeCode(hash: String) async throws -> OneTimeCode? {
        try await observe("takeCode")
        return try await inner.takeCode(hash: hash)
    }

    package func enqueueMail(_ mail: OutboxMail) async throws {
        try await observe("enqueueMail")
        try await inner.enqueueMail(mail)
    }

    package func dueMail(at: Timestamp, limit: Int) async throws -> [OutboxMail] {
        try await observe("dueMail")
        return try await inner.dueMail(at: at, limit: limit)
    }

    package func leaseMail(id: String, from expected: Timestamp, until: Timestamp) async throws -> Bool {
        try await observe("leaseMail")
        return try await inner.leaseMail(id: id, from: expected, until: until)
    }

    package func rescheduleMail(id: String, attempts: Int, notBefore: Timestamp, lastError: String?) async throws
        -> Bool
    {
        try await observe("rescheduleMail")
        return try await inner.rescheduleMail(id: id, attempts: attempts, notBefore: notBefore, lastError: lastError)
    }

    package func deleteMail(id: String) async throws -> Bool {
        try await observe("deleteMail")
        return try await inner.deleteMail(id: id)
    }

    package func outboxSummary() async throws -> OutboxSummary {
        try await observe("outboxSummary")
        return try await inner.outboxSummary()
    }

    package func linkIdentity(_ identity: ProviderIdentity) async throws -> Bool {
        try await observe("linkIdentity")
        return try await inner.linkIdentity(identity)
    }

    package func identity(provider: String, subject: String) async throws -> ProviderIdentity? {
        try await observe("identity")
        return try await inner.identity(provider: provider, subject: subject)
    }

    package func identities(userID: UserID) async throws -> [ProviderIdentity] {
        try await observe("identities")
        return try await inner.identities(userID: userID)
    }

    package func unlinkIdentity(provider: String, subject: String, userID: UserID) async throws -> Bool {
        try await observe("unlinkIdentity")
        return try await inner.unlinkIdentity(provider: provider, subject: subject, userID: userID)
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
