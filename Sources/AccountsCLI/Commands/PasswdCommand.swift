import AccountCore
import AccountJSON
import ArgumentParser

/// Change the password; every other session is signed out.
struct PasswdCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passwd", abstract: "Change your password (signs out every other session).",
        discussion: "With --password-stdin, give three lines: the current password, the new one, its confirmation.")

    @Flag(name: .customLong("password-stdin"), help: "Read current, new and confirmation from standard input.")
    var passwordStdin = false

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await CommandContext.run(options) { context in
            return try await context.withSession { service, session in
                guard let token = session.token else { throw session.notSignedIn() }
                _ = try await service.sessions.whoami(token: token, touching: false)
                let reader = context.passwordReader(fromStandardInput: passwordStdin)
                let current = try reader.read(context.messages.currentPasswordPrompt, what: "current password")
                let new = try reader.read(context.messages.newPasswordPrompt, what: "new password")
                let confirmation = try reader.read(
                    context.messages.confirmNewPasswordPrompt, what: "new password confirmation")
                try await InvalidFields.naming(NewPasswordField.jsonNames) {
                    try await service.changePassword(
                        token: token, currentPassword: current, newPassword: new, confirmation: confirmation)
                }
                return CommandReply(
                    lines: [context.messages.passwordChanged],
                    fields: [("message", .string(context.messages.passwordChanged))])
            }
        }
    }
}
