public import AccountCore

/// The one place the password schemes are assembled.
public enum PasswordSchemes {
    /// Every legacy scheme this build verifies, in the order they are tried.
    public static let legacy: [any PasswordScheme] = [
        CryptScheme.bcrypt, CryptScheme.sha512Crypt, CryptScheme.sha256Crypt, CryptScheme.md5Crypt,
        DjangoBcryptSHA256Scheme(), DjangoBcryptScheme(), DjangoScryptScheme(), DjangoPBKDF2Scheme.sha256,
        DjangoPBKDF2Scheme.sha1, Argon2Scheme.django,
        Argon2Scheme.argon2i, PBKDF2Scheme.sha256, PBKDF2Scheme.sha512, PBKDF2Scheme.sha1, ScryptScheme.standard,
        ScryptScheme.firebase, PepperedBcryptScheme(),
    ]

    /// `current` for every new hash, with every legacy scheme for the hashes of other systems,
    /// checked within `limits` (the current hasher's own cost is always admitted).
    public static func standard(
        current: any PasswordHasher, limits: LegacyCostLimits = LegacyCostLimits()
    ) -> SchemedPasswordHasher {
        SchemedPasswordHasher(current: current, legacy: legacy, limits: limits)
    }

    /// The name of the current scheme, every new hash's.
    public static let currentName = "argon2id"

    /// The name of an account without a password (``UserRecord/noPassword``): nothing to upgrade.
    public static let noPasswordName = "none"

    /// The name of the scheme of `stored`: a legacy scheme's, ``currentName`` for this store's
    /// own, ``noPasswordName``, or `unknown` for a hash nothing here can verify.
    public static func name(of stored: String) -> String {
        if stored == UserRecord.noPassword { return noPasswordName }
        if let scheme = legacy.first(where: { $0.owns(stored) }) { return scheme.name }
        return stored.hasPrefix("$argon2id$") ? currentName : "unknown"
    }
}
