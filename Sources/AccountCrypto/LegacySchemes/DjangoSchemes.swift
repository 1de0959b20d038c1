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

    public func problem(_ stored: String, within limits: LegacyCostLimits) -> HashProblem? {
        HashForms.bcrypt(stored.dropFirst(Self.prefix.count), within: limits)
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

    /// `prefix`, the iterations, a salt, and the digest's full length in base64 (Django's
    /// PBKDF2 hashers keep the digest's own size).
    public func problem(_ stored: String, within limits: LegacyCostLimits) -> HashProblem? {
        let parts = stored.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 4, !parts[1].isEmpty, parts[1].count <= 10,
            parts[1].allSatisfy({ $0.isASCII && $0.isNumber }),
            let iterations = Int(parts[1]), iterations > 0, !parts[2].isEmpty
        else { return .malformed("it is not \(prefix)<iterations>$<salt>$<hash>") }
        guard let hash = Data(base64Encoded: String(parts[3])), hash.count == digest.length else {
            return .malformed("its hash is not \(digest.length) bytes in base64")
        }
        return limits.problem(pbkdf2Iterations: iterations).map(HashProblem.tooCostly)
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

/// Django's `bcrypt$` hashes (`BCryptPasswordHasher`): bcrypt over the password itself, so
/// that only its first 72 bytes count, as in Django.
public struct DjangoBcryptScheme: PasswordScheme {
    public let name = "django_bcrypt"
    private static let prefix = "bcrypt$"

    public init() {}

    public func owns(_ stored: String) -> Bool {
        stored.hasPrefix(Self.prefix)
    }

    public func problem(_ stored: String, within limits: LegacyCostLimits) -> HashProblem? {
        HashForms.bcrypt(stored.dropFirst(Self.prefix.count), within: limits)
    }

    public func verify(_ password: String, against stored: String) -> Bool {
        CryptScheme.bcrypt.verify(password, against: String(stored.dropFirst(Self.prefix.count)))
    }
}

/// Django's `scrypt$` hashes (`ScryptPasswordHasher`),
/// `scrypt$<N>$<salt>$<r>$<p>$<base64 of 64 bytes>`: scrypt over the password with the salt's
/// own characters as the salt, N itself (a power of two) rather than its logarithm.
public struct DjangoScryptScheme: PasswordScheme {
    public let name = "django_scrypt"
    private static let prefix = "scrypt$"

    public init() {}

    public func owns(_ stored: String) -> Bool {
        stored.hasPrefix(Self.prefix)
    }

    /// The parts of a whole hash: log₂ N, r, p, the salt's bytes and the hash, or why not.
    private func parse(_ stored: String) -> Result<
        (logN: Int, r: Int, p: Int, salt: [UInt8], hash: [UInt8]), HashProblem
    > {
        let parts = stored.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 6, let n = PHCFields.digits(parts[1]), n > 1, n & (n - 1) == 0, !parts[2].isEmpty,
            let r = PHCFields.digits(parts[3]), (1...64).contains(r), let p = PHCFields.digits(parts[4]),
            (1...16).contains(p)
        else { return .failure(.malformed("it is not scrypt$<N, a power of two>$<salt>$<r>$<p>$<hash>")) }
        guard let hash = Data(base64Encoded: String(parts[5])), hash.count == 64 else {
            return .failure(.malformed("its hash is not 64 bytes in base64"))
        }
        return .success((n.trailingZeroBitCount, r, p, Array(parts[2].utf8), Array(hash)))
    }

    public func problem(_ stored: String, within limits: LegacyCostLimits) -> HashProblem? {
        switch parse(stored) {
        case .failure(let problem): problem
        case .success(let parts): ScryptScheme.memoryProblem(logN: parts.logN, r: parts.r)
        }
    }

    public func verify(_ password: String, against stored: String) -> Bool {
        guard case .success(let parts) = parse(stored) else { return false }
        let derived = ScryptScheme.scrypt(Array(password.utf8), parts.salt, parts.logN, parts.r, parts.p, 64)
        return ConstantTime.equal(derived, parts.hash)
    }
}
