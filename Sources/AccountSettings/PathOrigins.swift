import AccountCore
import Configuration

/// Resolves a path setting against where it came from: flags and environment against the
/// working directory, the config file against the file's folder.
struct PathOrigins {
    let flags: [AbsoluteConfigKey: ConfigValue]
    let environment: [String: String]
    let fileProvider: (any ConfigProvider)?
    let configFile: String?
    let workingDirectory: String

    /// The absolute path set for `name`, or `nil` when only the default applies.
    func resolve(_ name: String, schema: SettingsSchema) throws(AccountError) -> String? {
        let key = schema.key(named: name)!
        if case .string(let value) = flags[AbsoluteConfigKey(key.components)]?.content {
            return try Self.checked(value, name).map { Self.absolute($0, relativeTo: workingDirectory) }
        }
        if let value = environment[key.environmentName] {
            return try Self.checked(value, key.environmentName).map { Self.absolute($0, relativeTo: workingDirectory) }
        }
        if let fileProvider, let configFile,
            let value = ConfigReader(provider: fileProvider).string(forKey: ConfigKey(key.components))
        {
            let folder = configFile.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(
                separator: "/")
            return try Self.checked(value, name).map { Self.absolute($0, relativeTo: folder.isEmpty ? "/" : folder) }
        }
        return nil
    }

    private static func checked(_ value: String, _ name: String) throws(AccountError) -> String? {
        guard !value.isEmpty else { throw .configInvalid(key: name, reason: "the path is empty") }
        return value
    }

    /// `path` made absolute against `base`, with `.` and `..` components and repeated
    /// slashes folded away lexically (as messages show it and as it is opened).
    static func absolute(_ path: String, relativeTo base: String) -> String {
        let joined = path.hasPrefix("/") ? path : (base.hasSuffix("/") ? base : base + "/") + path
        var parts: [Substring] = []
        for part in joined.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..": _ = parts.popLast()
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }
}
