import AccountCore

/// The user pressed Ctrl-C or Ctrl-D at a prompt: leave without changing anything.
struct PromptCancelled: CommandFailure {
    var code: String { "cancelled" }
    var exitStatus: Int32 { ExitStatus.interrupted }
    func message(_ language: Language) -> String {
        language == .korean ? "취소했습니다." : "Cancelled; nothing was changed."
    }
}
