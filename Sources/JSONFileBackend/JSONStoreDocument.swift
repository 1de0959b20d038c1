import AccountCore

/// The whole content of a JSON-file store, held in memory between a read and a rewrite.
struct JSONStoreDocument: Sendable {
    /// The format name written into every file.
    static let formatName = "accountstore-json"
    /// The format version this build writes and reads: 2 numbers the users, 3 names each
    /// session's device, 4 keeps each account's state and the services' `values`, 5 each
    /// session's family and the flows' lists (``JSONFlows``). Formats 1 to 4 are read only to be
    /// upgraded (``upgraded()``).
    static let formatVersion = 5

    /// The version of the file this was read from (this build's, once upgraded or made here).
    private(set) var formatVersion = Self.formatVersion
    var storeID: String
    var createdAt: Timestamp
    /// The highest user number ever given: a withdrawal does not lower it.
    private(set) var lastUserNumber = 0
    private(set) var usersByEmail: [String: UserRecord] = [:]
    private(set) var emailByID: [UserID: String] = [:]
    private(set) var idByNumber: [Int: UserID] = [:]
    private(set) var sessionsByHash: [String: SessionRecord] = [:]
    /// The services' values (``UserRepository/setStoreValue(_:forKey:)``), by key.
    var values: [String: String] = [:]
    /// Rotated tokens, codes, the outbox and identities.
    var flows = JSONFlows()
    /// The users' and sessions' keys in the file's order, kept in step with the maps, with their
    /// encoded JSON once a write has needed it (`encodeMissing`).
    private(set) var encodedUsers = EncodedRecords()
    private(set) var encodedSessions = EncodedRecords()

    init(storeID: String, createdAt: Timestamp) {
        self.storeID = storeID
        self.createdAt = createdAt
    }

    /// A record that repeats one read before it, by its place in its list.
    enum Repeat: Error {
        case userID(index: Int, UserID)
        case email(index: Int)
        case number(index: Int, Int)
        case tokenHash(index: Int)
    }

    /// The document of the records read from a file, in the file's order, with their encoding
    /// left to the first write. One hash lookup per key: the read of a large store is mostly this.
    /// - Throws: the first record that repeats an id, an email or a token digest.
    init(
        formatVersion: Int, storeID: String, createdAt: Timestamp, lastUserNumber: Int, users: [UserRecord],
        sessions: [SessionRecord], values: [String: String] = [:], flows: JSONFlows = JSONFlows()
    ) throws(Repeat) {
        self.init(storeID: storeID, createdAt: createdAt)
        self.formatVersion = formatVersion
        self.lastUserNumber = lastUserNumber
        self.values = values
        self.flows = flows
        usersByEmail.reserveCapacity(users.count)
        idByNumber.reserveCapacity(users.count)
        emailByID.reserveCapacity(users.count)
        sessionsByHash.reserveCapacity(sessions.count)
        encodedUsers.reserveCapacity(users.count)
        encodedSessions.reserveCapacity(sessions.count)
        for (index, user) in users.enumerated() {
            if emailByID.updateValue(user.email, forKey: user.id) != nil { throw .userID(index: index, user.id) }
            if usersByEmail.updateValue(user, forKey: user.email) != nil { throw .email(index: index) }
            if let number = user.number, idByNumber.updateValue(user.id, forKey: number) != nil {
                throw .number(index: index, number)
            }
            encodedUsers.insertNew(user.email)
        }
        for (index, session) in sessions.enumerated() {
            if sessionsByHash.updateValue(session, forKey: session.tokenHash) != nil {
                throw .tokenHash(index: index)
            }
            encodedSessions.insertNew(session.tokenHash)
        }
    }

    var info: StoreInfo {
        StoreInfo(formatName: Self.formatName, formatVersion: formatVersion, storeID: storeID)
    }

    /// The number a new user gets: its own when given and free, else one past the highest ever
    /// given. Records the number as given.
    /// - Throws: ``AccountError/userNumberInUse(_:)`` for a given number that is taken or not
    ///   positive.
    mutating func number(for user: UserRecord) throws(AccountError) -> Int {
        guard let given = user.number else {
            lastUserNumber += 1
            return lastUserNumber
        }
        guard given > 0, idByNumber[given] == nil else { throw .userNumberInUse(given) }
        lastUserNumber = max(lastUserNumber, given)
        return given
    }

    /// Raises the highest number given to `number`; returns whether it was lower.
    mutating func raiseLastUserNumber(to number: Int) -> Bool {
        guard number > lastUserNumber else { return false }
        lastUserNumber = number
        return true
    }

    /// An older document upgraded to this build's format. Format 1 has its users numbered
    /// (``numberingUsers()``); formats 2 to 4 have their users encoded anew (an account made
    /// before format 4 is active, with its own password and no proven email) and their sessions
    /// too (one made before format 3 has no device name, one before format 5 is a family of its
    /// own).
    func upgraded() -> JSONStoreDocument {
        guard formatVersion >= 2 else { return numberingUsers() }
        var upgraded = self
        upgraded.formatVersion = Self.formatVersion
        for user in usersByEmail.values { upgraded.put(user) }
        for session in sortedSessions { upgraded.put(session) }
        return upgraded
    }

