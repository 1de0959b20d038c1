import AccountCore
import ArgumentParser

/// Options every subcommand accepts.
struct GlobalOptions: ParsableArguments {
    @Option(
        name: .long,
        help: "Read settings from this YAML file (else $ACCOUNTS_CONFIG, then $XDG_CONFIG_HOME/accounts/config.yaml).")
    var config: String?

    @Option(name: .long, help: "Use this backend (see `accounts backends`).")
    var backend: String?

    @Option(name: .long, help: "The store's path for the chosen backend.")
    var store: String?

    @Option(name: .customLong("session-file"), help: "Where the signed-in session token is kept (mode 0600).")
    var sessionFile: String?

    @Flag(
        name: .long,
        help: "Print exactly one JSON object: {\"ok\":true,…} or {\"ok\":false,\"error\":{\"code\":…,\"message\":…}}.")
    var json = false

    @Option(name: .long, help: "Message language: ko or en (default from LC_ALL / LC_MESSAGES / LANG).")
    var lang: LanguageOption?
}

/// `--lang` values.
enum LanguageOption: String, ExpressibleByArgument, CaseIterable {
    case ko, en

    var language: Language { self == .ko ? .korean : .english }
}
