public import AccountCore

/// A `UserRecord` as the project's JSON formats spell it (snake_case, `_ms` timestamps): the
/// JSON-file store and the export file read users through this one decoder.
public struct UserRecordFields: Decodable, Sendable {
    /// The decoded record.
    public let record: UserRecord

    enum Keys: String, CodingKey {
        case id, number, email, nickname
        case passwordHash = "password_hash"
        case createdAt = "created_at_ms"
        case passwordChangedAt = "password_changed_at_ms"
        case failedLoginCount = "failed_login_count"
        case lastFailedLoginAt = "last_failed_login_at_ms"
        case isBlocked = "blocked"
        case mustChangePassword = "must_change_password"
        case emailVerifiedAt = "email_verified_at_ms"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        record = UserRecord(
            id: UserID(rawValue: try c.decode(String.self, forKey: .id)),
            email: try c.decode(String.self, forKey: .email),
            nickname: try c.decode(String.self, forKey: .nickname),
            passwordHash: try c.decode(String.self, forKey: .passwordHash),
            createdAt: Timestamp(millisecondsSince1970: try c.decode(Int64.self, forKey: .createdAt)),
            passwordChangedAt: Timestamp(millisecondsSince1970: try c.decode(Int64.self, forKey: .passwordChangedAt)),
            failedLoginCount: try c.decode(Int.self, forKey: .failedLoginCount),
            lastFailedLoginAt: try c.decodeIfPresent(Int64.self, forKey: .lastFailedLoginAt).map {
                Timestamp(millisecondsSince1970: $0)
            },
            number: try c.decodeIfPresent(Int.self, forKey: .number),
            isBlocked: try c.decodeIfPresent(Bool.self, forKey: .isBlocked) ?? false,
            mustChangePassword: try c.decodeIfPresent(Bool.self, forKey: .mustChangePassword) ?? false,
            emailVerifiedAt: try c.decodeIfPresent(Int64.self, forKey: .emailVerifiedAt).map {
                Timestamp(millisecondsSince1970: $0)
            })
    }
}

/// A `SessionRecord` as the project's JSON formats spell it.
public struct SessionRecordFields: Decodable, Sendable {
    /// The decoded record.
    public let record: SessionRecord

    enum Keys: String, CodingKey {
        case tokenHash = "token_sha256"
        case userID = "user_id"
        case createdAt = "created_at_ms"
        case lastSeenAt = "last_seen_at_ms"
        case expiresAt = "expires_at_ms"
        case idleTimeout = "idle_timeout_s"
        case remember, device, family
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        record = SessionRecord(
            tokenHash: try c.decode(String.self, forKey: .tokenHash),
            userID: UserID(rawValue: try c.decode(String.self, forKey: .userID)),
            createdAt: Timestamp(millisecondsSince1970: try c.decode(Int64.self, forKey: .createdAt)),
            lastSeenAt: Timestamp(millisecondsSince1970: try c.decode(Int64.self, forKey: .lastSeenAt)),
            expiresAt: Timestamp(millisecondsSince1970: try c.decode(Int64.self, forKey: .expiresAt)),
            idleTimeoutSeconds: try c.decode(Int64.self, forKey: .idleTimeout),
            remember: try c.decode(Bool.self, forKey: .remember),
            device: try c.decodeIfPresent(String.self, forKey: .device) ?? "",
            family: try c.decodeIfPresent(String.self, forKey: .family))
    }
}

/// A `ProviderIdentity` as the project's JSON formats spell it.
public struct ProviderIdentityFields: Decodable, Sendable {
    /// The decoded record.
    public let record: ProviderIdentity

    enum Keys: String, CodingKey {
        case provider, subject, email
        case userID = "user_id"
        case linkedAt = "linked_at_ms"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        record = ProviderIdentity(
            provider: try c.decode(String.self, forKey: .provider),
            subject: try c.decode(String.self, forKey: .subject),
            userID: UserID(rawValue: try c.decode(String.self, forKey: .userID)),
            email: try c.decodeIfPresent(String.self, forKey: .email),
            linkedAt: Timestamp(millisecondsSince1970: try c.decode(Int64.self, forKey: .linkedAt)))
    }
}
