public import AccountCore

/// One ES256 (ECDSA P-256, SHA-256) key that signs access tokens, as the key file keeps it.
public struct SigningKey: Sendable, Hashable, Codable {
    /// The key's id (`kid`): 16 hex digits, in every token it signs and in the key set.
    public let id: String
    private let createdAtMilliseconds: Int64
    private var retiredAtMilliseconds: Int64?
    /// The private key in PEM (PKCS #8). Only the key file holds it.
    let privateKeyPEM: String

    enum CodingKeys: String, CodingKey {
        case id = "kid"
        case createdAtMilliseconds = "created_at_ms"
        case retiredAtMilliseconds = "retired_at_ms"
        case privateKeyPEM = "private_key_pem"
    }

    init(id: String, createdAt: Timestamp, privateKeyPEM: String) {
        self.id = id
        createdAtMilliseconds = createdAt.millisecondsSince1970
        self.privateKeyPEM = privateKeyPEM
    }

    /// When it was made.
    public var createdAt: Timestamp { Timestamp(millisecondsSince1970: createdAtMilliseconds) }

    /// When a newer key took its place; nil for the current key. A retired key still checks
    /// tokens until the last one it signed has expired.
    public var retiredAt: Timestamp? {
        get { retiredAtMilliseconds.map(Timestamp.init(millisecondsSince1970:)) }
        set { retiredAtMilliseconds = newValue?.millisecondsSince1970 }
    }
}
