import AccountCore
import AccountJSON
import ArgumentParser

/// Log in with email and password; "remember me" keeps the session longer.
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "login", abstract: "Sign in to an existing account.")

    @Option(help: "The account's email.")
    var email: String

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

    func run() async throws {
        try await CommandContext.run(options) { context in
            try context.sessionFile.prepareFolder()
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
            let welcome = context.messages.welcome(signedIn.profile)
            return CommandReply(
                lines: [welcome],
                fields: [
                    ("user", CommandContext.json(signedIn.profile)), ("remember", .bool(remember)),
                    ("expires_at_ms", .int(signedIn.expiresAt.millisecondsSince1970)), ("message", .string(welcome)),
                ],
                warning: warning)
        }
    }
}
