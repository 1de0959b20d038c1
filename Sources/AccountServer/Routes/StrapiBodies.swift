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
    /// The device token an earlier registration or login on this device returned (not
    /// Strapi's; its clients leave it out and are unknown devices).
    let deviceToken: String?

    enum CodingKeys: String, CodingKey {
        case identifier, password
        case deviceToken = "device_token"
    }

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        identifier = try fields.decode(String.self, forKey: .identifier)
        password = try fields.decode(String.self, forKey: .password)
        deviceToken = try fields.decodeIfGiven(String.self, forKey: .deviceToken)
    }
}

struct StrapiChangePasswordBody: Decodable {
    let currentPassword: String
    let password: String
    let passwordConfirmation: String
}
