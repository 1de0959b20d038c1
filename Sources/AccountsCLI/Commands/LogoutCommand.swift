import AccountCore
import AccountJSON
import ArgumentParser

/// Revoke the saved session on the store side and forget it locally.
struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "logout", abstract: "Sign out of the saved session.")

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await CommandContext.run(options) { context in
            let warning = try await context.withSession { service, session in
                guard let token = session.token else { throw session.notSignedIn() }
                do {
                    try await service.sessions.logout(token: token)
                } catch AccountError.notSignedIn {
                    // This store no longer knows its saved token: forget it, and only it.
                    try session.forget()
                    throw AccountError.notSignedIn
                }
                return context.forgetRevokedSession(session)
            }
            return CommandReply(
                lines: [context.messages.loggedOut], fields: [("message", .string(context.messages.loggedOut))],
                warning: warning)
        }
    }
}
