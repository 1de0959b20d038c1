import AccountBackendKit

/// One configuration key: where it lives, what it accepts, its default and its meaning.
struct SettingKey: Sendable {
    /// What values a key takes.
    enum Kind: Sendable, Hashable {
        case path
        case integer(ClosedRange<Int>)
        case choice([String])
        case boolean
        case text
        /// Read from the environment only; a config file that sets it is refused.
        case secret
    }

    /// The dotted name, e.g. `session.idle_timeout_minutes`.
    let name: String
    let kind: Kind
    /// The built-in default, as text (paths are resolved at load time).
    let defaultValue: String?
    let summary: String

    /// The key's components, e.g. `["session", "idle_timeout_minutes"]`.
    var components: [String] { name.split(separator: ".").map(String.init) }

    /// The environment variable that sets it: `ACCOUNTS_` + the name in upper case with `_`.
    var environmentName: String {
        "ACCOUNTS_" + name.uppercased().replacingDots()
    }

    /// The key of a backend option.
    init(backend: String, option: BackendOption) {
        name = "\(backend).\(option.name)"
        switch option.kind {
        case .integer(let range): kind = .integer(range)
        case .choice(let words): kind = .choice(words)
        case .boolean: kind = .boolean
        case .text: kind = .text
        case .path: kind = .path
        case .secret: kind = .secret
        }
        defaultValue = option.defaultValue?.description
        summary = option.summary
    }

    init(name: String, kind: Kind, defaultValue: String?, summary: String) {
        self.name = name
        self.kind = kind
        self.defaultValue = defaultValue
        self.summary = summary
    }

    /// What the key expects, for error messages.
    var expectation: String {
        switch kind {
        case .path: "a file path"
        case .integer(let range): "a whole number from \(range.lowerBound) to \(range.upperBound)"
        case .choice(let words): "one of " + words.joined(separator: ", ")
        case .boolean: "true or false"
        case .text: "text"
        case .secret: "a secret, from the environment only"
        }
    }
}

extension String {
    fileprivate func replacingDots() -> String {
        String(map { $0 == "." ? "_" : $0 })
    }
}
