import AccountBackendKit
import AccountSettings
import Foundation

/// The settings of a bench run, resolved as `accounts` resolves them (`--config FILE`, the
/// `ACCOUNTS_…` environment, built-in defaults), except that a config file found only at its
/// default location is not read: a personal config must not silently change what `make bench`
/// compares with the raw reference.
enum BenchSettings {
    static func load(
        _ options: BenchOptions, scratchFolder: String, backends: BackendRegistry
    ) async throws -> AccountSettings {
        var environment = ProcessInfo.processInfo.environment
        // The default location is `$XDG_CONFIG_HOME/accounts/config.yaml`: aim it at the empty
        // scratch folder. ACCOUNTS_CONFIG, being explicit, still counts.
        environment["XDG_CONFIG_HOME"] = scratchFolder
        return try await SettingsLoader.load(
            overrides: SettingsOverrides(configFile: options.configFile, backend: options.backend),
            environment: environment, workingDirectory: FileManager.default.currentDirectoryPath,
            registry: backends)
    }
}
