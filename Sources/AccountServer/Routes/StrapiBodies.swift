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
    /// Strapi v5's device id: the session's device name here (else read from `User-Agent`),
    /// which `POST /api/auth/logout` takes back to sign that device out.
    let deviceID: String?

    enum CodingKeys: String, CodingKey {
        case identifier, password
        case deviceToken = "device_token"
        case deviceID = "deviceId"
    }

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        identifier = try fields.decode(String.self, forKey: .identifier)
        password = try fields.decode(String.self, forKey: .password)
        deviceToken = try fields.decodeIfGiven(String.self, forKey: .deviceToken)
        deviceID = try fields.decodeDeviceName(forKey: .deviceID)
    }
}

/// Strapi v5's logout: without `deviceId`, every session of the user. Any other field is
/// refused by name: with nothing required, a misspelt `deviceId` would otherwise sign out every
/// session instead of one device's.
struct StrapiLogoutBody: Decodable {
    /// A device name given at login, or a session's public id.
    let deviceID: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case deviceID = "deviceId"
    }

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: AnyFieldKey.self)
        if let unexpected = fields.allKeys.first(where: { CodingKeys(stringValue: $0.stringValue) == nil }) {
            throw UnexpectedField(field: unexpected.stringValue)
        }
        deviceID = try decoder.container(keyedBy: CodingKeys.self).decodeIfGiven(String.self, forKey: .deviceID)
    }
}

/// Any field name of a JSON object.
struct AnyFieldKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// A field the route does not take, in a body that refuses them; `decode` answers it as
/// `invalid_request` naming the field.
struct UnexpectedField: Error {
    let field: String
}

/// Strapi v5's refresh.
struct StrapiRefreshBody: Decodable {
    let refreshToken: String
}

struct StrapiChangePasswordBody: Decodable {
    let currentPassword: String
    let password: String
    let passwordConfirmation: String
}
