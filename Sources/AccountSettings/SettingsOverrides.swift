/// What the command line says, which beats the environment and the config file.
public struct SettingsOverrides: Sendable, Hashable {
    /// `--config FILE`.
    public var configFile: String?
    /// `--backend NAME`.
    public var backend: String?
    /// `--store PATH`: the chosen backend's `path`.
    public var store: String?
    /// `--session-file PATH`.
    public var sessionFile: String?
    /// `accounts serve --host ADDRESS`: `server.host`.
    public var serverHost: String?
    /// `accounts serve --port N`: `server.port`, checked like every other source of it.
    public var serverPort: Int?

    /// Creates overrides; `nil` means "not given".
    public init(
        configFile: String? = nil, backend: String? = nil, store: String? = nil, sessionFile: String? = nil,
        serverHost: String? = nil, serverPort: Int? = nil
    ) {
        self.configFile = configFile
        self.backend = backend
        self.store = store
        self.sessionFile = sessionFile
        self.serverHost = serverHost
        self.serverPort = serverPort
    }
}
