import AccountCore

/// A sign-up or login the store committed, whose session could not be saved in the session
/// file: its own code (`session_not_saved`, exit 10), because "nothing was changed" would be
/// false after a sign-up. The new session was revoked (when the store allowed it), since no one
/// holds its token.
struct SessionNotSaved: CommandFailure {
    let email: String
    /// Whether the command created the account (sign-up) rather than only signing in.
    let accountCreated: Bool
    /// Whether the unsaved session was revoked in the store.
    let revoked: Bool
    let expiresAt: Timestamp
    let cause: AccountError

    var code: String { "session_not_saved" }
    var exitStatus: Int32 { ExitStatus.sessionNotSaved }

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
