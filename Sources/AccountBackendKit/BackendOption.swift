/// One setting in a backend's config section (besides the store's location), as the settings
/// loader checks it and the docs list it. Backends declare each one as a typed
/// ``BackendSetting``, which carries this description and the setting's only default.
public struct BackendOption: Sendable {
    /// What values the setting takes.
    public enum Kind: Sendable, Hashable {
        /// A whole number within the range.
        case integer(ClosedRange<Int>)
        /// One of these words.
        case choice([String])
        /// `true` or `false`.
        case boolean
        /// Free text (the backend checks it when it opens); an empty default means unset.
        case text
        /// A file path, resolved against where it was set (like the store path).
        case path
        /// A secret, read only from the environment (never a config file) and never printed.
        case secret
    }

    /// The key inside the section, lowercase snake_case.
    public let name: String
    /// The accepted values.
    public let kind: Kind
    /// The value when none is configured (`nil` for a path or secret with no default).
    public let defaultValue: BackendOptionValue?
    /// One line for the docs and error messages.
    public let summary: String

    /// Describes a setting.
    public init(name: String, kind: Kind, defaultValue: BackendOptionValue?, summary: String) {
        self.name = name
        self.kind = kind
        self.defaultValue = defaultValue
        self.summary = summary
    }
}

/// A configured value of a backend setting.
public enum BackendOptionValue: Sendable, Hashable, CustomStringConvertible {
    case integer(Int)
    case word(String)
    case boolean(Bool)
    /// A secret: compared and passed on, but its description never shows it.
    case secret(String)

    public var description: String {
        switch self {
        case .integer(let value): String(value)
        case .word(let value): value
        case .boolean(let value): String(value)
        case .secret: "(secret)"
        }
    }
}
