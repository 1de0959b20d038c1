public import AccountCore
import CSodium
import Foundation

/// Django's `bcrypt_sha256$` hashes: bcrypt over the hex SHA-256 of the password
/// (`BCryptSHA256PasswordHasher`), so that passwords longer than bcrypt's 72 bytes count whole.
public struct DjangoBcryptSHA256Scheme: PasswordScheme {
    public let name = "django_bcrypt_sha256"
    private static let prefix = "bcrypt_sha256$"

    public init() {}

    public func owns(_ stored: String) -> Bool {
        stored.hasPrefix(Self.prefix)
    }

    public func costProblem(_ stored: String, within limits: LegacyCostLimits) -> String? {
        limits.problem(bcrypt: stored.dropFirst(Self.prefix.count))
    }

    public func verify(_ password: String, against stored: String) -> Bool {
        let bcrypt = String(stored.dropFirst(Self.prefix.count))
        var digest = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_BYTES))
        let bytes = Array(password.utf8)
        crypto_hash_sha256(&digest, bytes, UInt64(bytes.count))
        let phrase = Array(Hex.encode(digest).utf8)
        return CryptScheme.crypt(phrase, setting: bcrypt).map {
            ConstantTime.equal(Array($0.utf8), Array(bcrypt.utf8))
        } ?? false
    }
}

/// Django's PBKDF2 hashes, `pbkdf2_sha256$<iterations>$<salt>$<base64 digest>` (its default
/// hasher) and `pbkdf2_sha1$…`, verified with ``PBKDF2``.
public struct DjangoPBKDF2Scheme: PasswordScheme {
    public let name: String
    private let prefix: String
    private let digest: PBKDF2.Digest

    /// `pbkdf2_sha256$`.
    public static let sha256 = DjangoPBKDF2Scheme(
        name: "django_pbkdf2_sha256", prefix: "pbkdf2_sha256$", digest: .sha256)
    /// `pbkdf2_sha1$`.
    public static let sha1 = DjangoPBKDF2Scheme(name: "django_pbkdf2_sha1", prefix: "pbkdf2_sha1$", digest: .sha1)

    init(name: String, prefix: String, digest: PBKDF2.Digest) {
        self.name = name
        self.prefix = prefix
        self.digest = digest
    }

    public func owns(_ stored: String) -> Bool {
        stored.hasPrefix(prefix)
    }

    public func costProblem(_ stored: String, within limits: LegacyCostLimits) -> String? {
        let parts = stored.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 4, let iterations = Int(parts[1]) else { return nil }
        return limits.problem(pbkdf2Iterations: iterations)
    }

    public func verify(_ password: String, against stored: String) -> Bool {
        let parts = stored.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 4, let iterations = Int32(parts[1]), iterations > 0,
            let expected = Data(base64Encoded: String(parts[3])), !expected.isEmpty
        else { return false }
        let derived = PBKDF2.derive(
            Array(password.utf8), salt: Array(parts[2].utf8), iterations: Int(iterations), length: expected.count,
            digest: digest)
        return ConstantTime.equal(derived, Array(expected))
    }
}
