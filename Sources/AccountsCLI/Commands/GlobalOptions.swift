import AccountBackendKit
import AccountCore
import AccountSettings
import ArgumentParser

/// What `CommandContext.run` needs from a command's options. Each command takes only the options
/// it uses: `StorelessOptions` (no store: `backends`, `verify`), `StoreOptions` (a store, no
/// session: the operator commands), or `GlobalOptions` (both: the account commands and the app).
protocol CommandOptions {
    var base: StorelessOptions { get }
    /// `--store`, when the command takes it and it was given.
    var storeOverride: String? { get }
    /// `--session-file`, when the command takes it and it was given.
    var sessionFileOverride: String? { get }
    /// `accounts serve`'s `--host` and `--port`, when given.
    var serverOverride: (host: String?, port: Int?) { get }
}

extension CommandOptions {
    var serverOverride: (host: String?, port: Int?) { (nil, nil) }

    /// What the command line says, for the settings loader.
    var settingsOverrides: SettingsOverrides {
        SettingsOverrides(
            configFile: base.config, backend: base.backend, store: storeOverride, sessionFile: sessionFileOverride,
            serverHost: serverOverride.host, serverPort: serverOverride.port)
    }
}

/// Options every subcommand accepts.
struct StorelessOptions: ParsableArguments, CommandOptions {
    @Option(
        name: .long,
        help: "Read settings from this YAML file (else $ACCOUNTS_CONFIG, then $XDG_CONFIG_HOME/accounts/config.yaml).",
        completion: .file(extensions: ["yaml", "yml"]))
    var config: String?

    @Option(name: .long, help: "Use this backend (see `accounts backends`).", completion: .registeredBackends)
    var backend: String?

    @Flag(
        name: .long,
        help: "Print exactly one JSON object: {\"ok\":true,…} or {\"ok\":false,\"error\":{\"code\":…,\"message\":…}}.")
    var json = false

    @Option(name: .long, help: "Message language: ko or en (default from LC_ALL / LC_MESSAGES / LANG).")
    var lang: LanguageOption?

    var base: StorelessOptions { self }
    var storeOverride: String? { nil }
    var sessionFileOverride: String? { nil }
}

/// The options of commands that open the configured store but use no session.
struct StoreOptions: ParsableArguments, CommandOptions {
    @OptionGroup var base: StorelessOptions

    @Option(
        name: .long, help: "The store: a path, or for a server backend the store's name there.", completion: .file())
    var store: String?

    var storeOverride: String? { store }
    var sessionFileOverride: String? { nil }
}

/// The options of commands that work with the signed-in session.
struct GlobalOptions: ParsableArguments, CommandOptions {
    @OptionGroup var base: StorelessOptions

    @Option(
        name: .long, help: "The store: a path, or for a server backend the store's name there.", completion: .file())
    var store: String?

    @Option(
        name: .customLong("session-file"), help: "Where the signed-in sessions are kept, one per store (mode 0600).",
        completion: .file())
    var sessionFile: String?

    var storeOverride: String? { store }
    var sessionFileOverride: String? { sessionFile }
}

/// The session commands' options plus `serve`'s `--host` and `--port`, the top layer of
/// `server.host` and `server.port`, checked like the config file and the environment. `config`
/// takes them too, to show what `serve` would listen on.
struct ServerCommandOptions: ParsableArguments, CommandOptions {
    @OptionGroup var global: GlobalOptions

    @Option(help: "The address to listen on (server.host).") var host: String?

    // `.unconditional`, so that `--port -1` is a port out of range, not a missing value.
    @Option(parsing: .unconditional, help: "The port, 0 for any free one (server.port).") var port: Int?

    var base: StorelessOptions { global.base }
    var storeOverride: String? { global.storeOverride }
    var sessionFileOverride: String? { global.sessionFileOverride }
    var serverOverride: (host: String?, port: Int?) { (host, port) }
}

/// `--lang` values.
enum LanguageOption: String, ExpressibleByArgument, CaseIterable {
    case ko, en

    var language: Language { self == .ko ? .korean : .english }
}

extension CompletionKind {
    /// The names of the backends this build offers, asked of the program when the shell
    /// completes (not baked into the script): a program that adds its own backend offers it too.
    static var registeredBackends: CompletionKind {
        .custom { _, _, _ in CLIBackends.registry.names }
    }
}
