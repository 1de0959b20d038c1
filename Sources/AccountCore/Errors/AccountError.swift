/// Every failure the library reports. Each case has a stable `code` (shown by `--json`) and a
/// human message in English and Korean that names the rule broken.
///
/// Engine errors never surface raw: a backend maps them to a case here and keeps the engine's
/// text as `detail`.
public enum AccountError: Error, Sendable, Hashable {
    case invalidEmail(EmailRule)
    case invalidPassword(PasswordRule, minimum: Int = 8, maximum: Int = 128)
    case weakPassword
    case passwordMismatch
    case invalidNickname(NicknameRule)
    case emailTaken
    case invalidCredentials
    /// A signed-in user's password, asked again to confirm a change (`current`: the password
    /// change's current password) or a withdrawal, was wrong. Not `invalidCredentials`: no
    /// email was given, and the session is still valid.
    case wrongPassword(current: Bool)
    case tooManyAttempts(retryAfterSeconds: Int64)
    /// The account is blocked (by an operator, or by its source system before it was moved
    /// in). Said only after the right password: to anyone else the account answers as any.
    case accountBlocked
    /// The account's password is temporary: the login must set a new one (its `new_password`),
    /// and nothing was signed in. Said only after the right password.
    case passwordChangeRequired
    case notSignedIn
    case sessionExpired
    /// The signed-in user has no session with this public id (``SessionSummary/id``): never
    /// had one, already revoked it, or it belongs to someone else, which is not told apart.
    case sessionNotFound
    /// A device name a session would keep breaks ``DeviceName``'s rule (empty names aside,
    /// which mean "unknown"): nothing was signed up or signed in.
    case invalidDeviceName
    case storeCorrupted(detail: ErrorDetail)
    case storeVersionUnsupported(found: Int, supported: Int)
    /// The store has an older format than this build writes, and was opened by a program that
    /// only reads, which never upgrades a store (`accounts upgrade`, or any command that
    /// writes, upgrades it).
    case storeUpgradeNeeded(found: Int, current: Int)
    case storeKindMismatch(expected: String, found: String)
    case storeBusy(detail: ErrorDetail)
    case storeIO(detail: ErrorDetail)
    case configInvalid(key: String, reason: String)
    /// `setBy` says where the name came from (`--backend`, a variable, a file), when known.
    case unknownBackend(name: String, known: [String], setBy: String? = nil)
    case invalidExport(detail: ErrorDetail)
    case storeNotEmpty(detail: ErrorDetail)
    /// No store at the location, and the operation does not create one (it only reads, or
    /// works on an existing account).
    case storeNotFound(location: String)
    /// An outside identity (a provider's subject) is linked to an account already.
    case identityTaken
    /// A recovery or verification code that is not one the store holds: mistyped, used
    /// already, replaced by a newer request, or expired.
    case invalidCode
    /// The right password, for an account whose email must be proven before it signs in
    /// (`signup.require_verified_email`).
    case emailNotVerified
    /// A provider's verified email that an account here has already, while the provider's
    /// identity is linked to no account: the owner signs in with the password first, then links
    /// the provider (an email alone never opens an account).
    case identityNotLinked
    /// A first sign-in with a provider that gave no email it had verified: no account can be
    /// made for it.
    case providerEmailUnverified
    /// The identity to unlink is the account's only way in (no password, no other identity).
    case lastWayIn
    /// No identity of the signed-in user with that provider and id.
    case identityNotFound
    /// The provider's sign-in flow was not this browser's or app's, or is over: no state or a
    /// state that does not match, a flow started too long ago, or the provider's own refusal.
    case providerFlowInvalid(reason: String)
    /// The provider could not be reached, or answered what it should not (what, in English,
    /// without any token or secret).
    case providerFailed(provider: String, reason: String)

