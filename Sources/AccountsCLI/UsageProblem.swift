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
