public import AccountBackendKit
public import AccountCore
public import AccountCrypto
public import AccountServerSettings

/// The resolved configuration: command-line flags over `ACCOUNTS_…` environment over the config
/// file over built-in defaults, every value checked and every path absolute. Each part is the
/// value its user takes whole: the chosen backend opens the store, the policies and the hasher
/// make the service, ``server`` is what the routes take.
public struct AccountSettings: Sendable {
    /// The chosen backend, with its section's configuration and absolute store path: what every
    /// command opens the store from.
    public var backend: ConfiguredBackend
    /// Every backend's section, set up the same way (the chosen one's included), for commands
    /// that open a second store, such as `migrate`.
    public var sections: [String: ConfiguredBackend]
    /// Where the CLI keeps the session token.
    public var sessionFile: String
    /// The config file that was read, if any.
    public var configFile: String?
    /// The config file's text as it was read, once: the file may have been a pipe that cannot
    /// be read again, so a child process that needs the same settings is given a copy.
    public var configFileText: String?
    /// Password rules.
    public var passwordPolicy: PasswordPolicy
    /// Session lifetimes.
    public var sessionPolicy: SessionPolicy
    /// Opaque or signed access tokens, and the keys that sign them.
    public var accessTokens: AccessTokenSettings
    /// Failed-login throttling.
    public var throttlePolicy: LoginThrottlePolicy
    /// How new password hashes are made: Argon2id at the configured cost.
    public var hasher: Argon2idPasswordHasher
    /// The most a hash made elsewhere may cost to check (at login, and at import).
    public var legacyLimits: LegacyCostLimits
    /// Whether the store path is the built-in default (whose folder the CLI may create).
    public var storePathIsDefault: Bool
    /// Whether the session file is the built-in default.
    public var sessionFileIsDefault: Bool
    /// How `accounts serve` listens and limits clients.
    public var server: ServerSettings
    /// The relay the account flows' mail goes through.
    public var mail: MailSettings
    /// Recovery and verification codes.
    public var recovery: RecoveryPolicy
    /// The outside providers users sign in with (`providers.NAME.…`), by name.
    public var providers: [ProviderSettings] = []

    /// The account service over `repository` with these settings: new hashes at the configured
    /// cost (other systems' schemes verified), the password and session rules, the throttle.
    public func service(over repository: any UserRepository) -> AccountService {
        AccountService(
            repository: repository, hasher: PasswordSchemes.standard(current: hasher, limits: legacyLimits),
            strength: ZxcvbnStrengthEstimator(), digester: SHA256TokenDigester(), random: SodiumRandomSource(),
            passwordPolicy: passwordPolicy, sessionPolicy: sessionPolicy, throttlePolicy: throttlePolicy,
            requireVerifiedEmail: recovery.requireVerifiedEmail)
    }
}
