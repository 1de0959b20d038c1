import AccountBackendKit
import AccountCore
import AccountCrypto
import AccountServerSettings

/// Every global section, read in the order `accounts config` and the reference list their keys:
/// `session`, `password`, `hashing`, `login`, `server`, `mail`, `recovery`, `signup`. The `backend` key, whose choices are
/// the registry's, and each backend's section are added by ``SettingsSchema``.
struct GlobalSections {
    var sessionFile: String?
    var sessionPolicy: SessionPolicy
    var accessTokens: AccessTokenSettings
    var passwordPolicy: PasswordPolicy
    var hasher: Argon2idPasswordHasher
    var legacyLimits: LegacyCostLimits
    var throttlePolicy: LoginThrottlePolicy
    var server: ServerSettings
    var mail: MailSettings
    var recovery: RecoveryPolicy

    /// The sections' values from `source`, and every key they read.
    static func read(_ source: SectionReader.Source, locations: XDGLocations) throws(AccountError) -> (
        sections: GlobalSections, keys: [SettingKey]
    ) {
        var keys: [SettingKey] = []
        func reader(_ section: String) -> SectionReader {
            SectionReader(section: section, source: source, locations: locations)
        }
        func reading<Value>(_ section: String, _ read: (SectionReader) throws(AccountError) -> Value)
            throws(AccountError) -> Value
        {
            let reader = reader(section)
            defer { keys += reader.keys }
            return try read(reader)
        }
        let session = try reading("session", SessionSection.read)
        let password = try reading("password", PasswordSection.read)
        let hashing = try reading("hashing", HashingSection.read)
        let throttle = try reading("login", LoginSection.read)
        let server = try reading("server", ServerSection.read)
        let mail = try reading("mail", MailSection.read)
        var recovery = try reading("recovery", RecoverySection.read)
        recovery.requireVerifiedEmail = try reading("signup", SignUpSection.read)
        let sections = GlobalSections(
            sessionFile: session.file, sessionPolicy: session.policy, accessTokens: session.accessTokens,
            passwordPolicy: password,
            hasher: hashing.hasher, legacyLimits: hashing.legacyLimits, throttlePolicy: throttle, server: server,
            mail: mail, recovery: recovery)
        return (sections, keys)
    }

    /// Every global key, with its default: what the sections read.
    static let keys: [SettingKey] = {
        do {
            return try read(.defaults, locations: XDGLocations(environment: [:])).keys
        } catch {
            preconditionFailure("the built-in defaults of the global settings are refused: \(error)")
        }
    }()

    /// The session file's key (`session.file`).
    static let sessionFileKey = SettingKey(section: "session", option: SessionSection.file.option)
    /// The server secret's key (`server.secret_file`), whose default is in the state folder.
    static let secretFileKey = SettingKey(section: "server", option: ServerSection.secretFile.option)
    /// The signing keys' key (`session.signing_key_file`), whose default is in the state folder.
    static let signingKeyFileKey = SettingKey(section: "session", option: SessionSection.signingKeyFile.option)
}
