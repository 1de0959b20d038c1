import AccountJSON

/// What a command shows when it succeeds: lines for people, fields for `--json`.
struct CommandReply {
    /// Lines printed to standard output without `--json`.
    var lines: [String]
    /// Fields after `"ok":true` with `--json`.
    var fields: [(String, JSONValue)]
    /// The exit status (non-zero only for `verify` failures).
    var exitStatus: Int32 = ExitStatus.success
    /// With `--json`, the error object to include when `exitStatus` is non-zero.
    var jsonError: (code: String, message: String)?
    /// Print nothing on standard output (the command already wrote its data there).
    var suppressJSON = false
    /// Something the command could not finish that does not undo its success (a session file
    /// that could not be removed): standard error, or `"warning"` with `--json`.
    var warning: String?
}
