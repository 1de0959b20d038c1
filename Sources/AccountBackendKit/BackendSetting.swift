public import AccountCore

/// A typed backend setting: its description for the settings loader (``option``) and the one
/// place its default is written. Read it from a ``BackendConfiguration`` with
/// ``BackendConfiguration/value(of:)``.
///
/// ```swift
/// static let busyTimeout = BackendSetting.integer(
///     "busy_timeout_ms", in: 0...600_000, default: 5_000, summary: "how long a write waits")
/// let timeout = try configuration.value(of: Self.busyTimeout)
/// ```
public struct BackendSetting<Value: Sendable>: Sendable {
    /// The setting as the loader and the docs see it.
    public let option: BackendOption
    /// The value when none is configured.
    public let defaultValue: Value
    private let decode: @Sendable (BackendOptionValue) -> Value?

    private init(
        _ option: BackendOption, defaultValue: Value, decode: @escaping @Sendable (BackendOptionValue) -> Value?
    ) {
        self.option = option
        self.defaultValue = defaultValue
        self.decode = decode
    }

    /// The setting's key inside the section.
    public var name: String { option.name }

    /// The value in `values`, or the default when it is absent.
    /// - Throws: `AccountError.configInvalid` naming the key when a value of another kind, or a
    ///   word that is not one of the choices, is there: never a silent fallback.
    public func value(in values: [String: BackendOptionValue]) throws(AccountError) -> Value {
        guard let raw = values[option.name] else { return defaultValue }
        guard let value = decode(raw) else {
            throw .configInvalid(key: option.name, reason: "'\(raw)' is not a valid value (\(option.summary))")
        }
        return value
    }
}

extension BackendSetting where Value == Int {
    /// A whole number within `range`.
    public static func integer(
        _ name: String, in range: ClosedRange<Int>, default value: Int, summary: String
    ) -> Self {
        Self(
            BackendOption(name: name, kind: .integer(range), defaultValue: .integer(value), summary: summary),
            defaultValue: value
        ) { raw in
            if case .integer(let number) = raw, range.contains(number) { return number }
            return nil
        }
    }
}

extension BackendSetting where Value == Bool {
    /// `true` or `false`.
    public static func boolean(_ name: String, default value: Bool, summary: String) -> Self {
        Self(
            BackendOption(name: name, kind: .boolean, defaultValue: .boolean(value), summary: summary),
            defaultValue: value
        ) { raw in
            if case .boolean(let flag) = raw { return flag }
            return nil
        }
    }
}

extension BackendSetting where Value == String {
    /// Free text with a default (the backend checks it when it opens).
    public static func text(_ name: String, default value: String, summary: String) -> Self {
        Self(
            BackendOption(name: name, kind: .text, defaultValue: .word(value), summary: summary), defaultValue: value
        ) { raw in
            if case .word(let text) = raw { return text }
            return nil
        }
    }
}

extension BackendSetting where Value == String? {
    /// A file path with no default, resolved by the loader against where it was set.
    public static func path(_ name: String, summary: String) -> Self {
        Self(BackendOption(name: name, kind: .path, defaultValue: nil, summary: summary), defaultValue: nil) { raw in
            if case .word(let text) = raw { return text.isEmpty ? nil : text }
            return nil
        }
    }

    /// A secret with no default: read only from the environment, never printed.
    public static func secret(_ name: String, summary: String) -> Self {
        Self(BackendOption(name: name, kind: .secret, defaultValue: nil, summary: summary), defaultValue: nil) { raw in
            if case .secret(let text) = raw { return text.isEmpty ? nil : text }
            return nil
        }
    }
}

extension BackendSetting where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
    /// One word of `Value`'s cases.
    public static func choice(_ name: String, default value: Value, summary: String) -> Self {
        Self(
            BackendOption(
                name: name, kind: .choice(Value.allCases.map(\.rawValue)), defaultValue: .word(value.rawValue),
                summary: summary),
            defaultValue: value
        ) { raw in
            if case .word(let word) = raw { return Value(rawValue: word) }
            return nil
        }
    }
}
