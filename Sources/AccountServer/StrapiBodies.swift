import AccountCore

// The JSON bodies of Strapi's users-permissions auth routes (camelCase, as Strapi sends them).

struct StrapiRegisterBody: Decodable {
    /// The nickname (Strapi's `username`).
    let username: String
    let email: String
    let password: String
}

struct StrapiLoginBody: Decodable {
    /// The email (Strapi also accepts a username here; AccountStore signs in by email only).
    let identifier: String
    let password: String
}

struct StrapiChangePasswordBody: Decodable {
    let currentPassword: String
    let password: String
    let passwordConfirmation: String
}

/// A user as Strapi shows one. `id` is AccountStore's 32-hex-digit id (Strapi's is a number);
/// `confirmed` is always true and `blocked` always false, as AccountStore has neither state.
struct StrapiUser: Encodable {
    let id: String
    let documentId: String
    let username: String
    let email: String
    let provider = "local"
    let confirmed = true
    let blocked = false
    let createdAt: String
    let updatedAt: String

    init(_ profile: AccountProfile) {
        id = profile.id.rawValue
        documentId = profile.id.rawValue
        username = profile.nickname
        email = profile.email
        createdAt = profile.createdAt.iso8601
        updatedAt = profile.createdAt.iso8601
    }
}

/// `{jwt, user}`: `jwt` carries AccountStore's opaque session token, which the server can
/// revoke (logout, password change, withdrawal); clients treat it as opaque.
struct StrapiAuthBody: Encodable {
    let jwt: String
    let user: StrapiUser

    init(_ session: SignedInSession) {
        self.init(token: session.token, profile: session.profile)
    }

    init(token: String, profile: AccountProfile) {
        jwt = token
        user = StrapiUser(profile)
    }
}

struct StrapiFailureBody: Encodable {
    struct Failure: Encodable {
        let status: Int
        let name: String
        let message: String
        let details: [String: String]
    }

    let data: String? = nil
    let error: Failure

    enum CodingKeys: String, CodingKey { case data, error }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeNil(forKey: .data)
        try container.encode(error, forKey: .error)
    }
}
