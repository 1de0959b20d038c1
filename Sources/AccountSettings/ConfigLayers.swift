import Configuration

/// The sources settings are read from, strongest first: the command line's flags, the
/// `ACCOUNTS_…` environment, the config file (if any) and the built-in defaults.
struct ConfigLayers {
    let environment: any ConfigProvider
    let file: (any ConfigProvider)?
    let defaults: InMemoryProvider

    init(environment: [String: String], file: (any ConfigProvider)?, defaults: [AbsoluteConfigKey: ConfigValue]) {
        // The prefix keeps a key named `path` from reading `$PATH`.
        self.environment = EnvironmentVariablesProvider(environmentVariables: environment)
            .prefixKeys(with: ConfigKey("accounts"))
        self.file = file
        self.defaults = InMemoryProvider(name: "defaults", values: defaults)
    }

    /// A reader over every layer, with `flags` on top.
    func reader(flags: [AbsoluteConfigKey: ConfigValue]) -> ConfigReader {
        var providers: [any ConfigProvider] = [InMemoryProvider(name: "flags", values: flags), environment]
        if let file { providers.append(file) }
        providers.append(defaults)
        return ConfigReader(providers: providers)
    }
}
