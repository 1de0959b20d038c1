import AccountCore

/// A command used in a way that cannot work (missing input lines, no terminal to prompt on).
struct UsageProblem: Error {
    let english: String
    let korean: String

    func message(_ language: Language) -> String { language == .korean ? korean : english }
}

/// The user pressed Ctrl-C or Ctrl-D at a prompt: leave without changing anything.
struct PromptCancelled: Error {}
