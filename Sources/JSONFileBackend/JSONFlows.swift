import AccountCore

/// What a JSON store keeps for the account flows beside users and sessions (format 5 on):
/// rotated tokens, codes, the outbox and linked identities, each list in its key's order.
struct JSONFlows: Sendable, Equatable {
    var rotated: [String: RotatedToken] = [:]
    var codes: [String: OneTimeCode] = [:]
    var outbox: [String: OutboxMail] = [:]
    /// By ``identityKey(_:_:)``.
    var identities: [String: ProviderIdentity] = [:]

    static func identityKey(_ provider: String, _ subject: String) -> String { provider + "\u{0}" + subject }

    /// Removes everything of `userID` (a withdrawal).
    mutating func removeAll(of userID: UserID) {
        rotated = rotated.filter { $0.value.userID != userID }
        codes = codes.filter { $0.value.userID != userID }
        identities = identities.filter { $0.value.userID != userID }
    }

    /// Removes the user's code of `purpose`; whether there was one.
    @discardableResult
    mutating func removeCode(of userID: UserID, purpose: OneTimeCode.Purpose) -> Bool {
        guard let hash = codes.first(where: { $0.value.userID == userID && $0.value.purpose == purpose })?.key else {
            return false
        }
        codes[hash] = nil
        return true
    }

    /// Keys in the order every list is written: UTF-8 byte order.
    static func sorted(_ keys: some Collection<String>) -> [String] {
        keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
}
