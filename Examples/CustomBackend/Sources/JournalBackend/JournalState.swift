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
    }

    func user(email: String) -> UserRecord? { idsByEmail[email].flatMap { usersByID[$0] } }

    func user(id: UserID) -> UserRecord? { usersByID[id] }

    /// Emails in UTF-8 byte order, as every backend lists them.
    func sortedEmails() -> [String] {
        idsByEmail.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
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
