import AccountCore

/// A failure of the CLI's own, beside `AccountError`: its stable code (what `--json` shows), its
/// exit status (``ExitStatus``) and its message. `CommandContext.run` prints and exits for every
/// one the same way, so a new kind is one conforming type, not another catch clause.
protocol CommandFailure: Error {
    /// The stable code, as `--json` shows it.
    var code: String { get }
    /// The process's exit status.
    var exitStatus: Int32 { get }
    /// The message in `language`.
    func message(_ language: Language) -> String
}
