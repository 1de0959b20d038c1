import AccountCore

/// The CLI's stable exit codes (documented in AccountCore's *Error codes* article).
enum ExitStatus {
    static let success: Int32 = 0
    /// `verify` found a failing check.
    static let checksFailed: Int32 = 1
    /// Bad arguments or missing input lines.
    static let usage: Int32 = 2
    /// A field broke a sign-up rule (email, password, nickname, confirmation).
    static let invalidInput: Int32 = 3
    /// The email is already registered.
    static let emailTaken: Int32 = 4
    /// Wrong email or password, throttled, or an account that cannot sign in as it is
    /// (blocked, or with a temporary password to replace).
    static let invalidCredentials: Int32 = 5
    /// No valid session.
    static let notSignedIn: Int32 = 6
    /// The store failed (corrupt, foreign, too new, busy, I/O).
    static let storeError: Int32 = 7
    /// `users show` found no account with that email, or `sessions revoke` no session of
    /// the signed-in user with that id.
    static let accountNotFound: Int32 = 9
    /// The configuration is invalid.
    static let configError: Int32 = 8
    /// The store committed a sign-up or login, but its session could not be saved.
    static let sessionNotSaved: Int32 = 10
    /// `serve` cannot listen now (the port in use, the address not up): worth retrying.
    static let cannotListen: Int32 = 11
    /// Interrupted at a prompt.
    static let interrupted: Int32 = 130

    static func forError(_ error: AccountError) -> Int32 {
        switch error {
        case .invalidEmail, .invalidPassword, .weakPassword, .passwordMismatch, .invalidNickname, .invalidDeviceName,
            .invalidExport, .invalidCode, .providerFlowInvalid, .lastWayIn:
            invalidInput
        case .emailTaken, .identityTaken, .identityNotLinked: emailTaken
        case .invalidCredentials, .wrongPassword, .tooManyAttempts, .accountBlocked, .passwordChangeRequired,
            .emailNotVerified, .providerEmailUnverified, .providerFailed:
            invalidCredentials
        case .notSignedIn, .sessionExpired: notSignedIn
        case .sessionNotFound, .identityNotFound: accountNotFound
        case .storeCorrupted, .storeVersionUnsupported, .storeUpgradeNeeded, .storeKindMismatch, .storeBusy, .storeIO,
            .storeNotEmpty,
            .storeNotFound:
            storeError
        case .configInvalid, .unknownBackend: configError
        }
    }
}
