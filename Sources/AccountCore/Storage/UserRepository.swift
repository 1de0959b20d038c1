/// What happens to a user's other sessions when its password hash is replaced.
public enum SessionRevocation: Sendable, Hashable {
    /// Keep every session (a rehash on login).
    case none
    /// Delete every session of the user (a password change made without a session).
    case all
    /// Delete every session of the user except the one with this token hash (a password change
    /// made from that session).
    case allExcept(tokenHash: String)

    /// The session to keep, if any, when sessions are revoked.
    public var keptTokenHash: String? {
        if case .allExcept(let kept) = self { return kept }
        return nil
    }

    /// Whether any session is revoked.
    public var revokesSessions: Bool {
        if case .none = self { return false }
        return true
    }
}

/// The storage contract every backend keeps. Two services call it: `AccountService` for the
/// account flows, and `AccountAdministration` (in `AccountOperations`) for the operator's work —
/// listing, check-ups, export, import and migration; front ends call those services, never a
/// repository. The conformance suite (`AccountConformance`) checks every promise below on every
/// backend.
///
/// Promises:
/// 1. Uniqueness of `UserRecord.email` is enforced atomically: two racing `createUser` calls for
///    one email, in one process or many, give one success and one `AccountError.emailTaken`.
///    Every user gets a ``UserRecord/number`` in the same transaction: racing sign-ups, in one
///    process or many, never get one number twice, and a number is never given again after its
///    user withdraws.
/// 2. `deleteUser` removes the user and all of its sessions in one transaction.
/// 3. Every field comes back byte-for-byte as stored.
/// 4. A call that returned has reached the disk (unless the backend's documented fast mode is on).
/// 5. Several processes may use one store at once.
/// 6. Opening a store of another kind, a newer format or a corrupt file throws
///    `storeKindMismatch`, `storeVersionUnsupported` or `storeCorrupted` and changes nothing.
/// 7. Only `AccountError` is thrown (every method below may throw `storeIO` or `storeBusy`).
///
/// A backend stores; it does not validate emails or hash passwords.
public protocol UserRepository: Sendable {
    /// The store's self-description (format, version, id).
    func storeInfo() async throws -> StoreInfo

    /// Inserts a user, and optionally its first session, in one transaction, numbering the user
    /// with the store's next number unless `user.number` is given.
    /// - Returns: the user's number.
    /// - Throws: `AccountError.emailTaken` when the email is already stored; `storeIO` when the
    ///   id is already stored under another email, the given number is taken or not positive, or
    ///   the session's token hash is already stored (``AccountError/userIDInUse(_:)``,
    ///   ``AccountError/userNumberInUse(_:)``, ``AccountError/sessionAlreadyStored(of:)``).
    ///   Either way nothing is written.
    @discardableResult
    func createUser(_ user: UserRecord, initialSession: SessionRecord?) async throws -> Int

    /// Inserts many users, and `sessions` of the users it stores, in one transaction (imports,
    /// migrations): a crash or an error leaves all of the batch or none of it, never users without
    /// their sessions. A user whose email is already stored (or appears earlier in the batch) is
    /// skipped and its email returned, and its sessions with it; the others are stored. A user
    /// whose id is already stored under another email, a given number that is taken, repeated or
    /// not positive, or a session whose token hash is already stored or repeated in the batch,
    /// refuses the whole batch with `storeIO`: such records come only from a hand-made file, and
    /// storing them would hand one user's session (or an app's data) to another. Users without a
    /// number are numbered in the batch's order, after every number given or ever stored.
    ///
    /// There is no default: one `createUser` at a time would not keep that promise, and a
    /// default would also stand in, without a word from the compiler, for a backend whose own
    /// batch method has another signature (such as 0.2.0's `createUsers(_:)`).
    func createUsers(_ users: [UserRecord], sessions: [SessionRecord]) async throws -> [String]

    /// The user with this normalized email, if any.
    func user(email: String) async throws -> UserRecord?

    /// The user with this id, if any.
    func user(id: UserID) async throws -> UserRecord?

    /// The number of users.
    func userCount() async throws -> Int

    /// The highest user number ever given (0 before the first): the next user without a
    /// number of its own gets one more. A withdrawal does not lower it.
    func lastUserNumber() async throws -> Int

    /// Raises the highest user number ever given to `number` when it is lower, so that no
    /// number up to it is given (a migration carries its source's, whose highest users may
    /// have withdrawn); a lower or equal `number` changes nothing.
    func raiseLastUserNumber(to number: Int) async throws

    /// Up to `limit` users in ascending email order, starting after `email` (exclusive).
    func users(after email: String?, limit: Int) async throws -> [UserRecord]

