import AccountBackendKit
import AccountCore
import AccountJSON
import AccountSettings
import ArgumentParser

/// `accounts config`: the settings a command run with the same options would use, each with
/// where it was set. It reads them exactly as every other command does (a config error is exit
/// 8 here too, so it doubles as a check of a config before a deploy) and opens no store.
struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Show the settings in effect and where each was set (flag, ACCOUNTS_ variable, config file).",
        discussion: """
            Settings are layered: flags over ACCOUNTS_… variables over the config file over the \
            built-in defaults. This lists every global key and the chosen backend's section (--all: \
            every backend's, those of backends an embedding executable added included), checked as \
            any command checks them, and the chosen backend's section as the backend checks it \
            before it opens the store, without opening it. A secret is never shown, only whether \
            it is set. --host and --port show what `accounts serve` would listen on.
            """)

    @OptionGroup var options: ServerCommandOptions

    @Flag(name: .long, help: "List the sections of every backend, not only the chosen one's.")
    var all = false

    func run() async throws {
        try await CommandContext.runDescribing(options) { context, effective in
            let chosen = context.settings.backend.name
            // What the backend would refuse when it opens (a PostgreSQL URL with a password, a
            // loose password file), reported now; other sections are not used, so not judged.
            try context.settings.backend.validate()
            // `backend`, then the backend sections (the chosen one first), then the other keys.
            let rank = { (setting: EffectiveSetting) in
                setting.key == "backend" ? 0 : setting.backend == chosen ? 1 : setting.backend != nil ? 2 : 3
            }
            let shown = effective.enumerated()
                .filter { all || $0.element.backend == nil || $0.element.backend == chosen }
                .sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(\.element)
            return CommandReply(
                lines: Self.lines(shown, configFile: context.settings.configFile, messages: context.messages),
                fields: [
                    ("config_file", context.settings.configFile.map(JSONValue.string) ?? .null),
                    ("backend", .string(chosen)),
                    ("settings", .array(shown.map(Self.json))),
                ])
        }
    }

    /// The config file's line, then one aligned row per key: key, value, who set it.
    static func lines(_ settings: [EffectiveSetting], configFile: String?, messages: CLIMessages) -> [String] {
        let rows = settings.map { ($0.key, messages.settingValue($0.value), messages.settingSource($0.source)) }
        let keyWidth = rows.map(\.0.terminalColumns).max() ?? 0
        // A long path would push every source far right; past this width a value just overflows.
        let valueWidth = min(rows.map(\.1.terminalColumns).max() ?? 0, 20)
        return [messages.configFileLine(configFile)]
            + rows.map { key, value, source in "\(key.padding(keyWidth))  \(value.padding(valueWidth))  \(source)" }
    }

    static func json(_ setting: EffectiveSetting) -> JSONValue {
        let value: JSONValue =
            switch setting.value {
            case .integer(let number): .int(Int64(number))
            case .boolean(let flag): .bool(flag)
            case .text(let text): .string(text)
            case .none, .hidden: .null
            }
        let (source, setBy): (String, JSONValue) =
            switch setting.source {
            case .flag(let flag): ("flag", .string(flag))
            case .environment(let variable): ("environment", .string(variable))
            case .file(let path): ("file", .string(path))
            case .builtIn: ("default", .null)
            }
        return .object([
            ("key", .string(setting.key)), ("value", value), ("source", .string(source)), ("set_by", setBy),
            ("secret", .bool(setting.isSecret)), ("environment", .string(setting.environmentName)),
            ("expects", .string(setting.expects)), ("default", setting.defaultValue.map(JSONValue.string) ?? .null),
            ("summary", .string(setting.summary)),
        ])
    }
}
