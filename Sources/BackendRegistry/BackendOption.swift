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
    }

    /// The key inside the section, lowercase snake_case.
    public let name: String
    /// The accepted values.
    public let kind: Kind
    /// The value when none is configured.
    public let defaultValue: BackendOptionValue
    /// One line for the docs and error messages.
    public let summary: String

    /// Describes a setting.
    public init(name: String, kind: Kind, defaultValue: BackendOptionValue, summary: String) {
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

    public var description: String {
        switch self {
        case .integer(let value): String(value)
        case .word(let value): value
        case .boolean(let value): String(value)
        }
    }
}

/// Everything a backend needs to open its store.
public struct BackendConfiguration: Sendable, Hashable {
    /// The store's path (absolute once resolved).
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
}
