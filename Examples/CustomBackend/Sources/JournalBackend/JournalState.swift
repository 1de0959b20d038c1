import AccountCore

/// The accounts a journal describes, rebuilt by replaying its entries in order.
struct JournalState: Sendable {
    private(set) var usersByID: [UserID: UserRecord] = [:]
    private(set) var idsByEmail: [String: UserID] = [:]
    private(set) var sessionsByHash: [String: SessionRecord] = [:]

    /// Applies one entry. Entries were checked before they were written, so a violation here
    /// means the file was changed by someone else.
    /// - Throws: a description of the broken rule.
    mutating func apply(_ entry: JournalEntry) throws(JournalProblem) {
        for hash in entry.deleteSessions ?? [] { sessionsByHash[hash] = nil }
        for id in entry.deleteUsers ?? [] {
            guard let user = usersByID.removeValue(forKey: id) else { throw JournalProblem("deletes a missing user") }
            idsByEmail[user.email] = nil
            for (hash, session) in sessionsByHash where session.userID == id { sessionsByHash[hash] = nil }
        }
        for user in entry.putUsers ?? [] {
            if let old = usersByID[user.id] {
                guard old.email == user.email else { throw JournalProblem("changes a user's email") }
            } else {
                guard idsByEmail[user.email] == nil else { throw JournalProblem("stores a taken email twice") }
            }
            usersByID[user.id] = user
            idsByEmail[user.email] = user.id
        }
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
