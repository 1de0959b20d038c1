/// Where the CLI keeps its files when nothing is configured, per the XDG base-directory spec.
struct XDGLocations {
    /// `$XDG_CONFIG_HOME/accounts` (default `~/.config/accounts`).
    let configDirectory: String
    /// `$XDG_DATA_HOME/accounts` (default `~/.local/share/accounts`): the default store's folder.
    let dataDirectory: String
    /// `$XDG_STATE_HOME/accounts` (default `~/.local/state/accounts`): the session file's folder.
    let stateDirectory: String

    init(environment: [String: String]) {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        func base(_ variable: String, _ fallback: String) -> String {
            // The spec says relative values are invalid and must be ignored.
            if let value = environment[variable], value.hasPrefix("/") { return value }
            return home + "/" + fallback
        }
        configDirectory = base("XDG_CONFIG_HOME", ".config") + "/accounts"
        dataDirectory = base("XDG_DATA_HOME", ".local/share") + "/accounts"
        stateDirectory = base("XDG_STATE_HOME", ".local/state") + "/accounts"
    }
}
