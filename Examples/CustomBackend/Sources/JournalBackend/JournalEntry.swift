import AccountCore

/// One line of the journal after the header: one transaction. Applying it is all or nothing,
/// because a line is written with one `write` and only counts once its newline is on disk.
struct JournalEntry: Codable, Sendable {
    var deleteSessions: [String]? = nil
    var deleteUsers: [UserID]? = nil
    var putUsers: [UserRecord]? = nil
    var putSessions: [SessionRecord]? = nil
    /// Raises the highest user number given (a migration carries its source's).
    var lastUserNumber: Int? = nil
    /// The services' values set (a `nil` value removes its key).
    var values: [String: String?]? = nil
    /// Refresh tokens replaced by a rotation, kept to recognise their replay.
    var putRotated: [RotatedToken]? = nil
    /// Replaced refresh tokens forgotten once they expired (a program that does not know this
    /// key keeps them, which is harmless: they only match a replay).
    var deleteRotated: [String]? = nil
    /// Families whose live sessions are revoked, each with its owner's id.
    var revokeFamilies: [FamilyOfUser]? = nil
    var deleteCodes: [String]? = nil
    var putCodes: [OneTimeCode]? = nil
    var deleteMail: [String]? = nil
    var putMail: [OutboxMail]? = nil
    var deleteIdentities: [IdentityKey]? = nil
    var putIdentities: [ProviderIdentity]? = nil
}

/// A refresh family and the user it belongs to.
struct FamilyOfUser: Codable, Sendable, Hashable {
    var family: String
    var userID: UserID
}

/// Which provider identity a line removes.
struct IdentityKey: Codable, Sendable, Hashable {
    var provider: String
    var subject: String
}

/// The first line: what the file is.
package struct JournalHeader: Codable, Sendable {
    package static let formatName = "accountstore-journal"
    /// 2 numbers the users (`UserRecord.number` in every user put); 3 names each session's
    /// device (`SessionRecord.device`, which a journal of version 2 never wrote); 4 keeps each
    /// account's state (which older journals never wrote: their accounts are active, with their
    /// own password, not proven) and the services' values; 5 keeps refresh families (a session
    /// of an older journal is its own family), one-time codes, the outbox and provider
    /// identities. An older journal is upgraded when a program that may write opens it
    /// (`JournalUpgrade`).
    static let formatVersion = 5

    var format: String
    var formatVersion: Int
    var storeID: String

    package init(format: String, formatVersion: Int, storeID: String) {
        self.format = format
        self.formatVersion = formatVersion
        self.storeID = storeID
    }

    enum CodingKeys: String, CodingKey {
        case format
        case formatVersion = "format_version"
        case storeID = "store_id"
    }
}
