public import AccountCore
import AccountJSON

/// The export format: versioned JSON Lines.
///
/// 1. a header `{"format":"accountstore-export","version":3,"source_backend":…,"store_id":…,
///    "users":N,"with_sessions":…,"exported_at_ms":…,"last_user_number":…}` (the highest user
///    number the store ever gave, so that an import never gives one of a withdrawn user again);
/// 2. one `{"type":"user",…}` line per user in ascending email order, each followed by its
///    `{"type":"session",…}` lines when sessions are exported, then its
///    `{"type":"identity",…}` lines (its sign-ins at outside providers, always exported);
/// 3. a trailer `{"type":"end","users":N,"sessions":M,"sha256":…}` whose digest covers every
///    byte before it, so a truncated or edited file is refused before anything is written.
///
/// Version 2 adds the user's `number` after its `id`, and `last_user_number`; a version-1 file
/// (no numbers) is still read, its users numbered by the store they are imported into.
///
/// A session line ends with its `device` name when it has one (0.3.0 on); a line without it is a
/// session with none, so older files read as they were written.
///
/// Version 3 keeps an account's state: a user line ends with `blocked: true`,
/// `must_change_password: true` and `email_verified_at_ms` when they hold; a line without them
/// is an active account with its own password and an email not proven. (A version bump, not
/// an optional field only: a build that reads version 2 must refuse a blocked user rather than
/// bring it in active.)
///
/// Version 4 keeps refresh families and provider identities: a session line ends with its
/// `family` when it is not the session's own token digest (a session renewed by a refresh),
/// and identity lines follow a user's sessions. One-time codes, replaced refresh tokens and
/// queued mail are not exported: they belong to flows in progress (a code lives an hour), and
/// `export` and `migrate` say how many mails were still queued.
///
/// Password hashes are exported (the users must log in afterwards); session tokens never are,
/// only their SHA-256 digests, as stored.
public enum ExportFormat {
    /// The `format` of the header.
    public static let name = "accountstore-export"
    /// The version this build writes; it reads this one and every one before.
    public static let version = 4

    static func header(
        sourceBackend: String, storeID: String, users: Int, withSessions: Bool, at time: Timestamp,
        lastUserNumber: Int
    ) -> String {
        JSONValue.object([
            ("format", .string(name)), ("version", .int(Int64(version))), ("source_backend", .string(sourceBackend)),
            ("store_id", .string(storeID)), ("users", .int(Int64(users))), ("with_sessions", .bool(withSessions)),
            ("exported_at_ms", .int(time.millisecondsSince1970)), ("last_user_number", .int(Int64(lastUserNumber))),
        ]).serialized()
    }

    /// The canonical line of a user (also what store digests hash), as `version` writes it:
    /// version 1 had no `number`, versions 1 and 2 no account state.
    public static func line(_ user: UserRecord, version: Int = version) -> String {
        let number: [(String, JSONValue)] =
            version >= 2 ? [("number", user.number.map { .int(Int64($0)) } ?? .null)] : []
        var state: [(String, JSONValue)] = []
        if version >= 3 {
            if user.isBlocked { state.append(("blocked", .bool(true))) }
            if user.mustChangePassword { state.append(("must_change_password", .bool(true))) }
            if let verified = user.emailVerifiedAt {
                state.append(("email_verified_at_ms", .int(verified.millisecondsSince1970)))
            }
        }
        return JSONValue.object(
            [("type", .string("user")), ("id", .string(user.id.rawValue))] + number + [
                ("email", .string(user.email)),
                ("nickname", .string(user.nickname)), ("password_hash", .string(user.passwordHash)),
                ("created_at_ms", .int(user.createdAt.millisecondsSince1970)),
                ("password_changed_at_ms", .int(user.passwordChangedAt.millisecondsSince1970)),
                ("failed_login_count", .int(Int64(user.failedLoginCount))),
                ("last_failed_login_at_ms", user.lastFailedLoginAt.map { .int($0.millisecondsSince1970) } ?? .null),
            ] + state
        ).serialized()
    }

    /// The canonical line of a session: `device` only when it names one.
    public static func line(_ session: SessionRecord) -> String {
        var fields: [(String, JSONValue)] = [
            ("type", .string("session")), ("token_sha256", .string(session.tokenHash)),
            ("user_id", .string(session.userID.rawValue)),
            ("created_at_ms", .int(session.createdAt.millisecondsSince1970)),
            ("last_seen_at_ms", .int(session.lastSeenAt.millisecondsSince1970)),
            ("expires_at_ms", .int(session.expiresAt.millisecondsSince1970)),
            ("idle_timeout_s", .int(session.idleTimeoutSeconds)), ("remember", .bool(session.remember)),
        ]
        if !session.device.isEmpty { fields.append(("device", .string(session.device))) }
        if session.family != session.tokenHash { fields.append(("family", .string(session.family))) }
        return JSONValue.object(fields).serialized()
    }

    /// The canonical line of a provider identity: `email` only when the provider gave one.
    public static func line(_ identity: ProviderIdentity) -> String {
        var fields: [(String, JSONValue)] = [
            ("type", .string("identity")), ("provider", .string(identity.provider)),
            ("subject", .string(identity.subject)), ("user_id", .string(identity.userID.rawValue)),
        ]
        if let email = identity.email { fields.append(("email", .string(email))) }
        fields.append(("linked_at_ms", .int(identity.linkedAt.millisecondsSince1970)))
        return JSONValue.object(fields).serialized()
    }

    static func trailer(users: Int, sessions: Int, digest: String) -> String {
        JSONValue.object([
            ("type", .string("end")), ("users", .int(Int64(users))), ("sessions", .int(Int64(sessions))),
            ("sha256", .string(digest)),
        ]).serialized()
    }
}
