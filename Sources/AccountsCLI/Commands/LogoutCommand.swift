import AccountCore
import ArgumentParser
import JSONSupport

/// Revoke the saved session on the store side and forget it locally.
struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "logout", abstract: "Sign out of the saved session.")

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await CommandContext.run(options) { context in
            let token = try context.sessionFile.read()
            do {
                try await context.withService { try await $0.logout(token: token) }
            } catch AccountError.notSignedIn where token != nil {
                try context.sessionFile.remove()
                throw AccountError.notSignedIn
            }
            let warning = context.forgetRevokedSession()
            return CommandReply(
                lines: [context.messages.loggedOut], fields: [("message", .string(context.messages.loggedOut))],
                warning: warning)
        }
    }
}
