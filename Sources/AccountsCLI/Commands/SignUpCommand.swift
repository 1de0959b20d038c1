import AccountCore
import AccountCrypto
import AccountJSON
import AccountSettings
import ArgumentParser

/// The sign-up form: every field checked, a duplicate reported, then straight to the welcome.
struct SignUpCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signup", abstract: "Create an account and sign in.",
        discussion: """
            The password is asked twice with echo off, or read from standard input with \
            --password-stdin: the password on the first line, its confirmation on the second.
            """)

    @Option(help: "The ID: an email whose part before @ is 6-20 lowercase letters/digits, not starting with a digit.")
    var email: String

    @Option(help: "The display name: 2-20 characters.")
    var nickname: String

    @Flag(help: "Remember me: keep this first session as long as a remembered login.")
    var remember = false

    @Flag(name: .customLong("password-stdin"), help: "Read the password and its confirmation from standard input.")
    var passwordStdin = false

    @OptionGroup var device: DeviceOption

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await CommandContext.run(options) { context in
            let reader = context.passwordReader(fromStandardInput: passwordStdin)
            // Check the cheap fields before asking for secrets, as a form would.
            if let invalid = InvalidForm(.signUpIdentity(email: email, nickname: nickname)) {
                throw InvalidFields(invalid, naming: SignUpField.jsonNames)
            }
            try context.sessionFile.prepareFolder()
            let password = try reader.read(context.messages.passwordPrompt, what: "password")
            let confirmation = try reader.read(context.messages.confirmationPrompt, what: "password confirmation")
            // The whole form, before the store is opened: a refused sign-up creates no store.
            let form = FormCheck.signUp(
                email: email, nickname: nickname, password: password, confirmation: confirmation,
                policy: context.settings.passwordPolicy, estimator: ZxcvbnStrengthEstimator())
            if let invalid = InvalidForm(form) { throw InvalidFields(invalid, naming: SignUpField.jsonNames) }
            let (signedIn, warning) = try await context.withSession(creating: true) { service, session in
                let signedIn = try await InvalidFields.naming(SignUpField.jsonNames) {
                    try await service.signUp(
                        email: email, password: password, confirmation: confirmation, nickname: nickname,
                        remember: remember, device: device.name("accounts"), language: context.language)
                }
                let warning = try await context.keepSession(
                    signedIn, in: session, accountCreated: true, service: service)
                return (signedIn, warning)
            }
            let welcome = context.messages.welcome(signedIn.profile)
            return CommandReply(
                lines: [welcome],
                fields: [("user", CommandContext.json(signedIn.profile)), ("message", .string(welcome))],
                warning: warning)
        }
    }
}
