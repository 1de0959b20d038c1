import AccountCore

/// The accounts a journal describes, rebuilt by replaying its entries in order.
struct JournalState: Sendable {
    private(set) var usersByID: [UserID: UserRecord] = [:]
    private(set) var idsByEmail: [String: UserID] = [:]
    private(set) var sessionsByHash: [String: SessionRecord] = [:]
    private(set) var idsByNumber: [Int: UserID] = [:]
    /// The highest user number ever given: entries are never removed, so a withdrawn user's
    /// number still counts when the journal is replayed.
    private(set) var lastUserNumber = 0
    /// The services' values, by key.
    private(set) var values: [String: String] = [:]
    private(set) var rotated: [String: RotatedToken] = [:]
    private(set) var codes: [String: OneTimeCode] = [:]
    private(set) var outbox: [String: OutboxMail] = [:]
    private(set) var identities: [IdentityKey: ProviderIdentity] = [:]
    /// Whether every user must have a number (format 2 on); a format-1 journal is replayed
    /// without, only to be upgraded.
    var requiresNumbers = true

    /// The number a new user gets: its own when given and free, else one past the highest.
    /// - Throws: ``AccountError/userNumberInUse(_:)`` for a given number that is taken or not
    ///   positive.
    func number(for user: UserRecord, besides batch: Set<Int> = []) throws(AccountError) -> Int {
        guard let given = user.number else { return max(lastUserNumber, batch.max() ?? 0) + 1 }
        guard given > 0, idsByNumber[given] == nil, !batch.contains(given) else { throw .userNumberInUse(given) }
        return given
    }

    /// Applies one entry. Entries were checked before they were written, so a violation here
    /// means the file was changed by someone else.
    /// - Throws: a description of the broken rule.
    mutating func apply(_ entry: JournalEntry) throws(JournalProblem) {
        for hash in entry.deleteSessions ?? [] { sessionsByHash[hash] = nil }
        for id in entry.deleteUsers ?? [] {
            guard let user = usersByID.removeValue(forKey: id) else { throw JournalProblem("deletes a missing user") }
            idsByEmail[user.email] = nil
            if let number = user.number { idsByNumber[number] = nil }
            for (hash, session) in sessionsByHash where session.userID == id { sessionsByHash[hash] = nil }
            for (hash, token) in rotated where token.userID == id { rotated[hash] = nil }
            for (hash, code) in codes where code.userID == id { codes[hash] = nil }
            for (key, identity) in identities where identity.userID == id { identities[key] = nil }
        }
        for user in entry.putUsers ?? [] {
            if let old = usersByID[user.id] {
                guard old.email == user.email else { throw JournalProblem("changes a user's email") }
                guard old.number == user.number else { throw JournalProblem("changes a user's number") }
            } else {
                guard idsByEmail[user.email] == nil else { throw JournalProblem("stores a taken email twice") }
                if let number = user.number {
                    guard number > 0, idsByNumber[number] == nil else { throw JournalProblem("reuses a user number") }
                    idsByNumber[number] = user.id
                    lastUserNumber = max(lastUserNumber, number)
                } else if requiresNumbers {
                    throw JournalProblem("stores a user without a number")
                }
            }
            usersByID[user.id] = user
            idsByEmail[user.email] = user.id
        }
        if let last = entry.lastUserNumber { lastUserNumber = max(lastUserNumber, last) }
        for (key, value) in entry.values ?? [:] { values[key] = value }
        for session in entry.putSessions ?? [] {
            guard usersByID[session.userID] != nil else { throw JournalProblem("has a session without a user") }
            sessionsByHash[session.tokenHash] = session
        }
        try applyFlows(entry)
    }

    /// The parts of an entry format 5 added: refresh families, codes, mail and identities.
    private mutating func applyFlows(_ entry: JournalEntry) throws(JournalProblem) {
        for token in entry.putRotated ?? [] {
            guard usersByID[token.userID] != nil else { throw JournalProblem("rotates a token without a user") }
            rotated[token.tokenHash] = token
        }
        for hash in entry.deleteRotated ?? [] { rotated[hash] = nil }
        for revoked in entry.revokeFamilies ?? [] {
            for (hash, session) in sessionsByHash
            where session.userID == revoked.userID && session.family == revoked.family {
                sessionsByHash[hash] = nil
            }
        }
        for hash in entry.deleteCodes ?? [] { codes[hash] = nil }
        for code in entry.putCodes ?? [] {
            guard usersByID[code.userID] != nil else { throw JournalProblem("stores a code without a user") }
            codes[code.codeHash] = code
        }
        for id in entry.deleteMail ?? [] { outbox[id] = nil }
        for mail in entry.putMail ?? [] { outbox[mail.id] = mail }
        for key in entry.deleteIdentities ?? [] { identities[key] = nil }
        for identity in entry.putIdentities ?? [] {
            guard usersByID[identity.userID] != nil else { throw JournalProblem("links an identity without a user") }
            let key = IdentityKey(provider: identity.provider, subject: identity.subject)
            if let held = identities[key], held.userID != identity.userID {
                throw JournalProblem("links one identity to two users")
            }
            identities[key] = identity
        }
    }

    func user(email: String) -> UserRecord? { idsByEmail[email].flatMap { usersByID[$0] } }

    func user(id: UserID) -> UserRecord? { usersByID[id] }

    /// Emails in UTF-8 byte order, as every backend lists them.
    func sortedEmails() -> [String] {
        idsByEmail.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// The hashes of the codes `id` holds for `purpose`.
    func codes(of id: UserID, purpose: OneTimeCode.Purpose) -> [String] {
        codes.values.filter { $0.userID == id && $0.purpose == purpose }.map(\.codeHash).sorted()
    }

    func sessions(of id: UserID) -> [SessionRecord] {
        sessionsByHash.values.filter { $0.userID == id }.sorted {
            $0.tokenHash.utf8.lexicographicallyPrecedes($1.tokenHash.utf8)
        }
    }
}

/// Why a journal cannot be read.
struct JournalProblem: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}