    /// A format-1 document upgraded to this build's format: its users numbered in creation
    /// order (ties by id), every record encoded anew.
    private func numberingUsers() -> JSONStoreDocument {
        var upgraded = JSONStoreDocument(storeID: storeID, createdAt: createdAt)
        let inOrder = usersByEmail.values.sorted { ($0.createdAt, $0.id.rawValue) < ($1.createdAt, $1.id.rawValue) }
        for var user in inOrder {
            user.number = upgraded.lastUserNumber + 1
            upgraded.lastUserNumber += 1
            upgraded.put(user)
        }
        for session in sortedSessions { upgraded.put(session) }
        return upgraded
    }

    func user(id: UserID) -> UserRecord? {
        emailByID[id].flatMap { usersByEmail[$0] }
    }

    /// Inserts or replaces a user (by id) keeping both indexes in step; `encoding: false` (a
    /// record read from the file) leaves its encoding to the first write.
    /// - Returns: `false` when another user already has this email.
    @discardableResult
    mutating func put(_ user: UserRecord, encoding: Bool = true) -> Bool {
        if let holder = usersByEmail[user.email], holder.id != user.id { return false }
        if let oldEmail = emailByID[user.id], oldEmail != user.email {
            usersByEmail[oldEmail] = nil
            encodedUsers.remove(oldEmail)
        }
        if let old = usersByEmail[user.email]?.number { idByNumber[old] = nil }
        usersByEmail[user.email] = user
        emailByID[user.id] = user.email
        if let number = user.number { idByNumber[number] = user.id }
        if encoding {
            encodedUsers.set(user.email, JSONStoreEncoder.encode(user))
        } else {
            encodedUsers.setUnencoded(user.email)
        }
        return true
    }

    mutating func removeUser(id: UserID) -> UserRecord? {
        guard let email = emailByID.removeValue(forKey: id) else { return nil }
        _ = removeSessions(of: id, except: nil)
        flows.removeAll(of: id)
        encodedUsers.remove(email)
        let user = usersByEmail.removeValue(forKey: email)
        if let number = user?.number { idByNumber[number] = nil }
        return user
    }

    mutating func put(_ session: SessionRecord, encoding: Bool = true) {
        sessionsByHash[session.tokenHash] = session
        if encoding {
            encodedSessions.set(session.tokenHash, JSONStoreEncoder.encode(session))
        } else {
            encodedSessions.setUnencoded(session.tokenHash)
        }
    }

    /// Encodes every record read from the file that no write has encoded yet, so this and
    /// later rewrites copy bytes (once per document: a server's first write pays it).
    mutating func encodeMissing() {
        let users = usersByEmail
        let sessions = sessionsByHash
        encodedUsers.encodeMissing { JSONStoreEncoder.encode(users[$0]!) }
        encodedSessions.encodeMissing { JSONStoreEncoder.encode(sessions[$0]!) }
    }

    /// The encoded JSON of the user with `email` (which must be in the document).
    func encodedUser(_ email: String) -> [UInt8] {
        encodedUsers[email] ?? JSONStoreEncoder.encode(usersByEmail[email]!)
    }

    /// The encoded JSON of the session with `tokenHash` (which must be in the document).
    func encodedSession(_ tokenHash: String) -> [UInt8] {
        encodedSessions[tokenHash] ?? JSONStoreEncoder.encode(sessionsByHash[tokenHash]!)
    }

    mutating func removeSession(tokenHash: String) -> SessionRecord? {
        encodedSessions.remove(tokenHash)
        return sessionsByHash.removeValue(forKey: tokenHash)
    }

    /// Removes every session of `userID` except `keep`; returns how many went.
    mutating func removeSessions(of userID: UserID, except keep: String?) -> Int {
        let doomed = Set(sessionsByHash.values.filter { $0.userID == userID && $0.tokenHash != keep }.map(\.tokenHash))
        for tokenHash in doomed { sessionsByHash[tokenHash] = nil }
        encodedSessions.remove(doomed)
        return doomed.count
    }

    func sessions(of userID: UserID) -> [SessionRecord] {
        sessionsByHash.values.filter { $0.userID == userID }.sorted { $0.tokenHash < $1.tokenHash }
    }

    /// Up to `limit` users after `email` (exclusive) in ascending email order (the file's order).
    func users(after email: String?, limit: Int) -> [UserRecord] {
        encodedUsers.keys(after: email).prefix(max(0, limit)).map { usersByEmail[$0]! }
    }

    /// Sessions in ascending token-hash order (the file's order).
    var sortedSessions: [SessionRecord] {
        encodedSessions.keys.map { sessionsByHash[$0]! }
    }
}
