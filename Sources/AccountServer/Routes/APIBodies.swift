import AccountCore
import AccountJSON

// The JSON bodies of the native API (snake_case, as `accounts … --json` prints).

struct SignUpBody: Decodable {
    let email: String
    let password: String
    /// Optional: a client that has no confirmation field sends the password once.
    let confirmation: String?
    let nickname: String
    let remember: Bool?
    /// The name of the device the session is opened on (else read from `User-Agent`).
    let deviceName: String?

    enum CodingKeys: String, CodingKey {
        case email, password, confirmation, nickname, remember
        case deviceName = "device"
    }

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        email = try fields.decode(String.self, forKey: .email)
        password = try fields.decode(String.self, forKey: .password)
        confirmation = try fields.decodeIfGiven(String.self, forKey: .confirmation)
        nickname = try fields.decode(String.self, forKey: .nickname)
        remember = try fields.decodeIfGiven(Bool.self, forKey: .remember)
        deviceName = try fields.decodeDeviceName(forKey: .deviceName)
    }
}

/// `POST /v1/refresh`: the session's token (`refresh_token` with signed access tokens).
struct RefreshBody: Decodable {
    let refreshToken: String

    enum CodingKeys: String, CodingKey {
        case refreshToken = "refresh_token"
    }
}

struct LoginBody: Decodable {
    let email: String
    let password: String
    let remember: Bool?
    /// The device token an earlier sign-up or login on this device returned.
    let deviceToken: String?
    /// The name of the device the session is opened on (else read from `User-Agent`).
    let deviceName: String?
    /// The password replacing a temporary one (and its confirmation, else itself).
    let replacement: NewPassword?

    enum CodingKeys: String, CodingKey {
        case email, password, remember, confirmation
        case deviceToken = "device_token"
        case deviceName = "device"
        case newPassword = "new_password"
    }

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        email = try fields.decode(String.self, forKey: .email)
        password = try fields.decode(String.self, forKey: .password)
        remember = try fields.decodeIfGiven(Bool.self, forKey: .remember)
        deviceToken = try fields.decodeIfGiven(String.self, forKey: .deviceToken)
        deviceName = try fields.decodeDeviceName(forKey: .deviceName)
        let newPassword = try fields.decodeIfGiven(String.self, forKey: .newPassword)
        let confirmation = try fields.decodeIfGiven(String.self, forKey: .confirmation)
        replacement = newPassword.map { NewPassword($0, confirmation: confirmation ?? $0) }
    }
}

struct ChangePasswordBody: Decodable {
    let currentPassword: String
    let newPassword: String
    let confirmation: String?

    enum CodingKeys: String, CodingKey {
        case currentPassword = "current_password"
        case newPassword = "new_password"
        case confirmation
    }

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        currentPassword = try fields.decode(String.self, forKey: .currentPassword)
        newPassword = try fields.decode(String.self, forKey: .newPassword)
        confirmation = try fields.decodeIfGiven(String.self, forKey: .confirmation)
    }
}

struct WithdrawBody: Decodable {
    let password: String
}

/// The answers of both route families as JSON values, written by hand rather than through
/// `JSONEncoder` (a tenth of a signed-in read's time went to it). Keys are in alphabetical
/// order, so the same answer is always the same bytes.
enum APIBody {
    /// A user as the native API shows one: never a hash, never a token.
    static func user(_ profile: AccountProfile) -> JSONValue {
        .object([
            ("created_at_ms", .int(profile.createdAt.millisecondsSince1970)), ("email", .string(profile.email)),
            ("email_verified", .bool(profile.emailVerifiedAt != nil)), ("id", .string(profile.id.rawValue)),
            ("nickname", .string(profile.nickname)), ("number", .int(Int64(profile.number))),
        ])
    }

    /// A new session, with the device token the client sends with its next logins (a
    /// refresh has none). With signed access tokens `token` is the access token, until
    /// `access_expires_at_ms`, and `refresh_token` the session's own token, which `POST
    /// /v1/refresh` trades for a new pair; otherwise `token` is the session's token.
    static func session(_ session: SignedInSession, deviceToken: String?) -> JSONValue {
        var fields: [(String, JSONValue)] = []
        if let access = session.access {
            fields.append(("access_expires_at_ms", .int(access.expiresAt.millisecondsSince1970)))
        }
        if let deviceToken { fields.append(("device_token", .string(deviceToken))) }
        fields += [("expires_at_ms", .int(session.expiresAt.millisecondsSince1970)), ("ok", .bool(true))]
        if session.access != nil { fields.append(("refresh_token", .string(session.token))) }
        fields += [("token", .string(session.access?.token ?? session.token)), ("user", user(session.profile))]
        return .object(fields)
    }

    /// The start/welcome screen's data; `welcome` is "{nickname} 님 환영합니다." or
    /// "Welcome, {nickname}.", by `Accept-Language`.
    static func me(_ profile: AccountProfile, welcome: String) -> JSONValue {
        .object([("ok", .bool(true)), ("user", user(profile)), ("welcome", .string(welcome))])
    }

    static let done = JSONValue.object([("ok", .bool(true))])

    /// An identity linked to the account: the provider, its id of the person, the email it
    /// gave when linked, and when.
    static func identity(_ identity: ProviderIdentity) -> JSONValue {
        .object([
            ("email", identity.email.map(JSONValue.string) ?? .null),
            ("linked_at_ms", .int(identity.linkedAt.millisecondsSince1970)), ("provider", .string(identity.provider)),
            ("subject", .string(identity.subject)),
        ])
    }