    /// Replaces the password hash and `passwordChangedAt`, clears `mustChangePassword` (the new
    /// hash is the user's own), deletes the user's password-reset code (one mailed for the old
    /// password resets nothing now), and revokes sessions as asked, in one transaction, when the
    /// hash is still `expected` (the one the caller verified; `nil`: any). Nothing else of the
    /// user changes. Two changes of one password, or a change and a login's
    /// rehash of the old one, never both land: the second finds another hash.
    /// - Returns: `false` (and changes nothing) when no such user exists or its hash is not
    ///   `expected`.
    func updatePassword(
        userID: UserID, passwordHash: String, changedAt: Timestamp, revoking: SessionRevocation,
        ifPasswordHashIs expected: String?
    ) async throws -> Bool

    /// Blocks or unblocks the user. Blocking deletes every session of the user in the same
    /// transaction: a blocked account is signed out everywhere at once. Nothing else changes.
    /// - Returns: `false` (and changes nothing) when no such user exists.
    func setBlocked(userID: UserID, _ blocked: Bool) async throws -> Bool

    /// Records when the user's email was proven (`nil`: not proven). Nothing else changes.
    /// - Returns: `false` (and changes nothing) when no such user exists.
    func setEmailVerified(userID: UserID, at time: Timestamp?) async throws -> Bool

    /// The text kept under `key` by ``setStoreValue(_:forKey:)``, or `nil`. The services keep
    /// small pieces of their own state here (an interrupted import's checkpoint) under keys of
    /// at most 200 bytes; the key space is theirs alone, apart from anything the backend keeps
    /// about itself.
    func storeValue(forKey key: String) async throws -> String?

    /// Keeps `value` (any text without U+0000) under `key`, replacing what was there (`nil`
    /// removes it), durably as any other write.
    func setStoreValue(_ value: String?, forKey key: String) async throws

    /// Adds one to the user's consecutive failed-login counter and records when.
    /// - Returns: the new count, or `nil` when no such user exists.
    func recordLoginFailure(userID: UserID, at time: Timestamp) async throws -> Int?

    /// Resets the failed-login counter to zero.
    func resetLoginFailures(userID: UserID) async throws

    /// Deletes the user and everything of it in one transaction: its sessions, its rotated
    /// tokens, its codes and its linked identities.
    /// - Returns: `false` when no such user existed.
    func deleteUser(id: UserID) async throws -> Bool

    /// Stores a new session while the user's password hash is still `passwordHash` (the one a
    /// login verified, or a refresh found), in one transaction with that check: a password change
    /// that commits first (and revokes the user's other sessions) is never outlived by a session
    /// its old password opened.
    /// - Returns: `false` (and stores nothing) when the user does not exist or its password hash
    ///   is another.
    /// - Throws: `storeIO` (and stores nothing) when the user exists with that hash and the token
    ///   hash is already stored (``AccountError/sessionAlreadyStored(of:)``): a stored session is
    ///   never replaced.
    func createSession(_ session: SessionRecord, ifPasswordHashIs passwordHash: String) async throws -> Bool

    /// The session with this token hash, if any.
    func session(tokenHash: String) async throws -> SessionRecord?

    /// The session with this token hash and its user, read together: what every signed-in
    /// request needs first. `nil` when there is no such session; the user is `nil` when the
    /// session's user is gone (only damage leaves such a session).
    func signedIn(tokenHash: String) async throws -> (session: SessionRecord, user: UserRecord?)?

    /// Every session of the user, in ascending token-hash order.
    func sessions(userID: UserID) async throws -> [SessionRecord]

    /// Moves the session's `lastSeenAt` forward.
    func touchSession(tokenHash: String, lastSeenAt: Timestamp) async throws

    /// Deletes one session. - Returns: whether it existed.
    func deleteSession(tokenHash: String) async throws -> Bool

    /// Deletes every session whose user no longer exists. The contract never leaves one (a
    /// withdrawal deletes the user's sessions with it), so only damage or a hand edit can:
    /// `accounts doctor --remove-orphaned-sessions` calls this when the operator asks.
    /// - Returns: how many were deleted.
    func deleteOrphanedSessions() async throws -> Int

    /// Checks the engine's own consistency (indexes against records, references, file
    /// structure): `["ok"]` for a sound store, else one line per problem found. Changes nothing.
    /// - Throws: `AccountError` when the store cannot be read at all (`storeIO`, `storeBusy`).
    func integrityCheck() async throws -> [String]

    // MARK: Refresh families

