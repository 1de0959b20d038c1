public import AccountBackendKit
public import AccountCore

/// The resolved configuration: command-line flags over `ACCOUNTS_…` environment over the config
/// file over built-in defaults, every value checked and every path absolute.
public struct AccountSettings: Sendable {
    /// The chosen backend's name.
    public var backendName: String
    /// The chosen backend's section, with its absolute store path.
    public var backend: BackendConfiguration
    /// Every backend's section (the chosen one included), for commands that open a second
    /// store, such as `migrate`.
    public var sections: [String: BackendConfiguration]
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
    /// Failed-login throttling.
    public var throttlePolicy: LoginThrottlePolicy
    /// Argon2id passes.
    public var hashOpsLimit: Int
    /// Argon2id memory in KiB.
    public var hashMemLimitKiB: Int
    /// Whether the store path is the built-in default (whose folder the CLI may create).
    public var storePathIsDefault: Bool
    /// Whether the session file is the built-in default.
    public var sessionFileIsDefault: Bool
    /// How `accounts serve` listens and limits clients.
    public var server: ServerSettings
}