    /// `done`, with how many sessions a logout of other or all sessions revoked.
    static func revoked(_ count: Int) -> JSONValue {
        .object([("ok", .bool(true)), ("revoked", .int(Int64(count)))])
    }

    /// Where the user is signed in: never a token, never a token's hash.
    static func sessions(_ sessions: [SessionSummary]) -> JSONValue {
        .object([
            ("ok", .bool(true)),
            (
                "sessions",
                .array(
                    sessions.map { session in
                        .object([
                            ("created_at_ms", .int(session.createdAt.millisecondsSince1970)),
                            ("current", .bool(session.current)), ("device", .string(session.device)),
                            ("expires_at_ms", .int(session.expiresAt.millisecondsSince1970)),
                            ("id", .string(session.id)),
                            ("last_used_at_ms", .int(session.lastUsedAt.millisecondsSince1970)),
                        ])
                    })
            ),
        ])
    }

    /// `disk_free_bytes` only where the store's files are on this host's disk.
    static func health(backend: String, diskFreeBytes: Int64?) -> JSONValue {
        .object(
            [("backend", .string(backend))] + (diskFreeBytes.map { [("disk_free_bytes", .int($0))] } ?? [])
                + [("ok", .bool(true))])
    }

    /// `problems`, every rule each field broke, only when a field broke one.
    static func failure(
        code: String, message: String, fieldProblems: [(field: String, code: String, message: String)] = []
    ) -> JSONValue {
        let problems = fieldProblems.map { problem in
            JSONValue.object([
                ("code", .string(problem.code)), ("field", .string(problem.field)),
                ("message", .string(problem.message)),
            ])
        }
        return .object(
            [("code", .string(code)), ("message", .string(message)), ("ok", .bool(false))]
                + (problems.isEmpty ? [] : [("problems", .array(problems))]))
    }

    /// A user as Strapi shows one. `id` is the user's number, a JSON integer as Strapi's is, and
    /// `documentId` AccountStore's 32-hex-digit id (Strapi v5's string id). `blocked` is false:
    /// a blocked account is never signed in, so no answer shows one. `confirmed` is true for a
    /// proven email and, as Strapi shows it, for every user when sign-up does not require proof
    /// (`proofRequired` false); otherwise false until the email is proven.
    static func strapiUser(_ profile: AccountProfile, proofRequired: Bool) -> JSONValue {
        .object([
            ("blocked", .bool(false)), ("confirmed", .bool(profile.emailVerifiedAt != nil || !proofRequired)),
            ("createdAt", .string(profile.createdAt.iso8601)),
            ("documentId", .string(profile.id.rawValue)), ("email", .string(profile.email)),
            ("id", .int(Int64(profile.number))), ("provider", .string("local")),
            // Strapi v5 publishes every user when it is made (users have no drafts).
            ("publishedAt", .string(profile.createdAt.iso8601)),
            ("updatedAt", .string(profile.updatedAt.iso8601)), ("username", .string(profile.nickname)),
        ])
    }

    /// `{jwt, refreshToken, user}`: `jwt` is what the client sends with its requests: the
    /// session's opaque token, which the server can revoke (logout, password change,
    /// withdrawal), or with signed access tokens a short-lived JWT. `refreshToken` is the
    /// session's token, for clients of Strapi v5's session mode: `POST /api/auth/refresh` trades
    /// it for a new one (absent when the answer has no new session and the request came with a
    /// JWT). A new session carries its device token too (an extra key Strapi clients ignore).
    static func strapiAuth(
        jwt: String, refreshToken: String?, profile: AccountProfile, proofRequired: Bool, deviceToken: String? = nil
    ) -> JSONValue {
        var fields: [(String, JSONValue)] = [("jwt", .string(jwt))]
        if let refreshToken { fields.append(("refreshToken", .string(refreshToken))) }
        fields.append(("user", strapiUser(profile, proofRequired: proofRequired)))
        if let deviceToken { fields.insert(("device_token", .string(deviceToken)), at: 0) }
        return .object(fields)
    }

    /// ``strapiAuth(jwt:refreshToken:profile:proofRequired:deviceToken:)`` of a new session.
    static func strapiAuth(_ session: SignedInSession, proofRequired: Bool, deviceToken: String?) -> JSONValue {
        strapiAuth(
            jwt: session.access?.token ?? session.token, refreshToken: session.token, profile: session.profile,
            proofRequired: proofRequired, deviceToken: deviceToken)
    }

    /// Strapi's answer to a refresh: the new `jwt` and `refreshToken` (the same token unless
    /// access tokens are signed).
    static func strapiRefresh(_ session: SignedInSession) -> JSONValue {
        .object([("jwt", .string(session.access?.token ?? session.token)), ("refreshToken", .string(session.token))])
    }

    /// With field problems, `details.errors` lists them as Strapi lists a form's validation
    /// errors (`path`, `message`, `name`), each with its stable `code` too.
    static func strapiFailure(
        status: Int, name: String, message: String, code: String,
        fieldProblems: [(field: String, code: String, message: String)] = []
    ) -> JSONValue {
        let errors = fieldProblems.map { problem in
            JSONValue.object([
                ("code", .string(problem.code)), ("message", .string(problem.message)),
                ("name", .string("ValidationError")), ("path", .array([.string(problem.field)])),
            ])
        }
        let details: JSONValue = .object(
            [("code", .string(code))] + (errors.isEmpty ? [] : [("errors", .array(errors))]))
        return .object([
            ("data", .null),
            (
                "error",
                .object([
                    ("details", details), ("message", .string(message)), ("name", .string(name)),
                    ("status", .int(Int64(status))),
                ])
            ),
        ])
    }
}
