import AccountCore

/// A command used in a way that cannot work (missing input lines, no terminal to prompt on).
struct UsageProblem: CommandFailure {
    let english: String
    let korean: String

    var code: String { "usage" }
    var exitStatus: Int32 { ExitStatus.usage }
    func message(_ language: Language) -> String { language == .korean ? korean : english }
}
