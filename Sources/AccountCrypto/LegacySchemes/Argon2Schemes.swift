public import AccountCore
import CSodium

/// Argon2 hashes of other systems that this store's own hasher does not read: Argon2i PHC
/// strings (`$argon2i$…`, passlib's and older Django's default), and Django's
/// `argon2$argon2id$…` / `argon2$argon2i$…`, a PHC string behind the hasher's name. libsodium
/// verifies them, whatever their parallelism. (Argon2id PHC strings made elsewhere are the
/// current hasher's kind; ``SchemedPasswordHasher`` checks them against the password as typed.)
public struct Argon2Scheme: PasswordScheme {
    public let name: String
    private let prefix: String
    /// What the stored hash is with its prefix taken off, for libsodium.
    private let phcOffset: Int

    /// `$argon2i$…`.
    public static let argon2i = Argon2Scheme(name: "argon2i", prefix: "$argon2i$", phcOffset: 0)
    /// Django's `argon2$…`.
    public static let django = Argon2Scheme(name: "django_argon2", prefix: "argon2$", phcOffset: "argon2".count)

    init(name: String, prefix: String, phcOffset: Int) {
        self.name = name
        self.prefix = prefix
        self.phcOffset = phcOffset
    }

    public func owns(_ stored: String) -> Bool {
        stored.hasPrefix(prefix)
    }

    public func problem(_ stored: String, within limits: LegacyCostLimits) -> HashProblem? {
        HashForms.argon2(stored.dropFirst(phcOffset), within: limits)
    }

    public func verify(_ password: String, against stored: String) -> Bool {
        let phc = String(stored.dropFirst(phcOffset))
        let length = UInt64(password.utf8.count)
        // withCString hands over every byte, and the length is given: a NUL inside is kept.
        return password.withCString { typed in
            if phc.hasPrefix("$argon2id$") { return crypto_pwhash_argon2id_str_verify(phc, typed, length) == 0 }
            if phc.hasPrefix("$argon2i$") { return crypto_pwhash_argon2i_str_verify(phc, typed, length) == 0 }
            return false
        }
    }
}
