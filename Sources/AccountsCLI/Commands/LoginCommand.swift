import AccountCore
import AccountJSON
import ArgumentParser

/// Log in with email and password; "remember me" keeps the session longer.
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "login", abstract: "Sign in to an existing account.")

    @Option(help: "The account's email.")
    var email: String?

    @Option(
        help: ArgumentHelp(
            "Sign in with a configured provider (providers.NAME) in a browser instead of a password.",
            discussion:
                "Prints the provider's address to open, and waits up to ten minutes for it to send the browser back to a loopback port."
        ))
    var provider: String?

    @Flag(help: "Remember me: keep the session for days instead of hours.")
    var remember = false

    @Flag(
        name: .customLong("password-stdin"),
        help: ArgumentHelp(
            "Read the password from the first line of standard input.",
            discussion:
                "When the account's password is temporary, the next two lines are the new password and its confirmation."
        ))
    var passwordStdin = false

    @OptionGroup var device: DeviceOption

    @OptionGroup var options: GlobalOptions

    func validate() throws {
        switch (email, provider) {
        case (nil, nil): throw ValidationError("give --email, or --provider to sign in with a provider")
        case (_?, _?): throw ValidationError("give --email or --provider, not both")
        case (nil, _?) where passwordStdin: throw ValidationError("--password-stdin goes with --email")
        default: break
        }
    }

    func run() async throws {
        try await CommandContext.run(options) { context in
            try context.sessionFile.prepareFolder()
            guard let email else { return try await signIn(withProvider: provider ?? "", context) }
            let reader = context.passwordReader(fromStandardInput: passwordStdin)
            let password = try reader.read(context.messages.passwordPrompt, what: "password")
            let (signedIn, warning) = try await context.withSession { service, session in
                let device = device.name("accounts")
                let signedIn: SignedInSession
                do {
                    signedIn = try await service.login(
                        email: email, password: password, remember: remember, device: device)
                } catch AccountError.passwordChangeRequired {
                    // Told only after the right password: ask for the new one, then sign in with it.
                    let replacement = NewPassword(
                        try reader.read(context.messages.temporaryPasswordPrompt, what: "new password"),
                        confirmation: try reader.read(
                            context.messages.confirmNewPasswordPrompt, what: "new password confirmation"))
                    signedIn = try await service.login(
                        email: email, password: password, remember: remember, device: device,
                        replacingTemporaryWith: replacement)
                }
                let warning = try await context.keepSession(
                    signedIn, in: session, accountCreated: false, service: service)
                return (signedIn, warning)
            }
            return reply(signedIn, warning: warning, context: context)
        }
    }

    /// What a login prints: the welcome, and with `--json` the user and the session's end.
    private func reply(
        _ signedIn: SignedInSession, warning: String?, provider: String? = nil, context: CommandContext
    ) -> CommandReply {
        let welcome = context.messages.welcome(signedIn.profile)
        return CommandReply(
            lines: [welcome],
            fields: [("user", CommandContext.json(signedIn.profile)), ("remember", .bool(remember))]
                + (provider.map { [("provider", JSONValue.string($0))] } ?? [])
                + [
                    ("expires_at_ms", .int(signedIn.expiresAt.millisecondsSince1970)), ("message", .string(welcome)),
                ],
            warning: warning)
    }

    /// The sign-in through a provider, kept as a login's session is.
    private func signIn(withProvider name: String, _ context: CommandContext) async throws -> CommandReply {
        #if Server
            let profile = try await ProviderLogin.profile(named: name, context: context)
            let (signedIn, warning) = try await context.withSession { service, session in
                let signedIn = try await service.identities.signIn(
                    with: profile, remember: remember, device: device.name("accounts"))
                let warning = try await context.keepSession(
                    signedIn, in: session, accountCreated: false, service: service)
                return (signedIn, warning)
            }
            return reply(signedIn, warning: warning, provider: name, context: context)
        #else
            throw AccountError.configInvalid(
                key: "--provider", reason: "this accounts is built without the Server trait, which providers need")
        #endif
    }
}
