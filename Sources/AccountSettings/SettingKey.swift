import AccountBackendKit

/// One configuration key as the loader, `accounts config` and the reference see it: its dotted
/// name, what it accepts, its default and its meaning. The global keys are made from their
/// declarations in their sections (`SessionSection` and the others, read by ``GlobalSections``), a backend's from its ``BackendOption``s, so each
/// key's type and default is written once.
struct SettingKey: Sendable {
    /// The dotted name, e.g. `session.idle_timeout_minutes`.
    let name: String
    /// What values it takes: the same kinds a backend's options have.
    let kind: BackendOption.Kind
    /// The built-in default, typed; `nil` when there is none (paths are resolved at load time).
    let defaultValue: BackendOptionValue?
    let summary: String

    /// The key's components, e.g. `["session", "idle_timeout_minutes"]`.
    var components: [String] { name.split(separator: ".").map(String.init) }

    /// The environment variable that sets it: `ACCOUNTS_` + the name in upper case with `_`.
    var environmentName: String {
        "ACCOUNTS_" + name.uppercased().replacingDots()
    }

    /// The key of `option` in `section` (a backend's name, or a global section such as `server`).
    init(section: String, option: BackendOption) {
        name = "\(section).\(option.name)"
        kind = option.kind
        defaultValue = option.defaultValue
        summary = option.summary
    }

    init(name: String, kind: BackendOption.Kind, defaultValue: BackendOptionValue?, summary: String) {
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
