import AccountCore

/// `users show` of an email no account has: its own code (`account_not_found`) and exit status.
struct AccountNotFound: CommandFailure {
    let email: String

    var code: String { "account_not_found" }
    var exitStatus: Int32 { ExitStatus.accountNotFound }

    func message(_ language: Language) -> String {
        language == .korean ? "\(email) 계정이 없습니다." : "No account has the email \(email)."
    }
}
