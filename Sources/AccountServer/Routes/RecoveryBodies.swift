/// `POST /v1/password/forgot`, `/v1/email/verify/resend` without a session, Strapi's
/// `forgot-password` and `send-email-confirmation`.
struct MailRequestBody: Decodable {
    let email: String
}

/// `POST /v1/password/reset`.
struct ResetPasswordBody: Decodable {
    let code: String
    let password: String
    let confirmation: String?
    let remember: Bool?
    let deviceName: String?

    enum CodingKeys: String, CodingKey {
        case code, password, confirmation, remember
        case deviceName = "device"
    }

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        code = try fields.decode(String.self, forKey: .code)
        password = try fields.decode(String.self, forKey: .password)
        confirmation = try fields.decodeIfGiven(String.self, forKey: .confirmation)
        remember = try fields.decodeIfGiven(Bool.self, forKey: .remember)
        deviceName = try fields.decodeDeviceName(forKey: .deviceName)
    }
}

/// `POST /v1/email/verify`.
struct VerifyEmailBody: Decodable {
    let code: String
}

/// Strapi's `POST /api/auth/reset-password`.
struct StrapiResetPasswordBody: Decodable {
    let code: String
    let password: String
    let passwordConfirmation: String
}
