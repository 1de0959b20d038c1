import AccountCore

/// A command used in a way that cannot work (missing input lines, no terminal to prompt on).
struct UsageProblem: Error {
    let english: String
    let korean: String

    func message(_ language: Language) -> String { language == .korean ? korean : english }
}

/// The user pressed Ctrl-C or Ctrl-D at a prompt: leave without changing anything.
struct PromptCancelled: Error {}

/// `users show` of an email no account has: its own code (`account_not_found`) and exit status.
struct AccountNotFound: Error {
    let email: String

    func message(_ language: Language) -> String {
        language == .korean ? "\(email) 계정이 없습니다." : "No account has the email \(email)."
    }
}

/// A wrong password where no email was asked (`passwd`, `withdraw`): the code stays
/// `invalid_credentials`, but the message does not mention an email the person never typed.
struct WrongPassword: Error {
    let current: Bool

    func message(_ language: Language) -> String {
        switch (language == .korean, current) {
        case (true, true): "현재 비밀번호가 올바르지 않습니다."
        case (true, false): "비밀번호가 올바르지 않습니다."
        case (false, true): "The current password is incorrect."
        case (false, false): "The password is incorrect."
        }
    }
}

/// A sign-up or login the store committed, whose session could not be saved in the session
/// file: its own code (`session_not_saved`, exit 10), because "nothing was changed" would be
/// false after a sign-up. The new session was revoked (when the store allowed it), since no one
/// holds its token.
struct SessionNotSaved: Error {
    let email: String
    /// Whether the command created the account (sign-up) rather than only signing in.
    let accountCreated: Bool
    /// Whether the unsaved session was revoked in the store.
    let revoked: Bool
    let expiresAt: Timestamp
    let cause: AccountError

    func message(_ language: Language) -> String {
        let reason = cause.message(language)
        let korean = language == .korean
        let session =
            revoked
            ? (korean ? "새 세션은 폐기했습니다" : "the new session was revoked")
            : (korean
                ? "새 세션을 폐기하지 못했으며 \(expiresAt.iso8601)에 만료됩니다"
                : "the new session could not be revoked either and ends by itself at \(expiresAt.iso8601)")
        if accountCreated {
            return korean
                ? "\(email) 계정은 만들어졌지만 세션을 저장하지 못했습니다 (\(reason)). \(session). accounts login으로 로그인하세요."
                : "The account \(email) was created, but the session could not be saved (\(reason)); \(session). Log in with accounts login."
        }
        return korean
            ? "로그인은 되었지만 세션을 저장하지 못했습니다 (\(reason)). \(session). 세션 파일은 그대로입니다."
            : "The login succeeded, but the session could not be saved (\(reason)); \(session), and the session file is as it was."
    }
}
