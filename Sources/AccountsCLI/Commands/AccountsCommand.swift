import AccountBackendKit
public import ArgumentParser

#if canImport(Glibc)
    import Glibc
#endif

/// `accounts`: the root command.
public struct AccountsCommand: AsyncParsableCommand {
    public static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "accounts",
            abstract: "Keep user accounts in a store of one of the backends: \(backendList).",
            discussion: """
                Run `accounts` alone on a terminal to open the app: the start screen, then \
                sign-up, login, welcome, password change and withdrawal (`accounts app` takes \
                --store, --backend and the other options for it).

                Exit codes: 0 success, 1 verify found failures, 2 usage error, 3 invalid input, \
                4 email taken, 5 invalid credentials or too many attempts, 6 not signed in, \
                7 store error, 8 configuration error, 9 no such account, 10 signed up or in but the \
                session could not be saved, 11 serve cannot listen now (retry), 130 cancelled at a \
                prompt.
                """,
            version: AccountsVersion.current,
            subcommands: subcommands
        )
    }

    /// The backends' names, comma-separated.
    private static var backendList: String { CLIBackends.registry.names.joined(separator: ", ") }

    // A constant, not a computed list: swift-argument-parser asks for the configuration many
    // times in one parse.
    static let subcommands: [any ParsableCommand.Type] = {
        var commands: [any ParsableCommand.Type] = [
            AppCommand.self, StartCommand.self, SignUpCommand.self, LoginCommand.self, LogoutCommand.self,
            WhoAmICommand.self, SessionsCommand.self, IdentitiesCommand.self,
            WithdrawCommand.self, PasswdCommand.self, UsersCommand.self, ExportCommand.self, ImportCommand.self,
            MigrateCommand.self, DoctorCommand.self, UpgradeCommand.self, VerifyCommand.self, BackendsCommand.self,
            ConfigCommand.self,
        ]
        // Behind the package trait `Server` (on by default): a package that turns it off builds
        // no HTTP stack, and its `accounts` has every command but this one.
        #if Server
            commands.append(ServeCommand.self)
            commands.append(PasswordCommand.self)
            commands.append(KeysCommand.self)
        #endif
        return commands
    }()

    // No options here: swift-argument-parser gives a parent's option to the parent even when a
    // subcommand declares one of the same name, so each subcommand declares the options it uses
    // (and `accounts app` takes them for the app).

    public init() {}

    /// `accounts` alone: the app's flow on a terminal, help otherwise.
    public func run() async throws {
        guard AppCommand.hasTerminal else {
            print(Self.helpMessage())
            return
        }
        try await AppCommand.openApp(try GlobalOptions.parse([]))
    }
}

/// `accounts app`: the app's flow on a terminal, with the options `accounts` alone cannot take.
struct AppCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app", abstract: "Open the app on a terminal (what `accounts` alone does), with options.")

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        guard Self.hasTerminal else {
            // Asked for by name, the app is a usage error without a terminal (`accounts` alone
            // prints the help instead): a script learns it from the status, or `--json`.
            try await CommandContext.run(options) { _ in
                throw UsageProblem(
                    english:
                        "The app needs a terminal (standard input and output); run it on one, or use the commands (accounts --help).",
                    korean: "앱은 터미널(표준 입력과 출력)에서만 열 수 있습니다. 터미널에서 실행하거나 명령을 쓰세요 (accounts --help).")
            }
            return
        }
        try await Self.openApp(options)
    }

    /// Whether standard input and output are a terminal, which the app's prompts need.
    static var hasTerminal: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }

    /// The app, on the terminal (`hasTerminal` checked by the caller).
    static func openApp(_ options: GlobalOptions) async throws {
        try await CommandContext.run(options) { context in
            try await context.withService(creating: true) { service in
                do {
                    try await InteractiveApp(context: context, service: service).run()
                } catch is PromptCancelled {
                    // Ctrl-D in a form or at a question ends the app as Ctrl-C does there (at a
                    // menu both quit, which `run` returns from).
                    let io = TerminalIO(language: context.language)
                    let (message, status) = io.farewell(.cancel)
                    io.show(message)
                    throw ExitCode(status)
                }
            }
            return CommandReply(lines: [], fields: [], suppressJSON: true)
        }
    }
}
