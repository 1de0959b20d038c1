/// One setting in a backend's config section (besides `path`, which every backend has).
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

/// Everything a backend needs to open its store.
public struct BackendConfiguration: Sendable, Hashable {
    /// Where the store is: its file path (absolute once resolved), or for a server backend the
    /// name of its place on the server (PostgreSQL: the schema).
    public var storePath: String
    /// The section's other settings, every declared option present (defaults filled in).
    public var values: [String: BackendOptionValue]

    /// Creates a configuration.
    public init(storePath: String, values: [String: BackendOptionValue] = [:]) {
        self.storePath = storePath
        self.values = values
    }

    /// The integer setting `name`, or `fallback` when absent.
    public func integer(_ name: String, default fallback: Int) -> Int {
        if case .integer(let value) = values[name] { return value }
        return fallback
    }

    /// The word setting `name`, or `fallback` when absent.
    public func word(_ name: String, default fallback: String) -> String {
        if case .word(let value) = values[name] { return value }
        return fallback
    }

    /// The text or path setting `name`, or `nil` when absent or empty.
    public func text(_ name: String) -> String? {
        if case .word(let value) = values[name], !value.isEmpty { return value }
        return nil
    }

    /// The secret setting `name`, or `nil` when absent or empty.
    public func secret(_ name: String) -> String? {
        if case .secret(let value) = values[name], !value.isEmpty { return value }
        return nil
    }
}
