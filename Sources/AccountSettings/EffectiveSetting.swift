/// One setting as a command will use it: its value after flags, environment, config file and
/// defaults were layered, and which of them set it. `accounts config` lists these, so that an
/// operator can see why a server listens where it does without reading four sources by hand.
public struct EffectiveSetting: Sendable, Equatable {
    /// A value as it was read and checked.
    public enum Value: Sendable, Equatable {
        case integer(Int)
        case boolean(Bool)
        /// Text, a list as written (`127.0.0.1, ::1`), or an absolute path.
        case text(String)
        /// No value: an optional path or text left unset, or a secret nobody set.
        case none
        /// A secret that is set; its value is never shown.
        case hidden
    }

    /// Where the value came from, from the strongest source to the weakest.
    public enum Source: Sendable, Equatable {
        /// A command-line flag, named (`--store`).
        case flag(String)
        /// An `ACCOUNTS_…` variable, named.
        case environment(String)
        /// The config file, by its absolute path.
        case file(String)
        /// Nothing set it: the built-in default (or, for a store or session path, the default
        /// location under the XDG folders).
        case builtIn
    }

    /// The dotted key, e.g. `server.port`.
    public let key: String
    /// The value a command would use.
    public let value: Value
    /// Who set it.
    public let source: Source
    /// The variable that sets it, e.g. `ACCOUNTS_SERVER_PORT`.
    public let environmentName: String
    /// What it accepts, as errors say it ("a whole number from 1 to 65535").
    public let expects: String
    /// The built-in default as text, `nil` when there is none.
    public let defaultValue: String?
    /// One line on what it does, as the Configuration article's table has it.
    public let summary: String
    /// The backend whose section holds the key; `nil` for the global keys.
    public let backend: String?
    /// Whether the key is a secret (read from the environment only, never shown).
    public let isSecret: Bool
}
