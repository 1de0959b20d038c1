import AccountCore
import Configuration

/// Resolves a path setting against where it came from: flags and environment against the
/// working directory, the config file against the file's folder (a piped one, which has no
/// folder of its own, against the working directory); `~` or `~/…` from any of
/// them is the home folder, as a shell would have it (a config file, a systemd `Environment=`
/// line and `--store=~/…` reach the program without a shell's expansion).
struct PathOrigins {
    let flags: [AbsoluteConfigKey: ConfigValue]
    let environment: [String: String]
    let fileProvider: (any ConfigProvider)?
    /// What the config file's relative paths are relative to.
    let configFolder: String?
    let workingDirectory: String

    /// The absolute path set for `key`, or `nil` when only the default applies.
    func resolve(_ key: SettingKey) throws(AccountError) -> String? {
        let name = key.name
        if case .string(let value) = flags[AbsoluteConfigKey(key.components)]?.content {
            return try Self.absolute(Self.checked(value, name), relativeTo: workingDirectory, environment, name)
        }
        if let value = environment[key.environmentName] {
            return try Self.absolute(
                Self.checked(value, key.environmentName), relativeTo: workingDirectory, environment, key.environmentName
            )
        }
        if let fileProvider, let configFolder,
            let value = ConfigReader(provider: fileProvider).string(forKey: ConfigKey(key.components))
        {
            return try Self.absolute(Self.checked(value, name), relativeTo: configFolder, environment, name)
        }
        return nil
    }

    private static func checked(_ value: String, _ name: String) throws(AccountError) -> String {
        guard !value.isEmpty else { throw .configInvalid(key: name, reason: "the path is empty") }
        return value
    }

    /// `path` with a leading `~` or `~/` as the home folder (`HOME`), then made absolute
    /// against `base`. Only the current user's home: `~name/` is left as written.
    /// - Throws: `configInvalid` naming `key` when the path starts with `~` and `HOME` is unset.
    static func absolute(
        _ path: String, relativeTo base: String, _ environment: [String: String], _ key: String
    ) throws(AccountError) -> String {
        guard path == "~" || path.hasPrefix("~/") else { return absolute(path, relativeTo: base) }
        guard let home = environment["HOME"], home.hasPrefix("/") else {
            throw .configInvalid(key: key, reason: "\(path) starts with ~, but HOME is not set to a folder")
        }
        return absolute(home + path.dropFirst(), relativeTo: base)
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
