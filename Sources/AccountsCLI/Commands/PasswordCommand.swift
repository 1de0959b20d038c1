#if Server
    import AccountCore
    import AccountCrypto
    import AccountJSON
    import AccountMail
    import AccountServer
    import AccountServerSettings
    import AccountSettings
    import ArgumentParser

    /// A forgotten password: ask for a mail with a code, then set a new password with it.
    struct PasswordCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "password", abstract: "Get back into an account whose password is forgotten.",
            subcommands: [Forgot.self, Reset.self])

        /// Queues the reset mail, and sends what is due when a relay is configured.
        struct Forgot: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Ask for a mail with a code that sets a new password.",
                discussion: """
                    The answer is the same whether an account holds the address or not. With mail.smtp_host \
                    set the mail goes out at once; otherwise it waits in the store for `accounts serve`.
                    """)

            @Option(help: "The account's email.")
            var email: String

            @OptionGroup var options: GlobalOptions

            func run() async throws {
                try await CommandContext.run(options) { context in
                    let mailClient = try MailDelivery.client(context.settings.mail)
                    let key = try ServerSecretFile.key(at: context.settings.server.secretFile)
                    let (sent, warning) = try await context.withService(creating: false) { service in
                        let recovery = RecoveryService(
                            accounts: service, codes: KeyedRequestCodes(key: key), policy: context.settings.recovery)
                        try await recovery.requestPasswordReset(email: email, language: context.messages.language)
                        guard let mailClient else { return (false, String?.none) }
                        let server = context.settings.server
                        let publicURL = server.publicURL.isEmpty ? server.url(port: server.port) : server.publicURL
                        let pass = try await MailDelivery.sender(
                            mailClient, context.settings.mail, recovery: recovery, publicURL: publicURL
                        ).deliverDue()
                        return (true, pass.lastFailure.map(context.messages.mailDeferred))
                    }
                    let line = context.messages.resetRequested(email: email, relayConfigured: sent)
                    return CommandReply(lines: [line], fields: [("message", .string(line))], warning: warning)
                }
            }
        }

        /// Sets a new password with the code from the mail, and signs this device in.
        struct Reset: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Set a new password with the code from the mail (signs out every session).",
                discussion: "With --password-stdin, give two lines: the new password and its confirmation.")

            @Option(help: "The code from the mail.")
            var code: String

            @Flag(
                name: .customLong("password-stdin"),
                help: "Read the new password and its confirmation from standard input.")
            var passwordStdin = false

            @OptionGroup var device: DeviceOption

            @OptionGroup var options: GlobalOptions

            func run() async throws {
                try await CommandContext.run(options) { context in
                    try context.sessionFile.prepareFolder()
                    let key = try ServerSecretFile.key(at: context.settings.server.secretFile)
                    let reader = context.passwordReader(fromStandardInput: passwordStdin)
                    let new = try reader.read(context.messages.newPasswordPrompt, what: "new password")
                    let confirmation = try reader.read(
                        context.messages.confirmNewPasswordPrompt, what: "new password confirmation")
                    let (signedIn, warning) = try await context.withSession { service, session in
                        let recovery = RecoveryService(
                            accounts: service, codes: KeyedRequestCodes(key: key), policy: context.settings.recovery)
                        let signedIn = try await InvalidFields.naming(NewPasswordField.jsonNames) {
                            try await recovery.resetPassword(
                                code: code, password: new, confirmation: confirmation,
                                device: device.name("accounts"))
                        }
                        let warning = try await context.keepSession(
                            signedIn, in: session, accountCreated: false, service: service)
                        return (signedIn, warning)
                    }
                    let welcome = context.messages.welcome(signedIn.profile)
                    return CommandReply(
                        lines: [context.messages.passwordReset, welcome],
                        fields: [("user", CommandContext.json(signedIn.profile)), ("message", .string(welcome))],
                        warning: warning)
                }
            }
        }
    }
#endif
