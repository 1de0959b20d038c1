import CLMDB

/// The named databases of an AccountStore LMDB environment and the format stamp in `meta`.
///
/// - `meta`: `format` → `accountstore-lmdb`, `format_version` → decimal, `store_id`,
///   `created_at_ms`, `last_user_number` → decimal (the highest user number ever given)
/// - `users`: user id → encoded `UserRecord` (without its id)
/// - `numbers`: user number, 8 bytes big-endian → user id (format 2 on)
/// - `emails`: normalized email → user id (the uniqueness index)
/// - `sessions`: token SHA-256 hex → encoded `SessionRecord` (without its token hash)
/// - `user_sessions`: user id + token SHA-256 hex → empty (a user's sessions, by prefix)
/// - `values`: a key the services chose → its UTF-8 text (format 4 on)
/// - `rotated`: a replaced token's SHA-256 hex → encoded `RotatedToken`; `user_rotated`: user id
///   + token hash → empty (format 5 on, as every database below)
/// - `codes`: a code's SHA-256 hex → encoded `OneTimeCode`; `user_codes`: user id + purpose →
///   the code's hash
/// - `outbox`: a mail's id → encoded `OutboxMail`
/// - `identities`: provider + subject → encoded `ProviderIdentity`; `user_identities`: user id
///   + provider + subject → empty
struct LMDBLayout {
    static let formatName = "accountstore-lmdb"
    /// 2 numbers the users (the `numbers` database, `last_user_number`, user records of
    /// version 2); 3 names each session's device (session records of version 2); 4 keeps each
    /// account's state (user records of version 3) and the services' values; 5 each session's
    /// family (session records of version 3), rotated tokens, codes, the outbox and
    /// identities.
    static let formatVersion = 5
    static let names = [
        "meta", "users", "emails", "sessions", "user_sessions", "numbers", "values", "rotated", "user_rotated", "codes",
        "user_codes", "outbox", "identities", "user_identities",
    ]
    static let lastUserNumberKey = Array("last_user_number".utf8)

    var meta: MDB_dbi = 0
    var users: MDB_dbi = 0
    var emails: MDB_dbi = 0
    var sessions: MDB_dbi = 0
    var userSessions: MDB_dbi = 0
    var numbers: MDB_dbi = 0
    var values: MDB_dbi = 0
    var rotated: MDB_dbi = 0
    var userRotated: MDB_dbi = 0
    var codes: MDB_dbi = 0
    var userCodes: MDB_dbi = 0
    var outbox: MDB_dbi = 0
    var identities: MDB_dbi = 0
    var userIdentities: MDB_dbi = 0

    init() {}

    init(handles: [MDB_dbi]) {
        meta = handles[0]
        users = handles[1]
        emails = handles[2]
        sessions = handles[3]
        userSessions = handles[4]
        numbers = handles[5]
        values = handles[6]
        rotated = handles[7]
        userRotated = handles[8]
        codes = handles[9]
        userCodes = handles[10]
        outbox = handles[11]
        identities = handles[12]
        userIdentities = handles[13]
    }

    /// `first` NUL `second`: a key of two parts, the first of which holds no NUL (a user id, a
    /// configured provider name).
    static func pair(_ first: String, _ second: String) -> [UInt8] {
        Array(first.utf8) + [0] + Array(second.utf8)
    }

    /// The `user_sessions` key of one session.
    static func userSessionKey(_ userID: String, _ tokenHash: String) -> [UInt8] {
        Array(userID.utf8) + [0] + Array(tokenHash.utf8)
    }

    /// The prefix every `user_sessions` key of a user starts with.
    static func userSessionPrefix(_ userID: String) -> [UInt8] {
        Array(userID.utf8) + [0]
    }
}