    /// The stable machine-readable code.
    public var code: String {
        switch self {
        case .invalidEmail: "invalid_email"
        case .invalidPassword: "invalid_password"
        case .weakPassword: "weak_password"
        case .passwordMismatch: "password_mismatch"
        case .invalidNickname: "invalid_nickname"
        case .emailTaken: "email_taken"
        case .invalidCredentials: "invalid_credentials"
        case .wrongPassword: "wrong_password"
        case .tooManyAttempts: "too_many_attempts"
        case .accountBlocked: "account_blocked"
        case .passwordChangeRequired: "password_change_required"
        case .notSignedIn: "not_signed_in"
        case .sessionExpired: "session_expired"
        case .sessionNotFound: "session_not_found"
        case .invalidDeviceName: "invalid_device_name"
        case .storeCorrupted: "store_corrupted"
        case .storeVersionUnsupported: "store_version_unsupported"
        case .storeUpgradeNeeded: "store_upgrade_needed"
        case .storeKindMismatch: "store_kind_mismatch"
        case .storeBusy: "store_busy"
        case .storeIO: "store_io"
        case .configInvalid: "config_invalid"
        case .unknownBackend: "unknown_backend"
        case .invalidExport: "invalid_export"
        case .storeNotEmpty: "store_not_empty"
        case .storeNotFound: "store_not_found"
        case .identityTaken: "identity_taken"
        case .invalidCode: "invalid_code"
        case .emailNotVerified: "email_not_verified"
        case .identityNotLinked: "identity_not_linked"
        case .providerEmailUnverified: "provider_email_unverified"
        case .lastWayIn: "last_way_in"
        case .identityNotFound: "identity_not_found"
        case .providerFlowInvalid: "provider_flow_invalid"
        case .providerFailed: "provider_failed"
        }
    }

    /// Every code, in a stable order (the *Error codes* article groups them by exit status).
    public static let allCodes = [
        "invalid_email", "invalid_password", "weak_password", "password_mismatch", "invalid_nickname",
        "invalid_device_name", "invalid_code", "provider_flow_invalid", "last_way_in",
        "email_taken", "identity_taken", "identity_not_linked", "invalid_credentials", "wrong_password",
        "too_many_attempts", "account_blocked",
        "password_change_required", "email_not_verified", "provider_email_unverified", "provider_failed",
        "not_signed_in", "session_expired", "session_not_found", "identity_not_found",
        "store_corrupted", "store_version_unsupported", "store_upgrade_needed", "store_kind_mismatch", "store_busy",
        "store_io",
        "config_invalid", "unknown_backend", "invalid_export", "store_not_empty", "store_not_found",
    ]

    /// This error with what the failure left behind added to its detail, for the store errors
    /// and `invalidExport`, which carry one (others are returned as they are): a failure in the
    /// middle of several steps must say what the steps before it changed. The outcome is said
    /// in the message's language.
    public func addingOutcome(_ outcome: ErrorOutcome) -> AccountError {
        adding(.outcome(outcome))
    }

    /// This error with `outcome` added to its detail as text, shown as it is in every language.
    public func addingOutcome(_ outcome: String) -> AccountError {
        adding(.text(outcome))
    }

    private func adding(_ clause: ErrorDetail.Clause) -> AccountError {
        switch self {
        case .invalidExport(let detail): .invalidExport(detail: detail.adding(clause))
        case .storeIO(let detail): .storeIO(detail: detail.adding(clause))
        case .storeBusy(let detail): .storeBusy(detail: detail.adding(clause))
        case .storeCorrupted(let detail): .storeCorrupted(detail: detail.adding(clause))
        case .storeNotEmpty(let detail): .storeNotEmpty(detail: detail.adding(clause))
        default: self
        }
    }

    /// Whether this is a failure of the store rather than of the caller's input.
    public var isStoreFailure: Bool {
        switch self {
        case .storeCorrupted, .storeVersionUnsupported, .storeUpgradeNeeded, .storeKindMismatch, .storeBusy, .storeIO,
            .storeNotEmpty,
            .storeNotFound:
            true
        default: false
        }
    }

    /// The human message in `language`.
    public func message(_ language: Language) -> String {
        ErrorMessages.message(for: self, in: language)
    }
}

extension AccountError: CustomStringConvertible {
    public var description: String { "\(code): \(message(.english))" }
}
