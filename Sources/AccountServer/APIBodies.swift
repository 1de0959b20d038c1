import AccountCore

// The JSON bodies of the native API (snake_case, as `accounts … --json` prints).

struct SignUpBody: Decodable {
    let email: String
    let password: String
    /// Optional: a client that has no confirmation field sends the password once.
    let confirmation: String?
    let nickname: String
    let remember: Bool?
}

struct LoginBody: Decodable {
    let email: String
    let password: String
    let remember: Bool?
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
}

struct WithdrawBody: Decodable {
    let password: String
}

/// A user as the API shows it: never a hash, never a token.
struct UserBody: Encodable {
    let id: String
    let email: String
    let nickname: String
    let createdAtMs: Int64

    init(_ profile: AccountProfile) {
        id = profile.id.rawValue
        email = profile.email
        nickname = profile.nickname
        createdAtMs = profile.createdAt.millisecondsSince1970
    }

    enum CodingKeys: String, CodingKey {
        case id, email, nickname
        case createdAtMs = "created_at_ms"
    }
}

struct SessionBody: Encodable {
    let ok = true
    let token: String
    let expiresAtMs: Int64
    let user: UserBody

    init(_ session: SignedInSession) {
        token = session.token
        expiresAtMs = session.expiresAt.millisecondsSince1970
        user = UserBody(session.profile)
    }

    enum CodingKeys: String, CodingKey {
        case ok, token, user
        case expiresAtMs = "expires_at_ms"
    }
}

/// The start/welcome screen's data.
struct MeBody: Encodable {
    let ok = true
    let user: UserBody
    /// "{nickname} 님 환영합니다." or "Welcome, {nickname}.", by `Accept-Language`.
    let welcome: String
}

struct DoneBody: Encodable {
    let ok = true
}

struct HealthBody: Encodable {
    let ok = true
    let backend: String
}

struct FailureBody: Encodable {
    let ok = false
    let code: String
    let message: String
}
