import AccountBackendKit
import AccountCore
import Yams

/// Where each setting's value came from, so that an error can say so: a command-line flag, an
/// `ACCOUNTS_…` variable (named), or the config file (named), with the value that was given.
struct SettingSources {
    let overrides: SettingsOverrides
    let environment: [String: String]
    var configFile: String?
    var fileText: String? {
        didSet { fileNode = fileText.flatMap { try? Yams.compose(yaml: $0) } }
    }
    /// The file parsed once, for the lookups of every key.
    private var fileNode: Node?
    /// The chosen backend's store key (`sqlite.path`, `postgres.schema`): the one `--store`
    /// sets, known once the backend is.
    var storeKeyName: String?

    init(overrides: SettingsOverrides, environment: [String: String]) {
        self.overrides = overrides
        self.environment = environment
    }

    /// The error with where its value was set and what it was, when the error names a setting.
    func explain(_ error: AccountError, schema: SettingsSchema) -> AccountError {
        switch error {
        case .unknownBackend(let name, let known, nil):
            return .unknownBackend(name: name, known: known, setBy: origin(of: "backend", schema: schema))
        case .configInvalid(let key, let reason):
            guard let origin = origin(of: key, schema: schema) else { return error }
            var detail = reason
            if let value = rawValue(of: key, schema: schema), !reason.contains(value) {
                detail += "; got '\(value)'"
            }
            return .configInvalid(key: key, reason: detail + " (\(origin))")
        default:
            return error
        }
    }

    /// "set by --backend", "set by ACCOUNTS_SQLITE_PATH", "set in /etc/accounts.yaml"; `nil` for
    /// a built-in default (or a key that is not a setting).
    func origin(of name: String, schema: SettingsSchema) -> String? {
        guard let key = schema.key(named: name) else { return nil }
        switch source(of: key) {
        case .flag(let flag): return "set by \(flag)"
        case .environment(let variable): return "set by \(variable)"
        case .file(let file): return "set in \(file)"
        case .builtIn: return nil
        }
    }

    /// Which source set `key`: the strongest one that has it.
    func source(of key: SettingKey) -> EffectiveSetting.Source {
        if let flag = flag(for: key) { return .flag(flag) }
        if environment[key.environmentName] != nil { return .environment(key.environmentName) }
        if let configFile, fileValue(of: key) != nil { return .file(configFile) }
        return .builtIn
    }

    private func rawValue(of name: String, schema: SettingsSchema) -> String? {
        guard let key = schema.key(named: name) else { return nil }
        if flag(for: key) != nil {
            switch key.name {
            case "backend": return overrides.backend
            case "session.file": return overrides.sessionFile
            case "server.host": return overrides.serverHost
            case "server.port": return overrides.serverPort.map(String.init)
            default: return overrides.store
            }
        }
        if key.kind == .secret { return nil }
        return environment[key.environmentName] ?? fileValue(of: key)
    }

    /// The command-line flag that set `key`, if one did.
    private func flag(for key: SettingKey) -> String? {
        if key.name == "backend", overrides.backend != nil { return "--backend" }
        if key.name == "session.file", overrides.sessionFile != nil { return "--session-file" }
        if key.name == "server.host", overrides.serverHost != nil { return "--host" }
        if key.name == "server.port", overrides.serverPort != nil { return "--port" }
        if overrides.store != nil, key.name == storeKeyName { return "--store" }
        return nil
    }

    /// The text of `key`'s value in the config file, as written.
    private func fileValue(of key: SettingKey) -> String? {
        guard var node = fileNode else { return nil }
        for component in key.components {
            guard case .mapping(let mapping) = node, let next = mapping[Node(component)] else { return nil }
            node = next
        }
        return node.string
    }
}