    /// Replaces the live session `tokenHash` with `renewed` (a refresh: the same family), while
    /// the user's password hash is still `passwordHash`, and keeps the old token as a
    /// ``RotatedToken`` (rotated `at`, until the old session would have expired), in one
    /// transaction.
    /// - Returns: `false` (and changes nothing) when there is no such live session, or the
    ///   password hash is another.
    /// - Throws: `storeIO` when `renewed`'s token hash is already stored.
    func rotateSession(
        tokenHash: String, to renewed: SessionRecord, ifPasswordHashIs passwordHash: String, at: Timestamp
    ) async throws -> Bool

    /// The rotated token with this hash, if a refresh replaced it and its session has not
    /// expired since.
    func rotatedToken(tokenHash: String) async throws -> RotatedToken?

    /// Deletes every live session of `userID` in `family`. - Returns: how many went.
    func revokeFamily(_ family: String, userID: UserID) async throws -> Int

    // MARK: One-time codes

    /// Stores `code`, replacing the user's code of the same purpose, in one transaction.
    /// - Returns: `false` (and stores nothing) when the user does not exist.
    /// - Throws: `storeIO` when the code hash is already stored for another user or purpose.
    func replaceCode(_ code: OneTimeCode) async throws -> Bool

    /// The code with this hash, if stored (expired ones included, until taken or purged).
    func code(hash: String) async throws -> OneTimeCode?

    /// Deletes the code with this hash and returns it, in one step: of two racing takes, one
    /// gets it. Nil when it is not stored.
    func takeCode(hash: String) async throws -> OneTimeCode?

    // MARK: Records of finished flows

    /// Deletes the rotated tokens (``RotatedToken``) and one-time codes (``OneTimeCode``) whose
    /// `expiresAt` is at or before `now`: no flow can use them any more, and a refresh leaves one
    /// rotated token behind each time, so without this they would pile up. `doctor --fix` and
    /// `accounts serve` (hourly) call it.
    /// - Returns: how many records went.
    func purgeExpiredFlowRecords(at now: Timestamp) async throws -> Int

    // MARK: Outbox

    /// Stores a mail to send.
    /// - Throws: `storeIO` when its id is already stored.
    func enqueueMail(_ mail: OutboxMail) async throws

    /// Up to `limit` mails whose ``OutboxMail/notBefore`` is at or before `at`, earliest first
    /// (ties by id).
    func dueMail(at: Timestamp, limit: Int) async throws -> [OutboxMail]

    /// Moves the mail's `notBefore` from `expected` to `until`, when it is still `expected`:
    /// a sender leases a mail so that no other sender takes it meanwhile.
    /// - Returns: whether it did (`false`: gone, or leased by another sender).
    func leaseMail(id: String, from expected: Timestamp, until: Timestamp) async throws -> Bool

    /// Records a failed try: its count, when to try again, and why. - Returns: whether the mail
    /// was there.
    func rescheduleMail(id: String, attempts: Int, notBefore: Timestamp, lastError: String?) async throws -> Bool

    /// Deletes a mail the relay accepted. - Returns: whether it was there.
    func deleteMail(id: String) async throws -> Bool

    /// How many mails wait, how many of them failed before, and the oldest's time.
    func outboxSummary() async throws -> OutboxSummary

    // MARK: Provider identities

    /// Links an outside identity to its user.
    /// - Returns: `false` (and stores nothing) when the user does not exist.
    /// - Throws: ``AccountError/identityTaken`` when the provider's subject is linked already
    ///   (to this user or another).
    func linkIdentity(_ identity: ProviderIdentity) async throws -> Bool

    /// The identity with this provider and subject, if linked.
    func identity(provider: String, subject: String) async throws -> ProviderIdentity?

    /// Every identity linked to the user, by provider then subject (UTF-8 byte order).
    func identities(userID: UserID) async throws -> [ProviderIdentity]

    /// Unlinks one identity of the user. - Returns: whether it was linked to this user.
    func unlinkIdentity(provider: String, subject: String, userID: UserID) async throws -> Bool

    /// Releases the store's resources. Further calls are a programming error.
    func close() async throws
}

extension UserRepository {
    /// `session(tokenHash:)`, then `user(id:)`: two reads, correct for any backend. The standard
    /// backends read both at once (one statement, one transaction, one round trip).
    public func signedIn(tokenHash: String) async throws -> (session: SessionRecord, user: UserRecord?)? {
        guard let session = try await session(tokenHash: tokenHash) else { return nil }
        return (session, try await user(id: session.userID))
    }

    /// A batch of users without sessions.
    public func createUsers(_ users: [UserRecord]) async throws -> [String] {
        try await createUsers(users, sessions: [])
    }
}
